package dev.gamagent.eval.recipe;

import dev.gamagent.eval.data.DataFiles;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.eval.data.DatasetEntry;
import dev.gamagent.eval.data.m3mad.M3madBuilder;
import dev.gamagent.eval.data.m3mad.M3madSet;
import dev.gamagent.eval.data.DatasetKind;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
     * What gets {@code e} into the data directory: {@link DataFiles#remedy}'s step ({@code gam data fetch NAME} when it has
     * a download or the mirror serves it, the snapshot's download for MVBench, {@code gam data build NAME} for DREAM's
     * M3MAD-Bench sets) with the command line's data flags; a set that is built is preceded by the command that gets its
     * source into the place the build looks first.
     */
    static String remedy(DataFiles files, DatasetEntry e, String flags) {
        String step = files.remedy(e);
        if (!step.startsWith("gam data ")) return step;
        Optional<M3madSet> set = M3madSet.of(e.name());
        if (set.isEmpty() || !step.startsWith("gam data build")) return step + flags;
        String source = set.get().repository() == null ? set.get().download(null) + flags
                : set.get().download(M3madBuilder.defaultSource(set.get(), files.dir().path()));
        return source + " && " + step + flags;
    }

    private static DatasetKind kind(DatasetEntry e) { return DatasetCatalogue.kind(e.kind(), "dataset '" + e.name() + "'"); }

    /** One line: the column, the benchmark, and what gets it. */
    public String describe() { return column + " (" + benchmark + "): " + remedy; }
}
