package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.http.DisagreeingExperts;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Reply;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 44 item 1 end to end: {@code gam eval} against a real OpenAI-compatible server on 127.0.0.1 that reports
 * {@code usage.prompt_tokens_details.cached_tokens} puts the prompt tokens sent, cached and computed in every record,
 * in summary.json per method, in the printed table and in the report; against a server that reports none, none of the
 * three cached/computed figures appears (not reported is not 0).
 */
class CachedPromptTokensEndToEndTest {
    /** Every call: 1000 prompt tokens sent, 600 of them read from the server's cache. */
    private static final long SENT = 1000, CACHED = 600;

    @TempDir Path dir;

    private Path data() throws Exception {
        String b64 = Base64.getEncoder().encodeToString(Files.readAllBytes(AskEndToEndTest.trianglePng(dir)));
        Path tsv = dir.resolve("tri.tsv");
        Files.writeString(tsv, "index\timage\tquestion\tA\tB\tC\tanswer\tcategory\n"
                + "0\t" + b64 + "\tWhat color is the triangle?\tred\tblue\tgreen\tA\tcolor\n"
                + "1\t0\tWhich colour fills the shape?\tred\tblue\tgreen\tA\tcolor\n");
        return tsv;
    }

    private CommandRun eval(OpenAiWireServer server, Path out) throws Exception {
        return CommandRun.main("eval", "--data", data().toString(), "--methods", "single,debate", "--out", out.toString(),
                "--backend", "openai", "--base-url", server.baseUrl(), "--retries", "0");
    }

    @Test void summaryRecordsTableAndReportShowTheTokensSentCachedAndComputedWhenTheServerReportsThem() throws Exception {
        DisagreeingExperts voices = new DisagreeingExperts(AskEndToEndTest.WIDTH);
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(r -> ((Reply.Answer) voices.apply(r)).withPromptTokens(SENT).withCache(CACHED, 0));
            Path out = dir.resolve("cached");
            CommandRun r = eval(server, out);
            assertThat(r.code()).as(r.out()).isZero();
            server.assertNoViolations();

            for (String line : Files.readAllLines(out.resolve("results.jsonl"))) {
                JsonNode rec = Json.MAPPER.readTree(line);
                long calls = rec.path("calls").asLong();
                assertThat(calls).isPositive();
                assertThat(rec.path("promptTokens").asLong()).as(line).isEqualTo(calls * SENT);
                assertThat(rec.path("cachedPromptTokens").asLong()).as(line).isEqualTo(calls * CACHED);
                assertThat(rec.path("backends").path("default").path("cachedPromptTokens").asLong()).isEqualTo(calls * CACHED);
                assertThat(rec.at("/trace/tokens/cached").asLong()).as("the trace's total").isEqualTo(calls * CACHED);
                assertThat(rec.at("/trace/rounds/0/agents/0/tokens/cached").asLong()).as("an agent's call").isEqualTo(CACHED);
            }
            JsonNode methods = Json.MAPPER.readTree(Files.readString(out.resolve("summary.json"))).path("metrics");
            for (String m : List.of("single", "debate")) {
                JsonNode s = methods.path(m);
                double sent = s.path("promptTokensPerQuestion").asDouble();
                assertThat(sent).as(m).isEqualTo(s.path("callsPerQuestion").asDouble() * SENT, within(1e-6));
                assertThat(s.path("cachedPromptTokensPerQuestion").asDouble()).as(m).isCloseTo(sent * CACHED / SENT, within(1e-6));
                assertThat(s.path("computedPromptTokensPerQuestion").asDouble()).as(m).isCloseTo(sent * (SENT - CACHED) / SENT, within(1e-6));
            }
            assertThat(r.out()).containsPattern("prompt tok/q\\s+sent\\s+cached\\s+computed")
                    .containsPattern("\\ndebate\\s+\\d+\\s+\\d+\\s+\\d+\\n");
            assertThat(Files.readString(out.resolve("report.html"))).contains("cached tok/q", "com&shy;puted tok/q");
        }
    }

    @Test void aServerThatReportsNoCachedTokensLeavesTheCachedAndComputedFiguresOut() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(new DisagreeingExperts(AskEndToEndTest.WIDTH));
            Path out = dir.resolve("plain");
            CommandRun r = eval(server, out);
            assertThat(r.code()).as(r.out()).isZero();
            for (String line : Files.readAllLines(out.resolve("results.jsonl"))) {
                assertThat(line).doesNotContain("cachedPromptTokens", "\"cached\"", "computed");
            }
            String summary = Files.readString(out.resolve("summary.json"));
            assertThat(summary).contains("promptTokensPerQuestion").doesNotContain("cachedPromptTokensPerQuestion", "computedPromptTokensPerQuestion");
            assertThat(r.out()).doesNotContain("cached");
            assertThat(Files.readString(out.resolve("report.html"))).doesNotContain("cached tok/q");
        }
    }
}
