package dev.gamagent.eval.recipe;

import dev.gamagent.eval.data.DataFiles;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.eval.data.DatasetEntry;
import dev.gamagent.eval.data.DatasetKind;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A benchmark of a reproduction that is not in the data directory, and the one command or manual step that puts it there.
 * Found by looking only: nothing is downloaded and no server is asked, so a dry run can list every missing benchmark at
 * once rather than stop at (or fetch) the first.
 *
 * @param column      the paper's column it is for
 * @param benchmark   the benchmark's name gam knows it by
 * @param downloadable whether {@code gam data fetch} (or a real run) can download it
 * @param remedy      the command, or the step, that gets it
 */
public record MissingData(String column, String benchmark, boolean downloadable, String remedy) {

    /**
     * The benchmarks of {@code runs} that {@code files} does not hold, each once, in the runs' order; {@code flags} are the
     * command line's data options ({@code --data-dir DIR}, {@code --data-mirror URL}) the printed commands repeat.
     */
    public static List<MissingData> of(List<RecipePlan.EvalRun> runs, DataFiles files, String flags) {
        List<MissingData> out = new ArrayList<>();
        for (RecipePlan.EvalRun run : runs) {
            if (Files.exists(Path.of(run.data()))) continue; // a file given by path, there as it is
            DatasetEntry e = files.catalogue().find(run.data());
            if (e == null || out.stream().anyMatch(m -> m.benchmark().equals(e.name()))) continue;
            if (files.locate(e) != null) continue;
            boolean fetch = files.source(e) != null && !kind(e).snapshot();
            out.add(new MissingData(run.benchmark().column(), e.name(), fetch, remedy(files, e, flags)));
        }
        return List.copyOf(out);
    }

    /**
     * What gets {@code e} into the data directory: {@code gam data fetch NAME} when it has a download (or the mirror serves
     * it), the snapshot's download for MVBench, and for a benchmark built locally (M3MAD-Bench's sets) the build step the
     * catalogue names.
     */
    static String remedy(DataFiles files, DatasetEntry e, String flags) {
        if (kind(e).snapshot()) return files.snapshotInstruction(e);
        if (files.source(e) != null) return "gam data fetch " + e.name() + flags;
        Path target = kind(e).target(e, files.dir().path());
        return "build it with M3MAD-Bench's '" + e.build() + "' (github.com/liaolea/M3MAD-Bench), then put the JSON at " + target
                + " with its images (or give --data-mirror a server holding " + e.file() + ")";
    }

    private static DatasetKind kind(DatasetEntry e) { return DatasetCatalogue.kind(e.kind(), "dataset '" + e.name() + "'"); }

    /** One line: the column, the benchmark, and what gets it. */
    public String describe() { return column + " (" + benchmark + "): " + remedy; }
}
