package dev.gamagent.eval.load.mvbench;

import dev.gamagent.api.Question;
import dev.gamagent.eval.load.BenchmarkLoader;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.eval.load.RowFilter;
import dev.gamagent.eval.load.SkippedRow;
import dev.gamagent.image.internal.FrameSelection;
import dev.gamagent.image.ImageException;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.internal.VideoFrames;
import dev.gamagent.image.internal.VideoInfo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * MVBench by VLMEvalKit's names ({@link MvBenchVariant}) as a dataset of questions, read from a snapshot of
 * the dataset's repository ({@link MvBenchLayout}). Each row becomes a multiple-choice question as
 * VLMEvalKit's {@code qa_template} builds it (vlmeval/dataset/mvbench.py at e8e78f05): the candidates are
 * options A, B, ... in their order, the answer is the letter of the candidate equal to the answer (the last
 * one, as there), the category is the task ({@code task_type}), and the hint is VLMEvalKit's system prompt
 * for MVBench. A row's video is decoded only when its question starts (the question's images are a
 * supplier): N frames sampled uniformly, or one per second for {@code MVBench_MP4_1fps}, within the row's
 * start/end seconds when its task is bounded; TVQA's frame folders are read at 3 frames per second counted
 * from 1, as VLMEvalKit reads them. Grade the answers with {@link dev.gamagent.eval.grade.MvBenchGrading}.
 *
 * <p>A row whose video is missing is skipped with its reason (VLMEvalKit refuses the whole dataset then;
 * NTU RGB+D's videos, the Fine-grained Pose task, are not in the public snapshot).
 */
public final class MvBenchDataset {
    /** VLMEvalKit's {@code MVBench.SYS} (the same for MVBench_MP4), given to the methods as the question's hint. */
    public static final String SYSTEM_PROMPT = "Carefully watch the video and pay attention to the cause and sequence of events, "
            + "the detail and movement of objects, and the action and pose of persons. "
            + "Based on your observations, select the best option that accurately addresses the question.";
    /** VLMEvalKit's {@code frame_fps}: TVQA's frame folders hold 3 frames per second, numbered from 00001.jpg. */
    public static final double FRAME_FOLDER_FPS = 3.0;

    private MvBenchDataset() { }

    /** Whether {@code name} is one of VLMEvalKit's MVBench names. */
    public static boolean isName(String name) { return MvBenchVariant.of(name).isPresent(); }

    public static List<String> names() { return MvBenchVariant.names(); }

    /** The dataset named {@code name}, looked for under {@code dataDir} and VLMEvalKit's hub cache, every row. */
    public static Dataset load(String name, Path dataDir, VideoFrames frames) {
        return load(name, dataDir, MvBenchLayout.defaultHubCaches(), frames, RowFilter.ALL);
    }

    /**
     * The dataset named {@code name}: its snapshot found under {@code dataDir} or one of {@code hubCaches},
     * the rows {@code filter} keeps (its category is the task, e.g. "Action Sequence").
     *
     * @throws IllegalArgumentException for an unknown name or when no snapshot is found (saying where it looked)
     * @throws ImageException when ffmpeg, which the videos need, is not installed (one line saying what to install)
     */
    public static Dataset load(String name, Path dataDir, List<Path> hubCaches, VideoFrames frames, RowFilter filter) {
        MvBenchVariant variant = MvBenchVariant.of(name).orElseThrow(() -> new IllegalArgumentException(
                "'" + name + "' is not an MVBench name; use one of " + String.join(", ", MvBenchVariant.names())));
        return load(variant, MvBenchLayout.locate(variant, dataDir, hubCaches), frames, filter);
    }

    /** The variant's rows from the snapshot at {@code root} (already known to hold the variant's layout). */
    static Dataset load(MvBenchVariant variant, Path root, VideoFrames frames, RowFilter filter) {
        return load(variant, root, frames, filter, 0);
    }

    /** As above, taking {@code count} frames per video sampled uniformly (within a bounded task's seconds) in place of the variant's, when positive. */
    static Dataset load(MvBenchVariant variant, Path root, VideoFrames frames, RowFilter filter, int count) {
        if (!frames.decoderAvailable()) { // every variant has video files: say it once, not once per row
            throw new ImageException(variant.datasetName() + " (" + root + "): decoding its videos needs ffmpeg and ffprobe, "
                    + "which are not on PATH; " + VideoFrames.INSTALL);
        }
        List<EvalQuestion> out = new ArrayList<>();
        List<SkippedRow> skipped = new ArrayList<>();
        for (MvBenchLayout.Row row : MvBenchLayout.rows(variant, root)) {
            if (filter.limit() > 0 && out.size() >= filter.limit()) break;
            if (filter.category() != null && !filter.category().isBlank() && !filter.category().equalsIgnoreCase(row.task())) continue;
            String idx = Integer.toString(row.index());
            if (row.problem() != null) {
                skipped.add(new SkippedRow(idx, row.problem()));
                continue;
            }
            try {
                KeyedQuestion shell = question(row);
                Path video = MvBenchLayout.videoPath(root, row);
                check(frames, video, row);
                FrameSelection selection = selection(variant, row, count);
                out.add(new EvalQuestion(shell, () -> frames.frames(video, selection), () -> sizes(frames, video, selection), idx, 0, null));
            } catch (IllegalArgumentException | ImageException e) {
                skipped.add(new SkippedRow(idx, row.task() + ", " + row.video() + ": " + e.getMessage()));
            }
        }
        return new Dataset(variant.datasetName(), out, skipped);
    }

    /**
     * The sizes of the frames a question takes, without decoding a video file: its stream's width and height (ffprobe)
     * times the frames {@code selection} picks. A folder of frames is read (its frames are small images already).
     */
    static List<ImageLoader.Header> sizes(VideoFrames frames, Path video, FrameSelection selection) {
        if (java.nio.file.Files.isDirectory(video)) return EvalQuestion.sizesOf(frames.frames(video, selection));
        VideoInfo info = frames.probe(video);
        int n;
        try {
            n = selection.indices(0, Math.max(0, info.frames() - 1), info.fps()).size();
        } catch (IllegalArgumentException e) {
            throw new ImageException(video + ": " + e.getMessage(), e);
        }
        List<ImageLoader.Header> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(new ImageLoader.Header(null, info.width(), info.height()));
        return out;
    }

    /** {@code qa_template}: candidates as options A.., the answer as the letter of the (last) equal candidate. */
    static KeyedQuestion question(MvBenchLayout.Row row) {
        if (row.candidates().size() > 26) throw new IllegalArgumentException(row.candidates().size() + " candidates, more than the letters A-Z");
        Map<String, String> options = new LinkedHashMap<>();
        String answer = null;
        for (int i = 0; i < row.candidates().size(); i++) {
            String letter = String.valueOf((char) ('A' + i));
            options.put(letter, row.candidates().get(i));
            if (row.candidates().get(i).equals(row.answer())) answer = letter;
        }
        if (answer == null) throw new IllegalArgumentException("the answer '" + row.answer() + "' is not one of its candidates " + row.candidates());
        return new KeyedQuestion(new Question(Integer.toString(row.index()), List.of(), row.question(), SYSTEM_PROMPT, options), answer, row.task(), null);
    }

    /** The variant's frames, within the row's seconds when its task is bounded; frame folders at 3 fps from 1. */
    static FrameSelection selection(MvBenchVariant variant, MvBenchLayout.Row row) { return selection(variant, row, 0); }

    /** The same with {@code count} uniform frames (repeats kept, as VLMEvalKit's) in place of the variant's when positive. */
    static FrameSelection selection(MvBenchVariant variant, MvBenchLayout.Row row, int count) {
        FrameSelection s = count > 0 ? FrameSelection.uniform(count).keepingRepeats() : variant.selection();
        if (row.bound() && (row.start() != null || row.end() != null)) s = s.within(row.start(), row.end());
        if ("frame".equals(row.dataType())) s = s.folder(FRAME_FOLDER_FPS, 1);
        return s;
    }

    private static void check(VideoFrames frames, Path video, MvBenchLayout.Row row) {
        try {
            frames.check(video);
        } catch (ImageException e) {
            if (row.prefix().startsWith(MvBenchTask.FINE_GRAINED_POSE.prefix()) && !java.nio.file.Files.exists(video)) {
                throw new ImageException(video + " does not exist: NTU RGB+D's videos were removed from MVBench's repository "
                        + "(see its README); request them from the NTU RGB+D site and put the .avi files in " + row.prefix(), e);
            }
            throw e;
        }
    }
}
