package dev.gamagent.gam;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.config.Config;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.gamagent.gam.GamControllerTest.CRITIQUE;
import static dev.gamagent.gam.GamControllerTest.config;
import static dev.gamagent.gam.GamControllerTest.confident;
import static dev.gamagent.gam.GamControllerTest.lines;
import static dev.gamagent.gam.GamControllerTest.mcq;
import static dev.gamagent.gam.GamControllerTest.open;
import static dev.gamagent.gam.GamFidelityTest.panel;
import static dev.gamagent.gam.GamFidelityTest.question;
import static dev.gamagent.gam.GamFidelityTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 26, GAM items 1, 2 and 4 and the trace the viewer of issue 27 reads: the "no uncertainty" ablation can
 * debate, conflict sees experts who choose differently with flat letter distributions, and one rule says which
 * expert holds no opinion. The backends are scripted panels (test tools).
 */
class GamThirdPassTest {
    private static final dev.gamagent.backend.Capabilities LOGPROBS_LINES = new dev.gamagent.backend.Capabilities(true, true, 5, true, false, 0);

    // ---- item 1: the "no uncertainty" ablation removes uncertainty from the weights and decisions, not the debate ----

    /** Round 0: scene A, ocr B, relational C, each sure of itself; round 1: scene still A; round 2: everyone B. */
    private static ScriptedBackend disagreeThenConverge() {
        return lines((role, task, k) -> switch (task) {
            case "critique" -> CRITIQUE;
            case "answer" -> confident(role.startsWith("scene") ? "A" : role.startsWith("ocr") ? "B" : "C");
            default -> confident(role.startsWith("scene") && k < 2 ? "A" : "B");
        });
    }

    @Test void noUncertaintyLetsConflictStartTheDebateAndEndsItWhenTheChosenAnswersAgree() {
        Answer a = run(disagreeThenConverge(), config("gam.ablation.no_uncertainty", "true"), mcq());
        Trace.Round r0 = a.trace().rounds().get(0);
        assertThat(r0.agents()).allSatisfy(t -> assertThat(t.uncertainty()).isEqualTo(GamSettings.EQUAL_U));
        // the replies name their options: one-hot each, so three different answers are in full conflict
        assertThat(r0.agents()).allSatisfy(t -> assertThat(t.optionDistribution().get(t.option())).isEqualTo(1.0));
        assertThat(r0.conflict()).isGreaterThan(0.6);
        assertThat(r0.extra()).containsEntry("trigger", true);
        // U_sys is constant (ΔU_sys = 0 after round 1): stagnation would stop there; the ablation reads the answers instead
        assertThat(a.trace().rounds().get(1).uSys()).isEqualTo(GamSettings.EQUAL_U);
        assertThat(a.rounds()).isEqualTo(2);
        assertThat(a.termination()).isEqualTo(Termination.AGREEMENT);
        assertThat(a.option()).isEqualTo("B");
    }

    @Test void noUncertaintyEndsADebateThatNeverAgreesAtKMax() {
        ScriptedBackend b = lines((role, task, k) -> task.equals("critique") ? CRITIQUE
                : confident(role.startsWith("scene") ? "A" : role.startsWith("ocr") ? "B" : "C"));
        Answer a = run(b, config("gam.ablation.no_uncertainty", "true", "gam.max_rounds", "2"), mcq());
        assertThat(a.rounds()).isEqualTo(2);
        assertThat(a.termination()).isEqualTo(Termination.MAX_ROUNDS);
    }

    @Test void noUncertaintyDoesNotDebateAgreeingExperts() {
        Answer a = run(lines((role, task, k) -> confident("B")), config("gam.ablation.no_uncertainty", "true"), mcq());
        assertThat(a.rounds()).isZero();
        assertThat(a.termination()).isEqualTo(Termination.CONSENSUS);
    }

    // ---- item 2: experts who choose differently with flat letter distributions are in conflict ----

    /**
     * A line reply whose letter token is uniform over four options and whose claim and evidence are near-certain
     * (the built-in model's templated evidence on demo item 5): U from content tokens is small.
     */
    private static GamFidelityTest.Reply flat(String letter) {
        Object[] alts = new Object[8];
        alts[0] = " " + letter;
        alts[1] = 0.25;
        int i = 2;
        for (String l : List.of("A", "B", "C", "D")) if (!l.equals(letter)) { alts[i++] = " " + l; alts[i++] = 0.25; }
        GamFidelityTest.Reply r = new GamFidelityTest.Reply().s("ANSWER:").c(alts).s("\nCLAIM 1:");
        for (String w : List.of(" Cannot", " determine", " the", " answer", " the", " axis", " tick", " labels", " could", " not", " be", " read")) {
            r.c(w, 0.999, " x", 0.001);
        }
        return r.s(" | CONFIDENCE: 0.3\nCONFIDENCE: 0.3");
    }

    @Test void threeExpertsWhoPickThreeOptionsWithFlatLetterDistributionsAreInConflict() {
        ScriptedBackend b = panel(LOGPROBS_LINES, role -> switch (role) {
            case "scene expert" -> flat("D");
            case "ocr expert" -> flat("B");
            default -> flat("C");
        });
        Answer a = run(b, config("gam.ablation.no_debate", "true"), question("melon", "grape", "fig", "berry"));
        Trace.Round r0 = a.trace().rounds().get(0);
        // each expert's U is small (its content is near-certain), so its distribution follows its chosen option
        assertThat(r0.uSys()).isLessThan(0.15);
        for (Trace.AgentTurn t : r0.agents()) {
            Map<String, Double> p = t.optionDistribution();
            assertThat(p.get(t.option())).isCloseTo(1 - t.uncertainty() * 3 / 4, within(1e-9));
        }
        assertThat(r0.conflict()).isGreaterThan(0.6);
        assertThat(r0.extra()).containsEntry("trigger", true);
        assertThat(a.option()).isIn("B", "C", "D");
        assertThat(a.confidence()).isLessThan(0.5);
    }

    @Test void aLetterDistributionThatFavoursTheChosenOptionIsKept() {
        // the panel's strength: an expert whose letter token is decided keeps its own distribution
        ScriptedBackend b = panel(LOGPROBS_LINES, role -> new GamFidelityTest.Reply().s("ANSWER:").c(" B", 0.7, " A", 0.2, " C", 0.1)
                .s("\nCLAIM 1:").c(" blue", 0.9, " red", 0.1).s(" | CONFIDENCE: 0.7"));
        Answer a = run(b, config(), mcq());
        assertThat(a.trace().rounds().get(0).agents()).allSatisfy(t ->
                assertThat(t.optionDistribution().get("B")).isCloseTo(0.7, within(1e-9)));
    }

    // ---- the trace explains each decision (read by the viewer of issue 27) ----

    @Test @SuppressWarnings("unchecked")
    void eachRoundRecordsTheMixtureThatDecidedTheTriggerAndTheStopWithTheirThresholds() {
        ScriptedBackend b = lines((role, task, k) -> switch (task) {
            case "critique" -> CRITIQUE;
            case "answer" -> confident(role.startsWith("scene") ? "A" : role.startsWith("ocr") ? "B" : "C");
            default -> confident("B");
        });
        Answer a = run(b, config(), mcq());
        Map<String, Object> r0 = a.trace().rounds().get(0).extra();
        Map<String, Object> trigger = (Map<String, Object>) r0.get("trigger_check");
        assertThat(trigger).containsEntry("theta_U", 0.5).containsEntry("theta_C", 0.6).containsEntry("conflict_crossed", true)
                .containsEntry("uncertainty_crossed", false).containsEntry("started_by", "conflict").containsEntry("reads_uncertainty", true);
        assertThat((double) trigger.get("conflict")).isEqualTo(a.trace().rounds().get(0).conflict());
        Map<String, Double> mixture = (Map<String, Double>) r0.get("mixture");
        assertThat(mixture).containsOnlyKeys("A", "B", "C", "D");
        assertThat(mixture.values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1.0, within(1e-9));
        assertThat(mixture.get((String) r0.get("consensus_option"))).isEqualTo(mixture.values().stream().max(Double::compare).orElseThrow());
        assertThat(r0).containsEntry("agreed", false);

        Map<String, Object> r1 = a.trace().rounds().get(1).extra();
        Map<String, Object> stop = (Map<String, Object>) r1.get("stop");
        assertThat(stop).containsEntry("reason", "uncertainty").containsEntry("theta_term", 0.15).containsEntry("epsilon", 0.01)
                .containsEntry("K_max", 3).containsEntry("k", 1).containsEntry("agreed", true).doesNotContainKey("forced_by");
        assertThat((double) stop.get("U_sys")).isLessThan(0.15).isEqualTo(a.trace().rounds().get(1).uSys());
        assertThat(a.trace().rounds().get(0).extra().get("distribution_source"))
                .isEqualTo(Map.of("scene", "smoothed by U", "ocr", "smoothed by U", "relational", "smoothed by U"));
    }

    @Test @SuppressWarnings("unchecked")
    void aForcedRoundSaysWhatTheUnforcedRuleWouldHaveDone() {
        Answer a = run(disagreeThenConverge(), config("gam.ablation.fixed_rounds", "true", "gam.max_rounds", "2"), mcq());
        Map<String, Object> stop = (Map<String, Object>) a.trace().rounds().get(1).extra().get("stop");
        assertThat(stop).containsEntry("reason", "continue").containsEntry("forced_by", "fixed_rounds");
        assertThat(stop.get("unforced_reason")).isNotEqualTo("continue");
    }

    // ---- item 4: one rule for "holds no opinion" ----

    @Test void everyExpertDecliningAnOpenQuestionGivesNoAnswerWhetherTheControllerOrTheRollbackDecides() {
        ScriptedBackend b = lines((role, task, k) -> "ANSWER: cannot determine\nCONFIDENCE: 0.9");
        Answer live = run(b, config(), open());
        assertThat(live.answer()).isNull();
        Trace.Round r0 = live.trace().rounds().get(0);
        assertThat(r0.extra()).containsEntry("no_opinion", Map.of("scene", "declined", "ocr", "declined", "relational", "declined"));
        // DREAM's rollback decides dream+gam through GamMethod.decide over the same turns: the same rule, the same answer
        var d = new GamMethod().decide(open(), r0.agents(), Config.defaults()).orElseThrow();
        assertThat(d.answer()).isNull();
        assertThat(d.confidence()).isZero();
    }
}
