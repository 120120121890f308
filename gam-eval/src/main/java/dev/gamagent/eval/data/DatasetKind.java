package dev.gamagent.eval.data;

import dev.gamagent.eval.load.mvbench.MvBenchLayout;
import dev.gamagent.eval.load.mvbench.MvBenchVariant;

import java.nio.file.Path;
import java.util.List;

/**
 * How one kind of benchmark is stored in the data directory: where a copy may already be (VLMEvalKit's
 * names, old and new) and where a download goes. A benchmark whose files are not one download (a video
 * benchmark's folder of clips) gets its own kind; list it in {@link DatasetCatalogue#KINDS}.
 */
public interface DatasetKind {
    /** The name entries give in {@code kind}. */
    String name();

    /** What {@code gam data list} says the files are. */
    String describe();

    /** The file name an entry of this kind has when its entry names none. */
    String defaultFile(String datasetName);

    /** Where a copy of {@code entry} may already be, most preferred first. */
    List<Path> candidates(DatasetEntry entry, Path dataDir);

    /** Where a download of {@code entry} is written. */
    default Path target(DatasetEntry entry, Path dataDir) { return dataDir.resolve(entry.file()); }

    /** Whether a copy is a directory (a snapshot of a dataset repository) rather than one file with a published md5. */
    default boolean snapshot() { return false; }

    /** A VLMEvalKit TSV: {@code <name>.tsv}, or its URL's file name (the name VLMEvalKit used before its PR #1055). */
    DatasetKind VLMEVALKIT_TSV = new DatasetKind() {
        @Override public String name() { return "vlmevalkit-tsv"; }

        @Override public String describe() { return "VLMEvalKit TSV (images inside, base64)"; }

        @Override public String defaultFile(String datasetName) { return datasetName + ".tsv"; }

        @Override public List<Path> candidates(DatasetEntry entry, Path dataDir) {
            Path main = dataDir.resolve(entry.file());
            String legacy = entry.urlFileName();
            if (legacy == null || legacy.equals(entry.file())) return List.of(main);
            return List.of(main, dataDir.resolve(legacy));
        }
    };

    /** An M3MAD-Bench JSON list (its images are files the JSON names), kept under {@code M3MAD/} in the data directory. */
    DatasetKind M3MAD_JSON = new DatasetKind() {
        @Override public String name() { return "m3mad-json"; }

        @Override public String describe() { return "M3MAD-Bench JSON (images as files beside it)"; }

        @Override public String defaultFile(String datasetName) { return "M3MAD/" + datasetName + ".json"; }

        @Override public List<Path> candidates(DatasetEntry entry, Path dataDir) { return List.of(dataDir.resolve(entry.file())); }
    };

    /**
     * MVBench by VLMEvalKit's names: a snapshot of the Hugging Face dataset repository OpenGVLab/MVBench (main branch
     * for {@code MVBench_*}, video branch for {@code MVBench_MP4_*}), looked for as {@link MvBenchLayout#candidates}
     * says: {@code <data dir>/MVBench} (or {@code MVBench_MP4}), the hub cache layout under the data directory, then the
     * hub cache VLMEvalKit downloads into. Not one file: no md5, and no download of its own (see {@link DataFiles#fetch}).
     */
    DatasetKind MVBENCH_SNAPSHOT = new DatasetKind() {
        @Override public String name() { return "mvbench-snapshot"; }

        @Override public String describe() { return "a snapshot of the Hugging Face dataset repository " + MvBenchVariant.REPOSITORY; }

        @Override public String defaultFile(String datasetName) { return variant(datasetName).dataset(); }

        @Override public List<Path> candidates(DatasetEntry entry, Path dataDir) {
            return MvBenchLayout.candidates(variant(entry.name()), dataDir, MvBenchLayout.defaultHubCaches());
        }

        @Override public boolean snapshot() { return true; }
    };

    /** The MVBench variant an entry of kind {@link #MVBENCH_SNAPSHOT} is (its name is VLMEvalKit's). */
    static MvBenchVariant variant(String datasetName) {
        return MvBenchVariant.of(datasetName).orElseThrow(() -> new IllegalArgumentException("dataset '" + datasetName
                + "' has kind mvbench-snapshot but is not one of VLMEvalKit's MVBench names " + MvBenchVariant.names()));
    }
}
