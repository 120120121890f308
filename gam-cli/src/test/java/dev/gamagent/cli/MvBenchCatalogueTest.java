package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.load.mvbench.MvBenchTask;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** VLMEvalKit's MVBench names as entries of the catalogue: {@code gam data list | verify | fetch} on a snapshot in VLMEvalKit's layout. */
class MvBenchCatalogueTest {
    @TempDir Path dir;

    @Test void listShowsTheFourNamesWhereTheyAreLookedForAndWhetherTheSnapshotIsHere() throws Exception {
        Path data = MvBenchFixture.mainBranch(dir.resolve("data"));
        CommandRun list = CommandRun.main("data", "list", "--data-dir", data.toString());
        assertThat(list.code()).as(list.err()).isZero();
        String out = list.out();
        assertThat(out).containsPattern("MVBench_8frame +snapshot +dir +mvbench .*main branch of OpenGVLab/MVBench in "
                + java.util.regex.Pattern.quote(data.resolve("MVBench").toString()) + ".*8 frames per question");
        assertThat(out).containsPattern("MVBench_64frame +snapshot .*64 frames per question");
        // the video branch is not in the data directory
        assertThat(out).containsPattern("MVBench_MP4_8frame +no \\(snapshot\\) .*video branch of OpenGVLab/MVBench in "
                + java.util.regex.Pattern.quote(data.resolve("MVBench_MP4").toString()));
        assertThat(out).containsPattern("MVBench_MP4_1fps +no \\(snapshot\\) .*1 frame per second");
    }

    @Test void verifyChecksTheTasksAnnotationsAndEveryRowsVideo() throws Exception {
        Path data = MvBenchFixture.mainBranch(dir.resolve("data"));
        CommandRun ok = CommandRun.main("data", "verify", "MVBench_8frame", "--data-dir", data.toString());
        assertThat(ok.code()).as(ok.out() + ok.err()).isZero();
        assertThat(ok.out()).contains("ok       MVBench_8frame (" + data.resolve("MVBench") + ", main branch): 20 of 20 tasks annotated, 3 rows, "
                + "3 with their video present");

        Path webm = data.resolve("MVBench").resolve(MvBenchTask.ACTION_ANTONYM.prefix()).resolve("AA001.webm");
        Files.delete(webm);
        CommandRun missing = CommandRun.main("data", "verify", "MVBench_8frame", "--data-dir", data.toString());
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.out()).contains("INCOMPLETE MVBench_8frame").contains("2 with their video present")
                .contains("1 video(s) absent (Action Antonym 1), e.g. " + webm);

        // an annotation file gone: the layout is not MVBench's any more, and verify says what it lacks and how to fetch it
        Files.delete(data.resolve("MVBench/json").resolve(MvBenchTask.STATE_CHANGE.jsonFile()));
        CommandRun lacks = CommandRun.main("data", "verify", "MVBench_8frame", "--data-dir", data.toString());
        assertThat(lacks.code()).isEqualTo(1);
        assertThat(lacks.out()).contains("json/ lacks state_change.json").contains("huggingface-cli download OpenGVLab/MVBench --repo-type dataset");
    }

    @Test void fetchOfASnapshotSaysInOneLineHowToGetIt() {
        Path data = dir.resolve("empty");
        CommandRun r = CommandRun.main("data", "fetch", "MVBench_MP4_8frame", "--data-dir", data.toString());
        assertThat(r.code()).isEqualTo(1);
        String[] lines = r.err().strip().split("\n");
        assertThat(lines).hasSize(1);
        assertThat(lines[0]).contains("MVBench_MP4_8frame is a snapshot of the Hugging Face dataset repository OpenGVLab/MVBench (video branch)")
                .contains("huggingface-cli download OpenGVLab/MVBench --repo-type dataset --revision video --local-dir " + data.resolve("MVBench_MP4"))
                .contains("gam data verify MVBench_MP4_8frame");
        CommandRun main = CommandRun.main("data", "fetch", "MVBench_8frame", "--data-dir", data.toString());
        assertThat(main.err()).contains("--local-dir " + data.resolve("MVBench") + "' then 'cd " + data.resolve("MVBench/video") + " && unzip");
    }

    @Test void anEvalByNameRecordsTheCataloguesEntryAndThatASnapshotHasNoMd5() throws Exception {
        Path data = MvBenchFixture.mainBranch(dir.resolve("data"));
        Path out = dir.resolve("run");
        CommandRun r = CommandRun.of(new EvalCommand((s, c) -> dev.gamagent.testing.ScriptedBackend.text(q -> "(A)")), "--data", "MVBench_8frame",
                "--data-dir", data.toString(), "--methods", "single", "--out", out.toString(), "--limit", "1");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode d = Json.MAPPER.readTree(out.resolve("summary.json").toFile()).get("data_file");
        assertThat(d.get("name").asText()).isEqualTo("MVBench_8frame");
        assertThat(d.get("check").asText()).isEqualTo("snapshot");
        assertThat(d.get("file").asText()).isEqualTo(data.resolve("MVBench").toString());
        assertThat(d.get("catalogue").asText()).contains("vlmeval/dataset/mvbench.py MVBench");
    }
}
