package dev.gamagent.eval.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.UsageMeter;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A record is nested in Java and flat on disk: results.jsonl and results.db (the resume), the golden record and
 * report.js read the same 25 keys in the same order, null fields left out, whatever the nesting.
 */
class ResultRecordJsonTest {
    /** The 25 keys of a line, in the order they have always been written. */
    private static final List<String> KEYS = List.of("questionId", "group", "rotation", "method", "category", "l2Category",
            "outcome", "predicted", "groundTruth", "answer", "option", "confidence", "uncertainty", "rounds", "termination",
            "promptTokens", "completionTokens", "tokensEstimated", "calls", "millis", "rule", "error", "backend",
            "backends", "trace");

    /** A failure written by the runner: no answer, an error, no per-backend count (only the default backend). */
    private static final String FAILURE = "{\"questionId\":\"3#r1\",\"group\":\"3\",\"rotation\":1,\"method\":\"gam\","
            + "\"category\":\"c\",\"l2Category\":\"l\",\"outcome\":\"error\",\"groundTruth\":\"A\",\"confidence\":0.0,"
            + "\"uncertainty\":1.0,\"rounds\":0,\"promptTokens\":0,\"completionTokens\":0,\"tokensEstimated\":false,"
            + "\"calls\":0,\"millis\":12,\"error\":\"BackendException: down\",\"backend\":\"openai:m\"}";

    /** A line written before records held a grading rule, a backend and a per-backend count. */
    private static final String OLD = "{\"questionId\":\"q1\",\"group\":\"q1\",\"rotation\":0,\"method\":\"debate\","
            + "\"category\":\"color\",\"l2Category\":\"-\",\"outcome\":\"wrong\",\"predicted\":\"C\",\"groundTruth\":\"B\","
            + "\"answer\":\"blue\",\"option\":\"C\",\"confidence\":0.75,\"uncertainty\":0.25,\"rounds\":2,"
            + "\"termination\":\"fixed_rounds\",\"promptTokens\":1200,\"completionTokens\":300,\"tokensEstimated\":true,"
            + "\"calls\":6,\"millis\":4100,\"trace\":{\"method\":\"debate\",\"rounds\":[{\"k\":0},{\"k\":1}]}}";

    @Test void linesOfARealRunReadAndWriteBackByteForByte() throws IOException {
        List<String> lines = simulatorRun();
        assertThat(lines).hasSize(30);
        for (String line : lines) {
            ResultRecord r = Json.MAPPER.readValue(line, ResultRecord.class);
            assertThat(Json.write(r)).isEqualTo(line);
        }
        assertThat(keys(lines.get(0))).as("every key of a line with a per-backend count, in order").isEqualTo(KEYS.stream()
                .filter(k -> !k.equals("error")).toList());
    }

    @Test void aFailureWithoutPerBackendCountsAndAnOldLineWithoutTheNewerKeysWriteBackByteForByte() throws IOException {
        for (String line : List.of(FAILURE, OLD)) {
            assertThat(Json.write(Json.MAPPER.readValue(line, ResultRecord.class))).isEqualTo(line);
        }
        ResultRecord old = Json.MAPPER.readValue(OLD, ResultRecord.class);
        assertThat(old.grade().rule()).isNull();
        assertThat(old.cost().backend()).isNull();
        assertThat(old.cost().backends()).isNull();
        assertThat(old.cost().tokensEstimated()).isTrue();
        assertThat(old.trace().rounds()).isEqualTo(2);
        assertThat(old.trace().json().path("rounds")).hasSize(2);
        assertThat(Json.MAPPER.readValue(FAILURE, ResultRecord.class).isError()).isTrue();
    }

    @Test void aRecordRoundTripsThroughItsLineAndEachFieldLandsUnderItsFlatKey() throws IOException {
        JsonNode trace = Json.MAPPER.readTree("{\"rounds\":[{\"k\":0}],\"termination\":\"consensus\"}");
        ResultRecord r = Records.record("7#r2", "gam").group("7").rotation(2).category("cat").l2Category("l2")
                .groundTruth("D").outcome("correct").predicted("D").answer("dog").option("D").confidence(0.9)
                .uncertainty(0.1).rule("vlmevalkit-2026:option").error(null).promptTokens(11).completionTokens(22)
                .tokensEstimated(true).calls(3).millis(44).backend("local")
                .backends(Map.of("default", new UsageMeter.Tally("local", "gam-perception", 3, 0, 11, 22, true)))
                .rounds(1).termination("consensus").trace(trace).build();
        String line = Json.write(r);
        assertThat(Json.MAPPER.readValue(line, ResultRecord.class)).isEqualTo(r);
        JsonNode flat = Json.MAPPER.readTree(line);
        assertThat(keys(line)).isEqualTo(KEYS.stream().filter(k -> !k.equals("error")).toList());
        assertThat(flat.get("questionId").asText()).isEqualTo("7#r2");
        assertThat(flat.get("group").asText()).isEqualTo("7");
        assertThat(flat.get("rotation").asInt()).isEqualTo(2);
        assertThat(flat.get("groundTruth").asText()).isEqualTo("D");
        assertThat(flat.get("predicted").asText()).isEqualTo("D");
        assertThat(flat.get("answer").asText()).isEqualTo("dog");
        assertThat(flat.get("confidence").asDouble()).isEqualTo(0.9);
        assertThat(flat.get("uncertainty").asDouble()).isEqualTo(0.1);
        assertThat(flat.get("rule").asText()).isEqualTo("vlmevalkit-2026:option");
        assertThat(flat.get("promptTokens").asLong()).isEqualTo(11);
        assertThat(flat.get("completionTokens").asLong()).isEqualTo(22);
        assertThat(flat.get("tokensEstimated").asBoolean()).isTrue();
        assertThat(flat.get("calls").asInt()).isEqualTo(3);
        assertThat(flat.get("millis").asLong()).isEqualTo(44);
        assertThat(flat.get("backend").asText()).isEqualTo("local");
        assertThat(flat.get("backends").get("default").get("model").asText()).isEqualTo("gam-perception");
        assertThat(flat.get("rounds").asInt()).isEqualTo(1);
        assertThat(flat.get("termination").asText()).isEqualTo("consensus");
        assertThat(flat.get("trace")).isEqualTo(trace);
    }

    @Test void theServersCachedPromptTokensAreWrittenAfterTheTokenCountsOnlyWhenReported() throws IOException {
        ResultRecord r = Records.record("q", "debate").outcome("correct").promptTokens(3000).completionTokens(40).calls(6)
                .cachedPromptTokens(2200L).backend("openai:m")
                .backends(Map.of("default", new UsageMeter.Tally("openai:m", "m", 6, 0, 3000, 40, false, 2200L))).build();
        String line = Json.write(r);
        assertThat(Json.MAPPER.readValue(line, ResultRecord.class)).isEqualTo(r);
        List<String> keys = keys(line);
        assertThat(keys.subList(keys.indexOf("promptTokens"), keys.indexOf("calls")))
                .containsExactly("promptTokens", "completionTokens", "tokensEstimated", "cachedPromptTokens");
        JsonNode flat = Json.MAPPER.readTree(line);
        assertThat(flat.get("cachedPromptTokens").asLong()).isEqualTo(2200);
        assertThat(flat.at("/backends/default/cachedPromptTokens").asLong()).isEqualTo(2200);
        assertThat(r.cost().computedPromptTokens()).isEqualTo(800);
        // reported as 0 is written as 0; not reported is not written
        assertThat(Json.write(Records.from(r).cachedPromptTokens(0L).build())).contains("\"cachedPromptTokens\":0,");
        ResultRecord unreported = Records.from(r).cachedPromptTokens(null).backends(null).build();
        assertThat(Json.write(unreported)).doesNotContain("cached");
        assertThat(unreported.cost().computedPromptTokens()).isNull();
    }

    @Test void noCodeButResultRecordItselfCallsItsConstructor() throws IOException {
        String call = "new " + "ResultRecord("; // split, so this file does not match itself
        List<String> callers = new ArrayList<>();
        try (Stream<Path> modules = Files.list(Path.of("."))) {
            for (Path module : modules.filter(m -> m.getFileName().toString().startsWith("gam-")).toList()) {
                for (String part : List.of("src/main/java", "src/test/java")) {
                    Path root = module.resolve(part);
                    if (!Files.isDirectory(root)) continue;
                    try (Stream<Path> files = Files.walk(root)) {
                        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                            if (f.getFileName().toString().equals("ResultRecord.java")) continue;
                            if (Files.readString(f).contains(call)) callers.add(f.toString());
                        }
                    }
                }
            }
        }
        assertThat(callers).as("records are built by ResultRecord.of (main code) and the Records fixture (tests)").isEmpty();
    }

    private static List<String> keys(String line) throws IOException {
        List<String> out = new ArrayList<>();
        for (Iterator<String> it = Json.MAPPER.readTree(line).fieldNames(); it.hasNext(); ) out.add(it.next());
        return out;
    }

    private static List<String> simulatorRun() throws IOException {
        try (InputStream in = ResultRecordJsonTest.class.getResourceAsStream("/records/simulator-run.jsonl")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
