package dev.gamagent.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.eval.load.mvbench.MvBenchTask;
import dev.gamagent.testing.TestVideos;
import dev.gamagent.util.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A tiny snapshot of MVBench's main branch in VLMEvalKit's layout under {@code <data dir>/MVBench}: all 20 annotation
 * files, three questions (Action Sequence bounded to 1–2 s of a 3 s mp4, Action Antonym on a webm, Object Shuffle on a
 * gif), the videos made by ffmpeg ({@link TestVideos}).
 */
final class MvBenchFixture {
    private MvBenchFixture() { }

    static ObjectNode item(String video, String question, List<String> candidates, String answer) {
        ObjectNode o = Json.MAPPER.createObjectNode().put("video", video).put("question", question);
        ArrayNode c = o.putArray("candidates");
        candidates.forEach(c::add);
        return o.put("answer", answer);
    }

    /** Writes the snapshot into {@code data/MVBench} and returns {@code data}. */
    static Path mainBranch(Path data) throws Exception {
        Path root = data.resolve("MVBench");
        Files.createDirectories(root.resolve("json"));
        Map<MvBenchTask, ArrayNode> items = new HashMap<>();
        for (MvBenchTask t : MvBenchTask.values()) items.put(t, Json.MAPPER.createArrayNode());
        items.get(MvBenchTask.ACTION_SEQUENCE).add(item("AS001.mp4", "What did the person do after taking the cup?",
                List.of("Put down the cup.", "Sat on the sofa."), "Sat on the sofa.").put("start", 1.0).put("end", 2.0));
        items.get(MvBenchTask.ACTION_ANTONYM).add(item("AA001.webm", "What is the action?",
                List.of("Pushing it away.", "Pulling it closer.", "Not sure."), "Pushing it away."));
        items.get(MvBenchTask.OBJECT_SHUFFLE).add(item("OS001.gif", "Where is the ball?",
                List.of("Left.", "Middle.", "Right."), "Right."));
        for (MvBenchTask t : MvBenchTask.values()) Files.writeString(root.resolve("json").resolve(t.jsonFile()), Json.write(items.get(t)));
        // TestVideos.make runs ffmpeg once per (kind, frames, rate) per JVM and writes those bytes to every later file
        TestVideos.make(Files.createDirectories(root.resolve(MvBenchTask.ACTION_SEQUENCE.prefix())).resolve("AS001.mp4"),
                TestVideos.Kind.MP4_H264, 24, 8);
        TestVideos.make(Files.createDirectories(root.resolve(MvBenchTask.ACTION_ANTONYM.prefix())).resolve("AA001.webm"),
                TestVideos.Kind.WEBM_VP9, 24, 8);
        TestVideos.make(Files.createDirectories(root.resolve(MvBenchTask.OBJECT_SHUFFLE.prefix())).resolve("OS001.gif"),
                TestVideos.Kind.GIF, 24, 8);
        return data;
    }
}
