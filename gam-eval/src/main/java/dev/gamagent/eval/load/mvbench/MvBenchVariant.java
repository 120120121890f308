package dev.gamagent.eval.load.mvbench;

import dev.gamagent.image.internal.FrameSelection;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * VLMEvalKit's MVBench names (vlmeval/dataset/video_dataset_config.py at e8e78f05, {@code mvbench_dataset}):
 * which snapshot of the dataset's repository (OpenGVLab/MVBench) each reads and how many frames it takes.
 * {@code MVBench_*} read the {@code main} branch (annotation files under {@code json/}, the videos in their
 * source datasets' folders, some rows bounded by start/end seconds, TVQA as folders of frames);
 * {@code MVBench_MP4_*} read the {@code video} branch ({@code test.json} and one cut mp4 per question).
 */
public enum MvBenchVariant {
    MVBENCH_8FRAME("MVBench_8frame", "MVBench", "main", 8, 0),
    MVBENCH_64FRAME("MVBench_64frame", "MVBench", "main", 64, 0),
    MVBENCH_MP4_8FRAME("MVBench_MP4_8frame", "MVBench_MP4", "video", 8, 0),
    MVBENCH_MP4_1FPS("MVBench_MP4_1fps", "MVBench_MP4", "video", 0, 1.0);

    /** The dataset's repository on the Hugging Face hub. */
    public static final String REPOSITORY = "OpenGVLab/MVBench";

    private final String name;
    private final String dataset;
    private final String branch;
    private final int frames;
    private final double fps;

    MvBenchVariant(String name, String dataset, String branch, int frames, double fps) {
        this.name = name;
        this.dataset = dataset;
        this.branch = branch;
        this.frames = frames;
        this.fps = fps;
    }

    /** The name as VLMEvalKit spells it, e.g. {@code MVBench_8frame}. */
    public String datasetName() { return name; }

    /** VLMEvalKit's dataset class name and the folder looked for under the data directory: MVBench or MVBench_MP4. */
    public String dataset() { return dataset; }

    /** The branch of the repository the variant reads: main or video. */
    public String branch() { return branch; }

    public boolean mp4() { return branch.equals("video"); }

    /** The frames of a row (without its task's bounds): N uniform frames, or one per second. */
    public FrameSelection selection() {
        // VLMEvalKit indexes frames it may repeat (a short clip gives the same frame twice), as decord does
        return (fps > 0 ? FrameSelection.rate(fps) : FrameSelection.uniform(frames)).keepingRepeats();
    }

    /** The variant named {@code name} (VLMEvalKit's spelling, any case). */
    public static Optional<MvBenchVariant> of(String name) {
        if (name == null) return Optional.empty();
        return Arrays.stream(values()).filter(v -> v.name.equalsIgnoreCase(name.strip())).findFirst();
    }

    /** Every name, in VLMEvalKit's order. */
    public static List<String> names() { return Arrays.stream(values()).map(v -> v.name).toList(); }

    @Override public String toString() { return name; }
}
