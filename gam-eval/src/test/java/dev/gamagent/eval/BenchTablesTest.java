package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The DREAM cost table of bench/dream-cost.sh, on two hand-made records. */
class BenchTablesTest {
    static ResultRecord record(String method, String outcome, long prompt, int calls, String trace) throws Exception {
        JsonNode t = Json.MAPPER.readTree(trace);
        return Records.record("1", method).group("1").category("c").l2Category("l").outcome(outcome).predicted("B")
                .groundTruth("B").answer("b").option("B").confidence(0.8).uncertainty(0.2).rounds(2)
                .termination("fixed_rounds").promptTokens(prompt).completionTokens(10).calls(calls).millis(10)
                .rule("method").backend("local").trace(t).build();
    }

    @Test void theDreamTableSplitsTheCostIntoTheProbeRoundAndEachRoundAndGivesTheRatio() throws Exception {
        ResultRecord debate = record("debate", "wrong", 300, 3, """
                {"rounds": [{"k":0,"agents":[{"tokens":{"prompt":100,"completion":5}}]},
                            {"k":1,"agents":[{"tokens":{"prompt":200,"completion":5}}]}]}""");
        ResultRecord dream = record("dream+debate", "correct", 450, 4, """
                {"extra": {"branch":"PerAgent","consensus":true,"probe_usage":{"prompt":150,"completion":10,"calls":2,"reused_as_round_0":1}},
                 "rounds": [{"k":0,"agents":[{"tokens":{"prompt":100,"completion":5}}]},
                            {"k":1,"agents":[{"tokens":{"prompt":200,"completion":5}}]}]}""");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BenchTables.dream("demo", List.of(debate, dream), false, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("| probe round (its own calls) | - | 150 | 2.00 |", "| round 0 | 100 | 100 | 1.00 |",
                "| round 1 | 200 | 200 | 1.00 |", "| **total** | **300** | **450** | 4.00 |", "= **1.50**",
                "DREAM's gain +100.0 points", "| PerAgent (probes agreed) | 1 | 150 | 450 | 4.00 | 100.0% |");
        ByteArrayOutputStream sim = new ByteArrayOutputStream();
        BenchTables.dream("simulator", List.of(debate, dream), true, new PrintStream(sim, true, StandardCharsets.UTF_8));
        assertThat(sim.toString(StandardCharsets.UTF_8)).contains("accuracy not shown").doesNotContain("gain");
    }

    /**
     * Issue 39: the image tokens among each part's prompt tokens, from the trace's image sizes and scales by a family's
     * rule: Qwen2.5-VL's 448×336 is 192 tokens at 1x, 48 at 0.5x (224×168), 768 at 2x (896×672).
     */
    @Test void theDreamTableShowsTheImageTokensOfEachPartByTheFamilysRule() throws Exception {
        String question = "\"question\": {\"images\": [\"row 1 (448x336)\"]}";
        ResultRecord debate = record("debate", "wrong", 700, 2, """
                {%s, "rounds": [{"k":0,"agents":[{"id":"agent-1","scale":1.0,"tokens":{"prompt":300,"completion":5}}]},
                            {"k":1,"agents":[{"id":"agent-1","scale":1.0,"tokens":{"prompt":400,"completion":5}}]}]}""".formatted(question));
        // probes at 0.5x (own call) and 2x (taken as round 0); the agent debates at 2x
        ResultRecord dream = record("dream+debate", "correct", 1900, 3, """
                {%s, "extra": {"branch":"PerAgent","assignment":[[2.0]],
                  "probes":[{"scale":0.5,"reused":false},{"scale":2.0,"reused":true}],
                  "probe_usage":{"prompt":150,"completion":10,"calls":1,"reused_as_round_0":1}},
                 "rounds": [{"k":0,"agents":[{"id":"agent-1","scale":2.0,"tokens":{"prompt":850,"completion":5}}]},
                            {"k":1,"agents":[{"id":"agent-1","scale":2.0,"tokens":{"prompt":900,"completion":5}}]}]}""".formatted(question));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BenchTables.dream("demo", List.of(debate, dream), true, dev.gamagent.image.internal.ImageTokens.rule("qwen"), 0,
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("images by qwen:min_pixels=3136,max_pixels=12845056",
                "| probe round (its own calls) | - | 150 (48) | 1.00 |", "| round 0 | 300 (192) | 850 (768) | 1.00 |",
                "| round 1 | 400 (192) | 900 (768) | 1.00 |", "| **total** | **700 (384)** | **1,900 (1,584)** | 3.00 |",
                "| PerAgent | 1 | 150 (48) | 1,900 (1,584) | 3.00 |");
        // under VLMEvalKit's min_pixels every scale of this image costs 1,302
        ByteArrayOutputStream vlm = new ByteArrayOutputStream();
        BenchTables.dream("demo", List.of(debate, dream), true, dev.gamagent.image.internal.ImageTokens.rule("qwen-vlmevalkit"), 0,
                new PrintStream(vlm, true, StandardCharsets.UTF_8));
        assertThat(vlm.toString(StandardCharsets.UTF_8)).contains("| probe round (its own calls) | - | 150 (1,302) | 1.00 |");
    }
}
