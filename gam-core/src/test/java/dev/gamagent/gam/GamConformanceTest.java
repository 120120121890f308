package dev.gamagent.gam;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.gamagent.gam.GamControllerTest.CRITIQUE;
import static dev.gamagent.gam.GamControllerTest.config;
import static dev.gamagent.gam.GamControllerTest.confident;
import static dev.gamagent.gam.GamControllerTest.lines;
import static dev.gamagent.gam.GamControllerTest.mcq;
import static dev.gamagent.gam.GamControllerTest.middling;
import static dev.gamagent.gam.GamControllerTest.prompt;
import static dev.gamagent.gam.GamControllerTest.tag;
import static dev.gamagent.gam.GamControllerTest.unsure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The controller against docs/design.md §6, read from what it records and what it sends. */
class GamConformanceTest {
    /** Its own pool: GamControllerTest shuts its shared one down after its class. */
    private static final java.util.concurrent.ExecutorService EXEC = java.util.concurrent.Executors.newFixedThreadPool(4);

    @org.junit.jupiter.api.AfterAll static void stop() { EXEC.shutdownNow(); }

    private static Answer run(dev.gamagent.backend.Backend b, dev.gamagent.config.Config c, dev.gamagent.api.Question q) {
        return dev.gamagent.MethodRegistry.create("gam").run(q, new dev.gamagent.api.RunContext(b, null, c, EXEC, null));
    }

    /** argmax_k Σ_i w_i·p_i(k) over a round's recorded weights and option distributions, with that mass. */
    private static Map.Entry<String, Double> mixtureArgmax(Trace.Round r) {
        Map<String, Double> mix = new java.util.LinkedHashMap<>();
        for (Trace.AgentTurn t : r.agents()) {
            if (t.weight() == null) continue;
            t.optionDistribution().forEach((k, p) -> mix.merge(k, t.weight() * p, Double::sum));
        }
        return mix.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
    }

    @Test void theFinalOptionIsTheArgmaxOfTheWeightedMixtureAndTheConfidenceItsMass() {
        // two hesitant experts say A, one confident expert says B: the mixture, not the head count, decides
        ScriptedBackend b = lines((role, task, k) -> task.equals("critique") ? CRITIQUE
                : role.startsWith("scene") ? confident("B") : middling("A"));
        Answer a = run(b, config("gam.max_rounds", "1"), mcq());
        Trace.Round last = a.trace().rounds().get(a.trace().rounds().size() - 1);
        var best = mixtureArgmax(last);
        assertThat(a.option()).isEqualTo(best.getKey());
        assertThat(a.confidence()).isCloseTo(best.getValue(), within(1e-9));
        double wsum = last.agents().stream().mapToDouble(t -> t.weight() == null ? 0 : t.weight()).sum();
        assertThat(wsum).isCloseTo(1.0, within(1e-9));
        assertThat(a.uncertainty()).isCloseTo(last.uSys(), within(1e-12));
    }

    @Test void atMostThreeClaimsAreDisputedAndTheLeastConfidentComeFirst() {
        String many = "ANSWER: B\n" + java.util.stream.IntStream.rangeClosed(1, 5)
                .mapToObj(i -> "CLAIM " + i + ": Detail number " + i + " of the triangle | CONFIDENCE: 0." + (i + 2))
                .reduce("", (x, y) -> x + y + "\n") + "CONFIDENCE: 0.3";
        ScriptedBackend b = lines((role, task, k) -> task.equals("critique") ? CRITIQUE : many);
        Answer a = run(b, config("gam.max_rounds", "1", "gam.theta_u", "0.0"), mcq());
        assertThat(a.trace().rounds().get(1).extra()).containsEntry("disputed", 3);
        ChatRequest critique = b.requests.stream().filter(r -> tag(prompt(r), "task").equals("critique")).findFirst().orElseThrow();
        Matcher m = Pattern.compile("(?m)^CLAIM \\d+ \\[expert=[^,]+, confidence=([0-9.]+)").matcher(prompt(critique));
        List<Double> confs = new java.util.ArrayList<>();
        while (m.find()) confs.add(Double.parseDouble(m.group(1)));
        assertThat(confs).hasSize(3).allSatisfy(c -> assertThat(c).isCloseTo(0.3, within(1e-9)));
    }

    @Test void critiquesComeBeforeTheRevisionsThatReadThem() {
        ScriptedBackend b = lines((role, task, k) -> switch (task) {
            case "critique" -> CRITIQUE;
            case "answer" -> confident(role.startsWith("scene") ? "A" : role.startsWith("ocr") ? "B" : "C");
            default -> confident("B");
        });
        run(b, config(), mcq());
        List<String> tasks = b.requests.stream().map(r -> tag(prompt(r), "task")).toList();
        assertThat(tasks).containsExactly("answer", "answer", "answer", "critique", "critique", "critique",
                "revise", "revise", "revise");
        b.requests.stream().filter(r -> tag(prompt(r), "task").equals("revise"))
                .forEach(r -> assertThat(prompt(r)).contains("the fill is blue"));
    }

    @Test void aOneExpertPanelAnswersWithWeightOneAndDebatesWhenUnsure() {
        ScriptedBackend b = lines((role, task, k) -> task.equals("critique") ? CRITIQUE : unsure("B"));
        Answer a = run(b, config("gam.agents", "[{\"role\":\"scene\"},{\"role\":\"fact\"}]"), mcq());
        Trace.Round r0 = a.trace().rounds().get(0);
        assertThat(r0.agents()).singleElement().satisfies(t -> assertThat(t.weight()).isEqualTo(1.0));
        assertThat(r0.conflict()).isZero();
        assertThat(r0.uSys()).isGreaterThan(0.5);
        assertThat(a.rounds()).isPositive();
        assertThat(a.option()).isEqualTo("B");
        assertThat(Double.isFinite(a.confidence())).isTrue();
        assertThat(a.confidence()).isCloseTo(r0.agents().get(0).optionDistribution().get("B"), within(1e-9));
    }

    @Test void aOneExpertPanelThatIsSureEndsAsConsensus() {
        ScriptedBackend b = lines((role, task, k) -> confident("C"));
        Answer a = run(b, config("gam.agents", "[{\"role\":\"ocr\"}]"), mcq());
        assertThat(a.termination()).isEqualTo(Termination.CONSENSUS);
        assertThat(a.option()).isEqualTo("C");
        assertThat(b.requests).hasSize(1);
    }

    @Test void aTinyTauGivesFiniteWeightsAndConfidenceInAFullRun() {
        ScriptedBackend b = lines((role, task, k) -> task.equals("critique") ? CRITIQUE
                : role.startsWith("scene") ? confident("B") : unsure("A"));
        Answer a = run(b, config("gam.tau", "1e-6", "gam.max_rounds", "1"), mcq());
        for (Trace.Round r : a.trace().rounds()) {
            assertThat(Double.isFinite(r.uSys())).isTrue();
            assertThat(Double.isFinite(r.conflict())).isTrue();
            r.agents().forEach(t -> assertThat(Double.isFinite(t.weight())).isTrue());
        }
        assertThat(a.option()).isEqualTo("B");
        assertThat(Double.isFinite(a.confidence())).isTrue();
    }

    @Test void everyExpertNotApplicableGivesUOneAndUniformWeights() {
        ScriptedBackend b = lines((role, task, k) -> task.equals("critique") ? CRITIQUE : "ANSWER: not applicable (no text in the image)");
        Answer a = run(b, config("gam.max_rounds", "1"), mcq());
        Trace.Round r0 = a.trace().rounds().get(0);
        assertThat(r0.agents()).allSatisfy(t -> {
            assertThat(t.uncertainty()).isEqualTo(1.0);
            assertThat(t.weight()).isCloseTo(1.0 / 3, within(1e-12));
        });
        assertThat(r0.uSys()).isEqualTo(1.0);
        assertThat(Double.isFinite(a.confidence())).isTrue();
    }
}
