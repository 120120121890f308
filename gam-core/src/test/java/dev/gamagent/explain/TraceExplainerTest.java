package dev.gamagent.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.testing.MethodFixtures;
import dev.gamagent.testing.MethodFixtures.Reply;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

import static dev.gamagent.testing.MethodFixtures.caps;
import static dev.gamagent.testing.MethodFixtures.context;
import static dev.gamagent.testing.MethodFixtures.question;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 42 item 2: for every method the registry lists, the explainer's numbers are the trace's. Each method runs on a
 * scripted panel that disagrees (the first agent says A, surely, then switches to B unsurely; the others say B), so the
 * gam debate moves weights, the critics call claims inaccurate and DREAM rolls the first agent back; the explanation's
 * checks (every value recomputed with the engine's code beside the stored one) all hold, and the numbers it shows are
 * the trace's.
 */
class TraceExplainerTest {

    /** The first agent (scene expert, agent-1, affirmative, ...) answers A surely, then B unsurely; everyone else B. */
    static ScriptedBackend disagreeing() {
        return MethodFixtures.backend(caps(true, false, 0), s -> {
            if (s.contains("<task>critique</task>")) return Reply.of("CLAIM 1: INACCURATE | REASON: the triangle is blue | CONFIDENCE: 0.9", 0.9);
            if (s.contains("<task>judge</task>") || s.contains("<task>moderate</task>")) return Reply.of("ANSWER: B", 0.9);
            boolean first = s.contains("<role>scene expert</role>") || s.contains("You are agent-1") || s.contains("affirmative")
                    || s.contains("general public") || s.contains("<task>probe</task>") && s.contains("agent-1");
            boolean revise = s.contains("<task>revise</task>");
            if (first && !revise) return Reply.of("ANSWER: A\nCLAIM 1: The triangle is red | CONFIDENCE: 0.9\nCONFIDENCE: 0.9", 0.99);
            if (first) return Reply.of("ANSWER: B\nCLAIM 1: Perhaps it is blue | CONFIDENCE: 0.4\nCONFIDENCE: 0.4", 0.4);
            return Reply.of("ANSWER: B\nCLAIM 1: The triangle looks blue | CONFIDENCE: 0.6\nCONFIDENCE: 0.6", 0.55);
        });
    }

    static List<String> methods() { return MethodRegistry.listed(); }

    private static JsonNode run(String method, String... overrides) {
        // θ_U 0.1: the panel's U_sys starts gam's debate (the explainer reports the value the run used)
        String[] all = new String[overrides.length + 1];
        all[0] = "gam.theta_u=0.1";
        System.arraycopy(overrides, 0, all, 1, overrides.length);
        Answer a = MethodRegistry.create(method).run(question(), context(disagreeing(), all));
        return Json.MAPPER.valueToTree(a.trace());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("methods")
    void theExplainersNumbersAreTheTracesForEveryMethod(String method) {
        JsonNode trace = run(method);
        ObjectNode e = TraceExplainer.explain(trace);
        assertThat(e.has("error")).as(e.path("error").asText()).isFalse();
        List<String> failed = new ArrayList<>();
        for (JsonNode c : e.path("checks")) if (!c.path("ok").asBoolean()) failed.add(c.toString());
        assertThat(failed).as("checks where the explainer and the trace disagree").isEmpty();
        assertThat(e.path("consistent").asBoolean()).isTrue();
        assertThat(e.path("checks").size()).as("the final answer at least is checked").isPositive();
        // the configuration shown is the trace's own, value by value
        JsonNode cfg = trace.path("config");
        for (JsonNode c : e.path("config")) {
            String key = c.path("key").asText();
            String path = "/" + key.replace('.', '/');
            JsonNode recorded = method.startsWith("dream+") && !key.startsWith("dream.")
                    ? (key.startsWith("gam.") ? cfg.at("/inner/" + key.substring(4).replace('.', '/')) : cfg.at("/inner" + path))
                    : key.startsWith("gam.") && !method.startsWith("dream+") ? cfg.at("/" + key.substring(4).replace('.', '/')) : cfg.at(path);
            assertThat(c.path("value")).as(key).isEqualTo(recorded);
        }
        // each round's agents: the trace's answers, uncertainties and weights
        assertThat(e.path("rounds").size()).isEqualTo(trace.path("rounds").size());
        for (int k = 0; k < trace.path("rounds").size(); k++) {
            JsonNode tr = trace.path("rounds").get(k), er = e.path("rounds").get(k);
            assertThat(er.path("agents").size()).isEqualTo(tr.path("agents").size());
            for (int i = 0; i < tr.path("agents").size(); i++) {
                JsonNode ta = tr.path("agents").get(i), ea = er.path("agents").get(i);
                assertThat(ea.path("id").asText()).isEqualTo(ta.path("id").asText());
                if (ta.hasNonNull("error")) continue;
                assertThat(ea.path("u").asDouble()).isCloseTo(ta.path("uncertainty").asDouble(), within(1e-12));
                if (ta.hasNonNull("weight")) assertThat(ea.path("weight").asDouble()).isCloseTo(ta.path("weight").asDouble(), within(1e-9));
            }
        }
        // the margin names the winner the trace chose
        JsonNode fin = trace.path("final");
        JsonNode margin = method.startsWith("dream+") ? e.at("/dream/after_rollback/decision") : e.at("/final/margin");
        if (!margin.isMissingNode() && fin.hasNonNull("option")) assertThat(margin.path("winner").asText()).isEqualTo(fin.path("option").asText());
        if (method.startsWith("dream+")) assertThat(e.at("/dream/decided_by").asText()).isEqualTo(trace.at("/extra/decided_by").asText());
    }

    @Test void aGamDebateShowsWhatMovedEachWeightTheMarginAndTheThresholds() {
        JsonNode trace = run("gam");
        assertThat(trace.path("rounds").size()).as("a debate ran: " + trace.at("/rounds/0")).isGreaterThan(1);
        ObjectNode e = TraceExplainer.explain(trace);
        JsonNode r1 = e.path("rounds").get(1);
        JsonNode scene = r1.path("agents").get(0);
        assertThat(scene.path("id").asText()).isEqualTo("scene");
        assertThat(scene.at("/moved/weight_before").asDouble()).isCloseTo(trace.at("/rounds/0/agents/0/weight").asDouble(), within(1e-9));
        assertThat(scene.at("/moved/words").asText()).contains("answer changed A → B", "λ·ΣSim");
        // the critiques of each expert's claims, counted as the trace records them
        java.util.Map<String, Integer> inaccurate = new java.util.HashMap<>();
        for (JsonNode c : trace.at("/rounds/1/critiques")) if (c.path("assessment").asText().toLowerCase().contains("inaccurate")) inaccurate.merge(c.path("expert").asText(), 1, Integer::sum);
        assertThat(inaccurate).as("the critics called claims inaccurate").isNotEmpty();
        for (JsonNode a : r1.path("agents")) {
            int n = inaccurate.getOrDefault(a.path("id").asText(), 0);
            assertThat(a.at("/critiques/inaccurate").asInt(0)).as(a.path("id").asText()).isEqualTo(n);
            if (n > 0) assertThat(a.at("/moved/words").asText()).contains(n + " inaccurate");
        }
        // the terms add up to the score the weights are the softmax of
        JsonNode t = scene.path("terms");
        assertThat(t.path("confidence").asDouble() + t.path("agreement").asDouble() - t.path("penalty").asDouble())
                .isCloseTo(t.path("s").asDouble(), within(1e-12));
        JsonNode d = e.at("/final/margin");
        JsonNode last = trace.path("rounds").get(trace.path("rounds").size() - 1);
        String winner = trace.at("/final/option").asText();
        assertThat(d.path("winner_value").asDouble()).isCloseTo(last.at("/extra/mixture/" + winner).asDouble(), within(1e-12));
        assertThat(d.path("margin").asDouble()).isCloseTo(d.path("winner_value").asDouble() - d.path("runner_up_value").asDouble(), within(1e-12));
        assertThat(e.path("config").findValuesAsText("symbol")).contains("θ_U", "θ_C", "θ_term", "ε", "K_max", "λ", "γ", "τ");
    }

    @Test void aDreamRollbackIsExplainedWithTheMixtureAfterItAndWhoDecided() {
        JsonNode trace = run("dream+gam", "dream.mode=rollback_only");
        assertThat(trace.at("/extra/rollbacks").size()).as("the scene expert was rolled back").isPositive();
        ObjectNode e = TraceExplainer.explain(trace);
        assertThat(e.path("consistent").asBoolean()).as(e.path("checks").toString()).isTrue();
        JsonNode d = e.path("dream");
        assertThat(d.path("decided_by").asText()).isEqualTo("gam");
        assertThat(d.at("/after_rollback/words").asText()).startsWith("decided by gam's rule Σ w·p").doesNotContain("vote");
        assertThat(d.at("/after_rollback/answers/0/rolled_back").asBoolean()).isTrue();
        assertThat(d.at("/after_rollback/decision/option").asText()).isEqualTo(trace.at("/final/option").asText());
        assertThat(d.at("/after_rollback/decision/confidence").asDouble()).isCloseTo(trace.at("/final/confidence").asDouble(), within(1e-12));
        assertThat(d.at("/rollbacks/0/words").asText()).contains("u_ANLL", "(1 + ρ)");
        assertThat(d.path("rollback_u_name").asText()).startsWith("u_ANLL");
    }

    @Test void aTamperedTraceFailsItsChecks() {
        ObjectNode trace = (ObjectNode) run("gam");
        ((ObjectNode) trace.at("/rounds/0/agents/0")).put("weight", 0.9);
        ObjectNode e = TraceExplainer.explain(trace);
        assertThat(e.path("consistent").asBoolean()).isFalse();
        ObjectNode vote = (ObjectNode) run("vote");
        ((ObjectNode) vote.path("final")).put("option", "C");
        assertThat(TraceExplainer.explain(vote).path("consistent").asBoolean()).isFalse();
    }

    @Test void probeUncertaintiesShowEnoughDigitsToReadTheirSideOfTau() {
        assertThat(TraceExplainer.digits(0.0021, 0.002)).isEqualTo("0.0021");
        assertThat(TraceExplainer.digits(0.002, 0.0021)).isEqualTo("0.0020");
        assertThat(TraceExplainer.digits(0.001, 0.0040)).isEqualTo("0.001");
        assertThat(TraceExplainer.digits(0.2, 0.1)).isEqualTo("0.200");
        assertThat(TraceExplainer.digits(0.00204, 0.002041)).isEqualTo("0.002040");
        assertThat(TraceExplainer.digitsNeeded(0.0020409, 0.0020404)).isEqualTo(6);
        assertThat(TraceExplainer.branchWords("MixRes")).contains("confident probes agree").doesNotContain("disagree across");
    }

    /**
     * Every trace of the golden record (bench/golden: the demo on the built-in model and every method against the
     * simulator) is explained without one check failing: the explainer agrees with traces real runs wrote.
     */
    @Test void everyTraceOfTheGoldenRecordIsExplainedConsistently() throws Exception {
        int traces = 0;
        java.util.Set<String> methods = new java.util.TreeSet<>();
        List<String> failed = new ArrayList<>();
        for (String run : List.of("demo", "sim")) {
            java.nio.file.Path file = java.nio.file.Path.of("bench", "golden", run + ".jsonl.gz");
            try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(new java.util.zip.GZIPInputStream(
                    java.nio.file.Files.newInputStream(file)), java.nio.charset.StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    JsonNode trace = Json.MAPPER.readTree(line).path("trace");
                    if (trace.isMissingNode()) continue;
                    traces++;
                    methods.add(trace.path("method").asText());
                    ObjectNode e = TraceExplainer.explain(trace);
                    if (e.has("error")) failed.add(run + " " + trace.at("/question/id").asText() + " " + e.path("error").asText());
                    for (JsonNode c : e.path("checks")) {
                        if (!c.path("ok").asBoolean()) failed.add(run + " " + trace.path("method").asText() + " " + trace.at("/question/id").asText() + ": " + c);
                    }
                }
            }
        }
        assertThat(failed).as("checks that fail on the golden record's traces").isEmpty();
        assertThat(traces).isGreaterThan(500);
        assertThat(methods).contains("single", "cot", "sc", "vote", "debate", "self-debate", "mad", "dmad", "chateval", "debunc", "gam",
                "dream+gam", "dream+debate");
    }
}
