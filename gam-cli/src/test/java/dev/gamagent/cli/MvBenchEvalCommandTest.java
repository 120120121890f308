package dev.gamagent.cli;

import dev.gamagent.testing.CommandRun;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.testing.TestVideos;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code gam eval --data MVBench_8frame} (and the other names) end to end: the snapshot found in the data directory in
 * VLMEvalKit's layout (tiny videos made by ffmpeg), each question's frames decoded when it starts and sent to the
 * backend as images (within a bounded task's seconds), graded by VLMEvalKit's MVBench rule.
 */
class MvBenchEvalCommandTest {
    @TempDir Path dir;

    /**
     * {@code <data dir>/MVBench}, the main branch: all 20 annotation files; Action Sequence (bounded: 1–2 s of a 3 s mp4
     * at 8 fps), Action Antonym (a webm) and Object Shuffle (an animated gif) have a question each.
     */
    private Path dataDir() throws Exception {
        return MvBenchFixture.mainBranch(dir.resolve("data"));
    }

    /** Frames each question's request carried (its frame numbers, read from the pixels), by question text. */
    private static Map<String, List<Integer>> framesSent(ScriptedBackend b) {
        Map<String, List<Integer>> out = new HashMap<>();
        for (ChatRequest r : b.requests) {
            var m = r.messages().get(r.messages().size() - 1);
            String key = m.text().contains("cup") ? "cup" : m.text().contains("ball") ? "ball" : "action"; // the hint says "action" too
            List<Integer> numbers = new ArrayList<>();
            for (Picture p : m.images()) numbers.add(TestVideos.number(p.image()));
            out.put(key, numbers);
        }
        return out;
    }

    /**
     * Replies as a model might: "(B) Sat on the sofa." (right), "b" for an answer A (wrong) and "(c" — MVBench's
     * check_ans takes the first word "(c" as inside "(c)", right.
     */
    private static ScriptedBackend replying() {
        return ScriptedBackend.text(r -> {
            String t = r.messages().get(r.messages().size() - 1).text();
            return t.contains("cup") ? "(B) Sat on the sofa." : t.contains("ball") ? "(c" : "b";
        });
    }

    @Test void mvBench8frameByNameDecodesEachQuestionsFramesAndGradesAsVlmEvalKit() throws Exception {
        Path data = dataDir();
        ScriptedBackend b = replying();
        Path out = dir.resolve("run8");
        CommandRun r = CommandRun.of(new EvalCommand((s, c) -> b), "--data", "MVBench_8frame", "--data-dir", data.toString(), "--methods", "single",
                "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("MVBench_8frame: the snapshot of OpenGVLab/MVBench (main branch) at " + data.resolve("MVBench"));

        Map<String, List<Integer>> sent = framesSent(b);
        // 8 frames each, as images; the bounded task's within 1–2 s (frames 8–16 of the 8 fps clip), the others over all 24
        // (get_index: seconds 1-2 are frames 8-16, segments of 1 frame; over 0-23, segments of 2.875 frames, round half to even)
        assertThat(sent.get("cup")).containsExactly(8, 9, 10, 11, 12, 13, 14, 15);
        assertThat(sent.get("action")).containsExactly(1, 4, 7, 10, 13, 15, 18, 21);
        assertThat(sent.get("ball")).containsExactly(1, 4, 7, 10, 13, 15, 18, 21);

        JsonNode summary = Json.MAPPER.readTree(out.resolve("summary.json").toFile());
        assertThat(summary.path("data").asText()).isEqualTo("MVBench_8frame");
        assertThat(summary.path("grading").toString()).contains("mvbench");
        assertThat(summary.path("metrics").path("single").path("accuracy").asDouble()).isEqualTo(2.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
        Map<String, String> rules = new HashMap<>();
        Map<String, Boolean> right = new HashMap<>();
        for (String line : Files.readAllLines(out.resolve("results.jsonl"))) {
            JsonNode rec = Json.MAPPER.readTree(line);
            rules.put(rec.path("category").asText(), rec.path("rule").asText());
            right.put(rec.path("category").asText(), rec.path("outcome").asText().equals("correct"));
        }
        assertThat(rules).containsOnlyKeys("Action Sequence", "Action Antonym", "Object Shuffle");
        assertThat(rules.values()).allSatisfy(rule -> assertThat(rule).startsWith("mvbench:"));
        assertThat(right).containsEntry("Action Sequence", true).containsEntry("Action Antonym", false).containsEntry("Object Shuffle", true);
    }

    @Test void otherNamesAndFramesPickTheFrameCount() throws Exception {
        Path data = dataDir();
        ScriptedBackend b64 = replying();
        CommandRun r = CommandRun.of(new EvalCommand((s, c) -> b64), "--data", "MVBench_64frame", "--data-dir", data.toString(), "--methods", "single",
                "--out", dir.resolve("run64").toString(), "--category", "Action Antonym");
        assertThat(r.code()).as(r.err()).isZero();
        // 64 frames of a 24-frame clip: repeats kept, as VLMEvalKit's get_index gives them
        assertThat(framesSent(b64).get("action")).hasSize(64).first().isEqualTo(0);

        ScriptedBackend b4 = replying();
        r = CommandRun.of(new EvalCommand((s, c) -> b4), "--data", "MVBench_8frame", "--data-dir", data.toString(), "--methods", "single",
                "--out", dir.resolve("run4").toString(), "--frames", "4", "--category", "Object Shuffle");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(framesSent(b4).get("ball")).containsExactly(2, 8, 14, 19);

        // the video branch named while only the main branch is there: told where it looked
        r = CommandRun.of(new EvalCommand((s, c) -> replying()), "--data", "MVBench_MP4_8frame", "--data-dir", data.toString(), "--methods", "single",
                "--out", dir.resolve("mp4").toString());
        assertThat(r.code()).isNotZero();
        assertThat(r.err()).contains("MVBench_MP4");
    }
}
