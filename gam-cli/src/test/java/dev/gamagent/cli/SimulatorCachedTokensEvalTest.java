package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.bench.sim.ModelServerSimulator;
import dev.gamagent.bench.sim.SimulatorSettings;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 44's first "done when": against the simulator with its prefix cache on ({@code gam bench serve-sim
 * --prefix-cache-tokens}), {@code gam eval}'s records, summary.json and report show the prompt tokens sent, cached and
 * computed per method, and they add up to what the simulator itself counted. {@code mad} continues each debater's
 * conversation, so its later turns are served from the cache; the generated questions (seed 4412, used nowhere else)
 * differ in their images, so {@code single}'s questions share little.
 */
class SimulatorCachedTokensEvalTest {
    @TempDir Path dir;

    @Test void summaryAndReportShowTheTokensSentCachedAndComputedAsTheSimulatorCountedThem() throws Exception {
        Path data = dir.resolve("gen.tsv");
        assertThat(Main.run("bench", "generate", "--n", "4", "--seed", "4412", "--out", data.toString())).isZero();
        SimulatorSettings s = SimulatorSettings.fixed(Duration.ZERO, 4).withPrefixCache(262_144);
        try (ModelServerSimulator sim = new ModelServerSimulator(s)) {
            long sent = 0, cached = 0;
            for (String method : new String[] {"single", "mad"}) {
                Path out = dir.resolve(method);
                CommandRun r = CommandRun.main("eval", "--data", data.toString(), "--methods", method, "--out", out.toString(),
                        "--backend", "openai", "--base-url", sim.baseUrl(), "--model", "gam-sim", "--retries", "0");
                assertThat(r.code()).as(r.err()).isZero();
                assertThat(r.out()).containsPattern("prompt tok/q\\s+sent\\s+cached\\s+computed");
                long methodSent = 0, methodCached = 0;
                for (String line : Files.readAllLines(out.resolve("results.jsonl"))) {
                    JsonNode rec = Json.MAPPER.readTree(line);
                    assertThat(rec.has("cachedPromptTokens")).as(line).isTrue();
                    methodSent += rec.path("promptTokens").asLong();
                    methodCached += rec.path("cachedPromptTokens").asLong();
                }
                JsonNode m = Json.MAPPER.readTree(Files.readString(out.resolve("summary.json"))).path("metrics").path(method);
                double perQ = m.path("promptTokensPerQuestion").asDouble();
                assertThat(perQ).isCloseTo(methodSent / 4.0, within(1e-6));
                assertThat(m.path("cachedPromptTokensPerQuestion").asDouble()).isCloseTo(methodCached / 4.0, within(1e-6));
                assertThat(m.path("computedPromptTokensPerQuestion").asDouble()).isCloseTo((methodSent - methodCached) / 4.0, within(1e-6));
                assertThat(Files.readString(out.resolve("report.html"))).contains("cached tok/q");
                if (method.equals("mad")) assertThat(methodCached).as("mad's later turns extend its earlier ones").isPositive();
                sent += methodSent;
                cached += methodCached;
            }
            Map<String, Object> stats = sim.stats();
            assertThat(((Number) stats.get("prompt_tokens")).longValue()).as("sent, as the simulator counted").isEqualTo(sent);
            assertThat(((Number) stats.get("cached_tokens")).longValue()).as("cached, as the simulator counted").isEqualTo(cached);
        }
    }
}
