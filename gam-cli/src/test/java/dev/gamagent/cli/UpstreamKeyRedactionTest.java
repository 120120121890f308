package dev.gamagent.cli;

import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.testing.CliProcess;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13, item 7: an upstream that echoes the {@code Authorization} header (a debugging proxy, a
 * misconfigured gateway) must not get the key written by the CLI into {@code --trace}, {@code --record},
 * {@code results.jsonl}, {@code results.db} or the terminal, whether it echoes it in an answer (also split
 * across log-prob tokens) or in an error body. The key can only come from the environment, so the CLI
 * runs in a child process.
 */
class UpstreamKeyRedactionTest {
    private static final String KEY = "sk-upstream-5f1c2a9e7b3d4c60";

    @TempDir Path dir;

    /** Replies "ANSWER: A" followed by what it was sent in the Authorization header, tokenised so the key spans tokens. */
    private static Reply echo(dev.gamagent.testing.http.Received r) {
        String auth = String.valueOf(r.header("authorization"));
        String text = "ANSWER: A (you sent " + auth + ")";
        List<TokenLogprob> tokens = new ArrayList<>();
        for (int i = 0; i < text.length(); i += 5) {
            String t = text.substring(i, Math.min(text.length(), i + 5));
            tokens.add(new TokenLogprob(t, -0.01, List.of(new TokenLogprob.Alternative(t, -0.01), new TokenLogprob.Alternative(auth, -5))));
        }
        return Reply.answer(text, tokens);
    }

    @Test void aKeyEchoedByTheUpstreamIsWrittenNowhere() throws Exception {
        Path image = AskEndToEndTest.trianglePng(dir);
        Path tsv = Files.writeString(dir.resolve("b.tsv"), "index\timage_path\tquestion\tA\tB\tanswer\n"
                + "1\ttriangle.png\tWhat colour?\tred\tblue\tA\n2\ttriangle.png\tWhat shape?\ttriangle\tsquare\tA\n");
        try (OpenAiWireServer ok = new OpenAiWireServer(); OpenAiWireServer failing = new OpenAiWireServer()) {
            ok.respondWith(UpstreamKeyRedactionTest::echo);
            failing.respondWith(r -> Reply.status(400, "{\"error\":{\"message\":\"bad key " + r.header("authorization") + "\"}}"));
            List<String> common = List.of("--backend", "openai", "--model", "m", "--api-key-env", "GAM_TEST_UPSTREAM_KEY", "--retries", "0");
            List<String> args = new ArrayList<>(List.of("ask", "--image", image.toString(), "--question", "What colour?", "--option", "A=red",
                    "--option", "B=blue", "--method", "debate", "--json", "--trace", dir.resolve("trace.json").toString(),
                    "--record", dir.resolve("record.jsonl").toString(), "--base-url", ok.baseUrl()));
            args.addAll(common);
            args.addAll(List.of("::", "eval", "--data", tsv.toString(), "--methods", "single,vote", "--out", dir.resolve("run").toString(),
                    "--base-url", ok.baseUrl()));
            args.addAll(common);
            args.addAll(List.of("::", "eval", "--data", tsv.toString(), "--methods", "single", "--out", dir.resolve("failed").toString(),
                    "--base-url", failing.baseUrl()));
            args.addAll(common);
            CliProcess.Result r = CliProcess.run(dir, Map.of("GAM_TEST_UPSTREAM_KEY", KEY), 180, args.toArray(String[]::new));

            assertThat(ok.chatRequests()).as("the upstream did receive the key").allSatisfy(q ->
                    assertThat(q.header("authorization")).isEqualTo("Bearer " + KEY));
            assertThat(failing.chatRequests()).isNotEmpty();
            assertThat(r.out()).contains("\"answer\"").doesNotContain(KEY);
            assertThat(r.err()).doesNotContain(KEY).contains("[redacted]"); // the failing eval's error line quotes the scrubbed body
            List<Path> written;
            try (Stream<Path> s = Files.walk(dir)) {
                written = s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith("child")).toList();
            }
            assertThat(written).extracting(p -> p.getFileName().toString())
                    .contains("trace.json", "record.jsonl", "results.jsonl", "results.db", "summary.json", "report.html");
            for (Path p : written) {
                String content = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1); // binary-safe, the key is ASCII
                assertThat(content).as(p.toString()).doesNotContain(KEY).doesNotContain(KEY.substring(5));
            }
            assertThat(Files.readString(dir.resolve("trace.json"))).contains("[redacted]");
            assertThat(Files.readString(dir.resolve("failed/results.jsonl"))).contains("[redacted]");
        }
    }
}
