package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.TriangleImage;
import dev.gamagent.testing.http.DisagreeingExperts;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Received;
import dev.gamagent.testing.http.Reply;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code gam eval --data MathVista_MINI}: with {@code --judge-backend} (a judge server on 127.0.0.1 speaking the OpenAI
 * wire) the replies the rules leave go to the judge with VLMEvalKit's MathVista prompt and summary.json says the grading
 * is comparable; without a judge the rules alone grade and summary.json says why it is not.
 */
class OpenAnswerJudgeCommandTest {
    @TempDir Path dir;

    private Path dataDir() throws Exception {
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(TriangleImage.draw(), "png", png);
        String img = Base64.getEncoder().encodeToString(png.toByteArray());
        String hint = "Hint: Please answer the question requiring an integer answer and provide the final value, e.g., 1, 2, 3, at the end.\\nQuestion: ";
        String tsv = "index\timage\tquestion\tanswer\tquestion_type\tanswer_type\tchoices\ttask\n"
                + "1\t" + img + "\t\"" + hint.replace("\\n", "\n") + "How many corners does the shape have?\"\t3\tfree_form\tinteger\t\tfqa\n"
                + "2\t" + img + "\t\"" + hint.replace("\\n", "\n") + "How many sides does the shape have?\"\t3\tfree_form\tinteger\t\tfqa\n";
        Path data = Files.createDirectories(dir.resolve("LMUData"));
        Files.writeString(data.resolve("MathVista_MINI.tsv"), tsv);
        return data;
    }

    private static JsonNode summary(Path out) throws Exception { return Json.MAPPER.readTree(out.resolve("summary.json").toFile()); }

    @Test void withAJudgeServerTheHarnessPromptGoesOverHttpAndTheRunIsComparableWithoutOneItIsNot() throws Exception {
        Path data = dataDir();
        try (OpenAiWireServer model = new OpenAiWireServer(); OpenAiWireServer judge = new OpenAiWireServer()) {
            model.respondWith(r -> Reply.answer("Counting them, I would say the shape has three."));
            judge.respondWith(r -> Reply.answer("3"));
            Path withJudge = dir.resolve("judged");
            CommandRun r = CommandRun.main("eval", "--data", "MathVista_MINI", "--data-dir", data.toString(), "--methods", "single",
                    "--backend", "openai", "--base-url", model.baseUrl(), "--model", "m", "--out", withJudge.toString(),
                    "--set", "backends.judge.kind=openai", "--set", "backends.judge.base_urls=" + judge.baseUrl(),
                    "--set", "backends.judge.model=j", "--judge-backend", "judge");
            assertThat(r.code()).as(r.err()).isZero();
            List<Received> asked = judge.chatRequests().stream()
                    .filter(q -> DisagreeingExperts.promptText(q.json()).contains("Extracted answer:")).toList();
            assertThat(asked).hasSize(2);
            for (Received q : asked) {
                String p = DisagreeingExperts.promptText(q.json()).stripTrailing();
                assertThat(p).startsWith("\nPlease read the following example.\nThen extract the answer from the model response")
                        .endsWith("Model respone: Counting them, I would say the shape has three.Extracted answer:");
                assertThat(q.json().path("max_tokens").asInt()).isEqualTo(128);
            }
            JsonNode s = summary(withJudge);
            assertThat(s.path("grading_comparable").asBoolean()).isTrue();
            assertThat(s.path("grading_comparability").asText()).contains("MathVista_MINI graded as VLMEvalKit e8e78f05 grades it", "judge");
            assertThat(s.path("metrics").path("single").path("accuracy").asDouble()).isEqualTo(1.0);

            Path rulesOnly = dir.resolve("rules");
            r = CommandRun.main("eval", "--data", "MathVista_MINI", "--data-dir", data.toString(), "--methods", "single",
                    "--backend", "openai", "--base-url", model.baseUrl(), "--model", "m", "--out", rulesOnly.toString());
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out() + r.err()).contains("grading not comparable with the paper's");
            s = summary(rulesOnly);
            assertThat(s.path("grading_comparable").asBoolean()).isFalse();
            assertThat(s.path("grading_comparability").asText()).contains("no judge was configured", "2 of 2 answers left undecided");
            assertThat(s.path("metrics").path("single").path("accuracy").asDouble()).isZero();
        }
    }
}
