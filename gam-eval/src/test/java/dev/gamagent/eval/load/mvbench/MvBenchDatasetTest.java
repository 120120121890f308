package dev.gamagent.eval.load.mvbench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.eval.grade.MvBenchGrading;
import dev.gamagent.eval.grade.Outcome;
import dev.gamagent.eval.load.BenchmarkLoader;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.eval.load.RowFilter;
import dev.gamagent.eval.load.SkippedRow;
import dev.gamagent.image.internal.FrameCache;
import dev.gamagent.image.ImageException;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.gamagent.image.internal.VideoFrames;
import dev.gamagent.testing.TestVideos;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

/**
 * A fixture in VLMEvalKit's MVBench layout (five of the 20 tasks hold rows, the others are empty lists;
 * tiny videos made here with ffmpeg: mp4 H.264, webm, NTU's avi, a TVQA folder of frames) loads by name,
 * samples the frames VLMEvalKit samples, and grades as VLMEvalKit grades. Every expected frame list is what
 * VLMEvalKit's own {@code get_index}, {@code get_index_by_frame} and {@code get_index_by_fps}
 * (vlmeval/dataset/mvbench.py at e8e78f05) return for these videos, run in Python; every expected verdict
 * is what its {@code check_ans} and {@code can_infer} return for these predictions.
 */
class MvBenchDatasetTest {
    /** The snapshots, made once (encoding the videos is the slow part); tests that change a layout copy it first. */
    @TempDir static Path shared;
    private static Path data;
    @TempDir Path dir;

    @BeforeAll static void snapshots() throws Exception {
        data = shared.resolve("LMUData");
        mainSnapshot(data.resolve("MVBench"));
        mp4Snapshot(data.resolve("MVBench_MP4"));
    }

    private VideoFrames frames() {
        return new VideoFrames(System.getenv("PATH"), new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS), new FrameCache(dir.resolve("frame-cache")));
    }

    private static ObjectNode item(String video, String question, List<String> candidates, String answer, Double start, Double end) {
        ObjectNode o = Json.MAPPER.createObjectNode().put("video", video).put("question", question);
        ArrayNode c = o.putArray("candidates");
        candidates.forEach(c::add);
        o.put("answer", answer);
        if (start != null) o.put("start", start);
        if (end != null) o.put("end", end);
        return o;
    }

    /** The main branch's layout after VLMEvalKit's prepare_dataset: json/ with all 20 files, the videos under video/. */
    private static Path mainSnapshot(Path root) throws Exception {
        Files.createDirectories(root.resolve("json"));
        Map<MvBenchTask, List<ObjectNode>> rows = Map.of(
                MvBenchTask.ACTION_SEQUENCE, List.of(
                        item("AS001.mp4", "What did the person do after taking the cup?",
                                List.of("Put down the cup.", "Opened the door.", "Sat on the sofa.", "Took the towel."), "Sat on the sofa.", 1.0, 4.0),
                        item("AS001.mp4", "Which object did the person take first?",
                                List.of("The cup.", "The towel.", "The book.", "The phone."), "The cup.", 0.5, 5.55)),
                MvBenchTask.ACTION_ANTONYM, List.of(
                        item("1042.webm", "What is the action performed by the person in the video?",
                                List.of("Pushing something from right to left", "Pushing something from left to right", "not sure"),
                                "Pushing something from left to right", null, null),
                        item("1042.webm", "An answer that is not a candidate", List.of("yes", "no"), "maybe", null, null)),
                MvBenchTask.MOVING_DIRECTION, List.of(
                        item("video_10001.mp4", "What direction is the cyan sphere moving in within the video?",
                                List.of("up and to the left.", "down and to the right.", "The object is stationary.", "up and to the right."),
                                "The object is stationary.", null, null),
                        (ObjectNode) Json.MAPPER.createObjectNode().put("video", "video_10002.mp4").put("answer", "up")),
                MvBenchTask.FINE_GRAINED_POSE, List.of(
                        item("S001C001P001R001A001_rgb.avi", "What is the pose performed by the person in the video?",
                                List.of("drink water", "eat meal", "brush teeth", "wear a shoe"), "wear a shoe", null, null),
                        item("S001C001P001R001A002_rgb.avi", "What is the pose performed by the person in the video?",
                                List.of("drink water", "eat meal"), "eat meal", null, null)),
                MvBenchTask.EPISODIC_REASONING, List.of(
                        item("s01e02_seg02_clip_03", "Why did Monica close the window?",
                                List.of("She was late.", "She was tired.", "She was hungry.", "She was happy.", "She was cold."),
                                "She was cold.", 2.0, 8.0)));
        for (MvBenchTask t : MvBenchTask.values()) {
            ArrayNode a = Json.MAPPER.createArrayNode();
            rows.getOrDefault(t, List.of()).forEach(a::add);
            Files.writeString(root.resolve("json").resolve(t.jsonFile()), Json.write(a));
        }
        TestVideos.make(dirs(root.resolve("video/star/Charades_v1_480")).resolve("AS001.mp4"), TestVideos.Kind.MP4_H264, 60, 10);
        TestVideos.make(dirs(root.resolve("video/ssv2_video")).resolve("1042.webm"), TestVideos.Kind.WEBM_VP9, 40, 8);
        TestVideos.make(dirs(root.resolve("video/clevrer/video_validation")).resolve("video_10001.mp4"), TestVideos.Kind.MP4_H264, 20, 5);
        TestVideos.make(dirs(root.resolve("video/nturgbd")).resolve("S001C001P001R001A001_rgb.avi"), TestVideos.Kind.AVI_MPEG4, 50, 25);
        TestVideos.frameDir(root.resolve("video/tvqa/frames_fps3_hq/s01e02_seg02_clip_03"), 30, 1, "%05d.jpg");
        return root;
    }

    /** The video branch: test.json (root: task → folder, meta: task → rows) and the cut mp4 files. */
    private static Path mp4Snapshot(Path root) throws Exception {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.putObject("root").put("Action Sequence", "video/action_sequence/").put("Moving Direction", "video/moving_direction/");
        ObjectNode meta = json.putObject("meta");
        meta.putArray("Action Sequence").add(item("AS001.mp4", "What did the person do after taking the cup?",
                List.of("Put down the cup.", "Sat on the sofa."), "Sat on the sofa.", null, null));
        meta.putArray("Moving Direction").add(item("video_10001.mp4", "What direction is the cyan sphere moving in within the video?",
                List.of("up.", "down.", "The object is stationary."), "down.", null, null));
        Files.createDirectories(root);
        Files.writeString(root.resolve("test.json"), Json.write(json));
        TestVideos.make(dirs(root.resolve("video/action_sequence")).resolve("AS001.mp4"), TestVideos.Kind.MP4_H264, 36, 12);
        TestVideos.make(dirs(root.resolve("video/moving_direction")).resolve("video_10001.mp4"), TestVideos.Kind.MP4_H264, 24, 6);
        return root;
    }

    private static Path dirs(Path p) throws IOException { return Files.createDirectories(p); }

    private static List<Integer> numbers(EvalQuestion q) {
        return q.question().images().stream().map(p -> TestVideos.number(p.image())).toList();
    }

    private static EvalQuestion byId(Dataset d, String id) {
        return d.questions().stream().filter(q -> q.id().equals(id)).findFirst().orElseThrow();
    }

    @Test void mvBench8frameLoadsByNameWithVlmEvalKitsQuestionsAndFrames() throws Exception {
        Dataset d = MvBenchDataset.load("MVBench_8frame", data, List.of(), frames(), RowFilter.ALL);
        assertThat(d.name()).isEqualTo("MVBench_8frame");
        // indices run over every row in VLMEvalKit's task order, whether or not a row can be used
        assertThat(d.questions()).extracting(EvalQuestion::id).containsExactly("0", "1", "2", "4", "6", "8");
        assertThat(d.skipped()).extracting(SkippedRow::index).containsExactly("3", "5", "7");
        assertThat(d.skipped().get(0).reason()).contains("the answer 'maybe' is not one of its candidates");
        assertThat(d.skipped().get(1).reason()).contains("json/moving_direction.json item 1").contains("missing 'question'");
        assertThat(d.skipped().get(2).reason()).contains("S001C001P001R001A002_rgb.avi does not exist").contains("NTU RGB+D");

        dev.gamagent.eval.load.KeyedQuestion q0 = byId(d, "0").shell();
        assertThat(q0.text()).isEqualTo("What did the person do after taking the cup?");
        assertThat(q0.options()).containsExactly(entry("A", "Put down the cup."), entry("B", "Opened the door."),
                entry("C", "Sat on the sofa."), entry("D", "Took the towel."));
        assertThat(q0.groundTruth()).isEqualTo("C");
        assertThat(q0.category()).isEqualTo("Action Sequence");
        assertThat(q0.hint()).startsWith("Carefully watch the video");
        assertThat(q0.images()).as("no frame is decoded before the question starts").isEmpty();
        assertThat(byId(d, "8").shell().groundTruth()).isEqualTo("E");

        // get_index((1.0, 4.0), 10, 59, 8) and get_index((0.5, 5.55), 10, 59, 8): the task's bounds
        assertThat(numbers(byId(d, "0"))).containsExactly(11, 15, 19, 22, 26, 30, 33, 37);
        assertThat(numbers(byId(d, "1"))).containsExactly(8, 14, 21, 27, 34, 40, 46, 53);
        assertThat(numbers(byId(d, "2"))).as("webm, 40 frames at 8 fps").containsExactly(2, 7, 12, 17, 22, 26, 31, 36);
        assertThat(numbers(byId(d, "4"))).as("mp4, 20 frames at 5 fps").containsExactly(1, 3, 6, 8, 11, 13, 15, 18);
        assertThat(numbers(byId(d, "6"))).as("NTU avi, 50 frames at 25 fps").containsExactly(3, 9, 15, 21, 27, 34, 40, 46);
        // get_index((2.0, 8.0), 3, 30, 8, first_idx=1) = files 00007.jpg, 00009.jpg, ... (frame 0 is 00001.jpg)
        List<Picture> tvqa = byId(d, "8").question().images();
        assertThat(tvqa.stream().map(p -> TestVideos.number(p.image()))).containsExactly(6, 8, 10, 13, 15, 17, 20, 22);
        assertThat(tvqa.get(0).source()).isEqualTo("s01e02_seg02_clip_03/00007.jpg");
    }

    @Test void mvBench64frameRepeatsFramesOfShortClipsAsVlmEvalKitDoes() throws Exception {
        Dataset d = MvBenchDataset.load("MVBench_64frame", data, List.of(), frames(), new RowFilter(0, "moving direction"));
        assertThat(d.questions()).extracting(EvalQuestion::id).containsExactly("4");
        // get_index(None, 5, 19, 64)
        assertThat(numbers(d.questions().get(0))).containsExactly(0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6, 6,
                7, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15, 15, 16,
                16, 16, 17, 17, 17, 18, 18, 18, 18, 19);
    }

    @Test void theMp4VariantsReadTheVideoBranchAtEightFramesOrOnePerSecond() throws Exception {
        Dataset eight = MvBenchDataset.load("MVBench_MP4_8frame", data, List.of(), frames(), RowFilter.ALL);
        assertThat(eight.questions()).extracting(q -> q.shell().category()).containsExactly("Action Sequence", "Moving Direction");
        assertThat(eight.questions().get(1).shell().groundTruth()).isEqualTo("B");
        // get_index_by_frame(35, 8) and get_index_by_frame(23, 8)
        assertThat(numbers(eight.questions().get(0))).containsExactly(2, 6, 11, 15, 20, 24, 28, 33);
        assertThat(numbers(eight.questions().get(1))).containsExactly(1, 4, 7, 10, 13, 15, 18, 21);
        Dataset fps = MvBenchDataset.load("mvbench_mp4_1fps", data, List.of(), frames(), RowFilter.ALL);
        // get_index_by_fps: 36 frames at 12 fps, 24 at 6 fps, one frame per second
        assertThat(numbers(fps.questions().get(0))).containsExactly(0, 12, 24);
        assertThat(numbers(fps.questions().get(1))).containsExactly(0, 6, 12, 18);
    }

    @Test void aSnapshotVlmEvalKitDownloadedIntoTheHubCacheIsFoundByItsBranch() throws Exception {
        Path hub = dir.resolve("hub");
        Path repo = hub.resolve("datasets--OpenGVLab--MVBench");
        copy(data.resolve("MVBench"), repo.resolve("snapshots/0c7c5b3e"));
        copy(data.resolve("MVBench_MP4"), repo.resolve("snapshots/9f1d2a40"));
        Files.createDirectories(repo.resolve("refs"));
        Files.writeString(repo.resolve("refs/main"), "0c7c5b3e");
        Files.writeString(repo.resolve("refs/video"), "9f1d2a40\n");
        Path empty = Files.createDirectories(dir.resolve("empty-data"));
        assertThat(MvBenchLayout.locate(MvBenchVariant.MVBENCH_8FRAME, empty, List.of(hub))).isEqualTo(repo.resolve("snapshots/0c7c5b3e"));
        assertThat(MvBenchLayout.locate(MvBenchVariant.MVBENCH_MP4_1FPS, empty, List.of(hub))).isEqualTo(repo.resolve("snapshots/9f1d2a40"));
        assertThat(MvBenchDataset.load("MVBench_MP4_8frame", empty, List.of(hub), frames(), RowFilter.ALL).questions()).hasSize(2);
    }

    @Test void noSnapshotSaysWhereItLookedAndHowToGetOne() throws Exception {
        Path mine = Files.createDirectories(dir.resolve("LMUData"));
        assertThatThrownBy(() -> MvBenchDataset.load("MVBench_8frame", mine, List.of(dir.resolve("hub")), frames(), RowFilter.ALL))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no snapshot of OpenGVLab/MVBench").hasMessageContaining(mine.resolve("MVBench") + " (absent)")
                .hasMessageContaining("datasets--OpenGVLab--MVBench (absent)").hasMessageContaining("huggingface-cli download OpenGVLab/MVBench");
        // downloaded but not unzipped yet
        Path root = mine.resolve("MVBench");
        copy(data.resolve("MVBench/json"), root.resolve("json"));
        Files.createDirectories(root.resolve("video"));
        Files.writeString(root.resolve("video/star.zip"), "zip");
        assertThatThrownBy(() -> MvBenchDataset.load("MVBench_8frame", mine, List.of(), frames(), RowFilter.ALL))
                .hasMessageContaining("the videos are still zipped: unzip video/*.zip inside video/");
        Files.delete(root.resolve("json/state_change.json"));
        assertThatThrownBy(() -> MvBenchDataset.load("MVBench_8frame", mine, List.of(), frames(), RowFilter.ALL))
                .hasMessageContaining("json/ lacks state_change.json");
        assertThatThrownBy(() -> MvBenchDataset.load("MVBench_16frame", mine, List.of(), frames(), RowFilter.ALL))
                .hasMessageContaining("not an MVBench name").hasMessageContaining("MVBench_8frame, MVBench_64frame, MVBench_MP4_8frame, MVBench_MP4_1fps");
    }

    @Test void withoutFfmpegTheDatasetSaysOnceWhatToInstall() {
        VideoFrames noDecoder = new VideoFrames(dir.resolve("no-bin").toString(), new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS),
                new FrameCache(dir.resolve("frame-cache")));
        assertThatThrownBy(() -> MvBenchDataset.load("MVBench_8frame", data, List.of(), noDecoder, RowFilter.ALL))
                .isInstanceOf(ImageException.class).hasMessageStartingWith("MVBench_8frame (").hasMessageContaining("needs ffmpeg")
                .hasMessageContaining("apt-get install ffmpeg")
                .hasMessageNotContaining("\n");
    }

    @Test void answersAreGradedAsVlmEvalKitGradesMvBenchWithoutAJudge() {
        Dataset d = MvBenchDataset.load("MVBench_8frame", data, List.of(), frames(), RowFilter.ALL);
        // predictions (answer text, no option letter) and VLMEvalKit's verdict on each: check_ans, then can_infer
        Map<String, String> predictions = Map.of("0", "C) Sat on the sofa.", "1", "The cup.", "2", "", "4", "a", "6", "(D",
                "8", "The answer is E");
        Map<String, Boolean> vlmEvalKit = Map.of("0", true, "1", true, "2", true, "4", false, "6", true, "8", true);
        List<MvBenchGrading.Scored> scored = new ArrayList<>();
        for (EvalQuestion q : d.questions()) {
            String id = q.id();
            var graded = MvBenchGrading.grade(q.shell(), answer(predictions.get(id), null));
            boolean hit = graded.outcome() == Outcome.CORRECT;
            // the one difference, on purpose: VLMEvalKit counts an empty prediction right ('' is in every "(x)")
            assertThat(hit).as("question %s: %s", id, predictions.get(id)).isEqualTo(id.equals("2") ? false : vlmEvalKit.get(id));
            scored.add(new MvBenchGrading.Scored(q.shell().category(), hit));
        }
        assertThat(MvBenchGrading.grade(byId(d, "4").shell(), answer("a", null)).outcome()).isEqualTo(Outcome.UNMATCHED);
        assertThat(MvBenchGrading.grade(byId(d, "4").shell(), answer("whatever", "C")).rule()).isEqualTo("mvbench:method");
        // get_dimension_rating over the same rows (VLMEvalKit's overall is [5, 6, '83.33%'], the empty prediction counted right)
        assertThat(MvBenchGrading.ratingJson(scored)).containsExactly(
                entry("Action Sequence", List.of(2, 2, "100.00%")), entry("Action Antonym", List.of(0, 1, "0.00%")),
                entry("Moving Direction", List.of(0, 1, "0.00%")), entry("Fine-grained Pose", List.of(1, 1, "100.00%")),
                entry("Episodic Reasoning", List.of(1, 1, "100.00%")), entry("overall", List.of(4, 6, "66.67%")));
    }

    @Test void checkAnsReadsTheFirstWordAsVlmEvalKitDoes() {
        Map<String, String> opts = Map.of("A", "walking", "B", "running", "C", "sitting", "D", "jumping");
        Map<String, String> options = new java.util.TreeMap<>(opts);
        // each prediction with VLMEvalKit's verdict (check_ans or can_infer == 'C'), computed with its own functions
        Object[][] cases = {{"C", true}, {"(C) sitting", true}, {"C) sitting", true}, {"c.", true}, {"A", false},
                {"The answer is C", true}, {"a person is sitting", true}, {"sitting", true}, {"(", true}, {"B) running", false},
                {"I think it is (C)", true}, {"Cannot determine the answer", false}, {"Answer: C", true}, {"  C  ", true},
                {"(c", true}, {"D. jumping", false}, {"running or sitting", false}, {"A) walking, no wait, C", false},
                {"Best option: (C)", true}};
        for (Object[] c : cases) {
            assertThat(MvBenchGrading.verdict((String) c[0], options, "C").hit()).as("'%s'", c[0]).isEqualTo(c[1]);
        }
        assertThat(MvBenchGrading.verdict(".", options, "C").hit()).as("VLMEvalKit: True ('' is in '(c)'); here: wrong").isFalse();
    }

    private static Answer answer(String text, String option) {
        return new Answer(text, option, 0.5, 0.5, 0, Termination.CONSENSUS, new TokenCount(0, 0, false), 1, 0, null);
    }

    private static void copy(Path from, Path to) throws IOException {
        try (var s = Files.walk(from)) {
            for (Path x : s.toList()) {
                Path target = to.resolve(from.relativize(x).toString());
                if (Files.isDirectory(x)) Files.createDirectories(target);
                else Files.copy(x, target);
            }
        }
    }
}
