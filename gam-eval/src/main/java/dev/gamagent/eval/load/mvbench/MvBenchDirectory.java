package dev.gamagent.eval.load.mvbench;

import dev.gamagent.eval.load.BenchmarkLoader;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.eval.load.DirectoryLayout;
import dev.gamagent.eval.load.Images;
import dev.gamagent.eval.load.RowFilter;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code --data DIR} where DIR is a snapshot of MVBench's repository in VLMEvalKit's layout ({@link MvBenchLayout}):
 * the main branch ({@code json/} and {@code video/}) is read as {@code MVBench_8frame}, the video branch
 * ({@code test.json} and the mp4 files) as {@code MVBench_MP4_8frame}, VLMEvalKit's usual frame counts, unless the
 * loader's {@link dev.gamagent.eval.load.Videos} names another variant of the same branch ({@code gam eval --data MVBench_64frame})
 * or a frame count ({@code --frames N}); every question's video goes through the loader's one VideoFrames. Found by
 * {@link BenchmarkLoader} in its list of layouts; a directory that is neither is told what it lacks.
 */
public final class MvBenchDirectory implements DirectoryLayout {
    @Override public String name() { return "MVBench"; }

    @Override public String expects() {
        return "json/ (its 20 annotation files) and video/ of " + MvBenchVariant.REPOSITORY + "'s main branch, read as "
                + MvBenchVariant.MVBENCH_8FRAME.datasetName() + ", or test.json and the mp4 files of its video branch, read as "
                + MvBenchVariant.MVBENCH_MP4_8FRAME.datasetName();
    }

    @Override public boolean matches(Path dir) { return variant(dir) != null; }

    /** The main branch's shortfall when the directory looks like it (or like neither); the video branch only needs test.json. */
    @Override public String lacks(Path dir) {
        if (variant(dir) != null) return null;
        if (Files.isDirectory(dir.resolve("json"))) return MvBenchLayout.lacks(MvBenchVariant.MVBENCH_8FRAME, dir);
        return "no json/ folder and no test.json";
    }

    @Override public Dataset load(Path dir, RowFilter filter, Images images) {
        MvBenchVariant found = variant(dir);
        if (found == null) throw new IllegalArgumentException(dir + " is not a snapshot of " + MvBenchVariant.REPOSITORY + ": " + lacks(dir));
        MvBenchVariant v = found;
        String asked = images.videos().dataset();
        if (asked != null && MvBenchVariant.of(asked).isPresent()) {
            v = MvBenchVariant.of(asked).get();
            String lacks = MvBenchLayout.lacks(v, dir);
            if (lacks != null) {
                throw new IllegalArgumentException(dir + " holds " + MvBenchVariant.REPOSITORY + "'s " + found.branch() + " branch (read as "
                        + found.datasetName() + "), not the " + v.branch() + " branch " + v.datasetName() + " reads: " + lacks);
            }
        }
        return MvBenchDataset.load(v, dir, images.videos().frames(), filter, images.videos().count());
    }

    private static MvBenchVariant variant(Path dir) {
        if (MvBenchLayout.lacks(MvBenchVariant.MVBENCH_8FRAME, dir) == null) return MvBenchVariant.MVBENCH_8FRAME;
        if (MvBenchLayout.lacks(MvBenchVariant.MVBENCH_MP4_8FRAME, dir) == null) return MvBenchVariant.MVBENCH_MP4_8FRAME;
        return null;
    }
}
