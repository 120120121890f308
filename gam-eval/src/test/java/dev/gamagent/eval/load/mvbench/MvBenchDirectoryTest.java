package dev.gamagent.eval.load.mvbench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.eval.load.BenchmarkLoader;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.testing.TestVideos;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code --data DIR} for a directory holding a snapshot of MVBench: read through the loader's directory hook, or told what it lacks. */
class MvBenchDirectoryTest {
    @TempDir Path dir;

    private static ObjectNode item(String video, String question, List<String> candidates, String answer) {
        ObjectNode o = Json.MAPPER.createObjectNode().put("video", video).put("question", question);
        ArrayNode c = o.putArray("candidates");
        candidates.forEach(c::add);
        return o.put("answer", answer);
    }

    /** The main branch with every annotation file; one task has a question, its video made with ffmpeg. */
    private Path mainSnapshot(Path root) throws Exception {
        Files.createDirectories(root.resolve("json"));
        for (MvBenchTask t : MvBenchTask.values()) {
            ArrayNode a = Json.MAPPER.createArrayNode();
            if (t == MvBenchTask.ACTION_SEQUENCE) {
                a.add(item("AS001.mp4", "What did the person do after taking the cup?", List.of("Put down the cup.", "Sat on the sofa."), "Sat on the sofa."));
            }
            Files.writeString(root.resolve("json").resolve(t.jsonFile()), Json.write(a));
        }
        Path videos = Files.createDirectories(root.resolve(MvBenchTask.ACTION_SEQUENCE.prefix()));
        TestVideos.make(videos.resolve("AS001.mp4"), TestVideos.Kind.MP4_H264, 24, 8);
        return root;
    }

    @Test void aDirectoryHoldingMvBenchsMainBranchIsReadAsMvBench8frame() throws Exception {
        Path root = mainSnapshot(dir.resolve("MVBench"));
        Dataset d = BenchmarkLoader.load(root);
        assertThat(d.name()).isEqualTo("MVBench_8frame");
        assertThat(d.skipped()).isEmpty();
        assertThat(d.questions()).hasSize(1);
        EvalQuestion q = d.questions().get(0);
        assertThat(q.shell().text()).isEqualTo("What did the person do after taking the cup?");
        assertThat(q.shell().options()).containsEntry("B", "Sat on the sofa.");
        assertThat(q.shell().groundTruth()).isEqualTo("B");
        assertThat(q.shell().category()).isEqualTo("Action Sequence");
    }

    @Test void aDirectoryHoldingTheVideoBranchIsReadAsMvBenchMp4() throws Exception {
        Path root = Files.createDirectories(dir.resolve("snap"));
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.putObject("root").put("Action Sequence", "video/action_sequence/");
        json.putObject("meta").putArray("Action Sequence").add(item("AS001.mp4", "What happened?", List.of("up.", "down."), "down."));
        Files.writeString(root.resolve("test.json"), Json.write(json));
        TestVideos.make(Files.createDirectories(root.resolve("video/action_sequence")).resolve("AS001.mp4"), TestVideos.Kind.MP4_H264, 24, 8);
        Dataset d = BenchmarkLoader.load(root);
        assertThat(d.name()).isEqualTo("MVBench_MP4_8frame");
        assertThat(d.questions()).extracting(q -> q.shell().groundTruth()).containsExactly("B");
    }

    @Test void aDirectoryThatIsAlmostASnapshotIsToldWhatItLacks() throws Exception {
        Path root = Files.createDirectories(dir.resolve("partial").resolve("json"));
        Files.writeString(root.resolve(MvBenchTask.ACTION_SEQUENCE.jsonFile()), "[]");
        Path partial = root.getParent();
        assertThatThrownBy(() -> BenchmarkLoader.load(partial))
                .hasMessageContaining(partial + " is a directory, not a benchmark file")
                .hasMessageContaining("MVBench: json/ (its 20 annotation files) and video/")
                .hasMessageContaining("this directory: json/ lacks " + MvBenchTask.ACTION_PREDICTION.jsonFile() + ", " + MvBenchTask.ACTION_ANTONYM.jsonFile())
                .hasMessageNotContaining("does not exist");
        Path other = Files.createDirectories(dir.resolve("other"));
        Files.writeString(other.resolve("notes.txt"), "x");
        assertThatThrownBy(() -> BenchmarkLoader.load(other)).hasMessageContaining("this directory: no json/ folder and no test.json");
    }
}
