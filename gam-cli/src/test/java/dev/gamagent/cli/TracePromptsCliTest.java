package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.testing.CliProcess;
import dev.gamagent.testing.TriangleImage;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Reply;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27 item 2: the prompts each agent received are in the trace, as text, on by default for {@code gam ask}
 * (and {@code gam serve}), off by default for {@code gam eval} ({@code --set trace.prompts=true} turns them on and
 * does not change the run's identity), and scrubbed of the process's keys like every output: here the question itself
 * carries the key, so the prompts would too.
 */
class TracePromptsCliTest {
    private static final String KEY = "sk-prompt/KEY+4242=zz";
    private static final String VAR = "GAM_PROMPT_TEST_KEY";

    @TempDir Path dir;

    @Test void askRecordsScrubbedPromptsByDefaultEvalOnlyWhenAsked() throws Exception {
        try (OpenAiWireServer upstream = new OpenAiWireServer()) {
            upstream.respondWith(r -> Reply.answer("ANSWER: A\nCLAIM 1: the shape is red | CONFIDENCE: 0.4\nCONFIDENCE: 0.4"));
            Path image = dir.resolve("triangle.png");
            ImageIO.write(TriangleImage.draw(), "png", image.toFile());
            String question = "What colour is the shape? (ticket " + KEY + ")";
            Files.writeString(dir.resolve("q.tsv"), "index\timage_path\tquestion\tA\tB\tanswer\n1\ttriangle.png\t" + question + "\tred\tblue\tA\n");
            List<String> backend = List.of("--backend", "openai", "--base-url", upstream.baseUrl(), "--model", "m", "--api-key-env", VAR,
                    "--retries", "0");
            List<String> args = new ArrayList<>();
            List<String> ask = List.of("ask", "--image", image.toString(), "--question", question, "--option", "A=red", "--option", "B=blue",
                    "--method", "gam", "--json");
            add(args, ask, List.of("--trace", dir.resolve("on.json").toString()), backend);
            add(args, ask, List.of("--trace", dir.resolve("off.json").toString(), "--set", "trace.prompts=false"), backend);
            List<String> eval = List.of("eval", "--data", dir.resolve("q.tsv").toString(), "--methods", "gam", "--out", dir.resolve("run").toString());
            add(args, eval, List.of(), backend);
            // the same run with prompts: a rerun into the same directory is not refused (recording prompts changes no answer)
            add(args, eval, List.of("--set", "trace.prompts=true", "--force-new"), backend);
            add(args, List.of("eval", "--data", dir.resolve("q.tsv").toString(), "--methods", "gam", "--out", dir.resolve("run").toString(),
                    "--set", "trace.prompts=false"), List.of(), backend);
            args.remove(args.size() - 1);
            CliProcess.Result r = CliProcess.run(dir, Map.of(VAR, KEY), 300, args.toArray(String[]::new));
            assertThat(r.code()).as("stdout:\n" + r.out() + "\nstderr:\n" + r.err()).isZero();

            JsonNode on = Json.MAPPER.readTree(Files.readString(dir.resolve("on.json")));
            JsonNode prompts = on.path("rounds").get(0).path("extra").path("prompts");
            assertThat(prompts.size()).as("ask: one prompt per expert by default").isEqualTo(3);
            assertThat(prompts.path("scene").asText()).contains("What colour is the shape?", "[redacted]", "[image 1: ")
                    .doesNotContain("KEY+4242");
            assertThat(Files.readString(dir.resolve("on.json"))).doesNotContain("KEY+4242", "KEY%2B4242");
            assertThat(Files.readString(dir.resolve("off.json"))).doesNotContain("\"prompts\"");

            String results = Files.readString(dir.resolve("run/results.jsonl"));
            assertThat(results).as("eval: prompts when asked for").contains("\"prompts\"", "[redacted]").doesNotContain("KEY+4242");
            assertThat(r.err()).doesNotContain("holds 1 results of a different run");
        }
    }

    private static void add(List<String> args, List<String> command, List<String> more, List<String> backend) {
        args.addAll(command);
        args.addAll(more);
        args.addAll(backend);
        args.add("::");
    }
}
