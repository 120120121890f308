package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
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
        return new ResultRecord("1", "1", 0, method, "c", "l", outcome, "B", "B", "b", "B", 0.8, 0.2, 2, "fixed_rounds",
                prompt, 10, false, calls, 10, "method", null, "local", t);
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
}
