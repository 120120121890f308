package dev.gamagent.eval.load.mvbench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code gam data verify MVBench_*}: whether a snapshot holds what the variant reads. A snapshot has no md5, so the
 * check is its layout: every one of the 20 tasks has its annotation ({@code json/<task>.json} on the main branch, a
 * {@code meta} entry of {@code test.json} on the video branch), every item of them is a usable row, and every row's
 * video (file, or folder of frames) is present where VLMEvalKit reads it. Nothing is decoded.
 *
 * @param tasks          the tasks with an annotation (of 20)
 * @param missingTasks   the tasks without one
 * @param rows           the rows the annotations hold
 * @param unusable       rows that cannot be read (their reason), by index
 * @param missingVideos  rows whose video is absent, counted by task
 * @param firstMissing   the first few absent videos' paths
 */
public record MvBenchCheck(MvBenchVariant variant, Path root, int tasks, List<String> missingTasks, int rows, Map<Integer, String> unusable,
                           Map<String, Integer> missingVideos, List<Path> firstMissing) {
    /** Paths of absent videos listed in full; the rest are counted. */
    public static final int LISTED = 5;

    /** Checks the snapshot at {@code root} (already known to hold the variant's basic layout: {@link MvBenchLayout#lacks}). */
    public static MvBenchCheck of(MvBenchVariant variant, Path root) {
        List<MvBenchLayout.Row> all = MvBenchLayout.rows(variant, root);
        List<String> missingTasks = new ArrayList<>();
        int tasks = 0;
        for (MvBenchTask t : MvBenchTask.values()) {
            boolean has = variant.mp4() ? all.stream().anyMatch(r -> r.task().equalsIgnoreCase(t.label()))
                    : Files.isRegularFile(root.resolve("json").resolve(t.jsonFile()));
            if (has) tasks++; else missingTasks.add(t.label());
        }
        Map<Integer, String> unusable = new LinkedHashMap<>();
        Map<String, Integer> missing = new LinkedHashMap<>();
        List<Path> first = new ArrayList<>();
        for (MvBenchLayout.Row r : all) {
            if (r.problem() != null) {
                unusable.put(r.index(), r.problem());
                continue;
            }
            Path v = MvBenchLayout.videoPath(root, r);
            boolean present = "frame".equals(r.dataType()) ? Files.isDirectory(v) : Files.isRegularFile(v);
            if (!present) {
                missing.merge(r.task(), 1, Integer::sum);
                if (first.size() < LISTED) first.add(v);
            }
        }
        return new MvBenchCheck(variant, root, tasks, List.copyOf(missingTasks), all.size(), unusable, missing, List.copyOf(first));
    }

    /** Whether every task, row and video is there. */
    public boolean complete() { return missingTasks.isEmpty() && unusable.isEmpty() && missingVideos.isEmpty(); }

    public int missingVideoCount() { return missingVideos.values().stream().mapToInt(Integer::intValue).sum(); }

    /** What it found, one line first, then a line per shortfall. */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        out.add(variant.datasetName() + " (" + root + ", " + variant.branch() + " branch): " + tasks + " of " + MvBenchTask.values().length
                + " tasks annotated, " + rows + " rows, " + (rows - unusable.size() - missingVideoCount()) + " with their video present");
        if (!missingTasks.isEmpty()) out.add("  tasks without annotations: " + String.join(", ", missingTasks));
        if (!unusable.isEmpty()) {
            var e = unusable.entrySet().iterator().next();
            out.add("  " + unusable.size() + " row(s) unreadable, e.g. row " + e.getKey() + ": " + e.getValue());
        }
        if (!missingVideos.isEmpty()) {
            List<String> by = new ArrayList<>();
            missingVideos.forEach((t, n) -> by.add(t + " " + n));
            out.add("  " + missingVideoCount() + " video(s) absent (" + String.join(", ", by) + "), e.g. " + firstMissing.get(0));
            if (missingVideos.containsKey(MvBenchTask.FINE_GRAINED_POSE.label())) {
                out.add("  Fine-grained Pose's videos (NTU RGB+D) are not in the public repository: request them from the NTU RGB+D site "
                        + "and put the .avi files in " + root.resolve(MvBenchTask.FINE_GRAINED_POSE.prefix()) + " (its rows are skipped, named, until then)");
            }
        }
        return out;
    }
}
