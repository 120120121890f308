package dev.gamagent.eval.grade;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.config.Config;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * VLMEvalKit's rule-based gradings against a graded fixture ({@code grade/vlmevalkit-rules.json}): real-looking rows and
 * the score VLMEvalKit e8e78f05's own Python functions give each (run from the pinned source on this machine; the
 * fixture's {@code about} names them). Every rule the catalogue grades by has rows, right and wrong.
 */
class VlmEvalKitRulesTest {
    private static JsonNode fixture() throws Exception {
        try (InputStream in = VlmEvalKitRulesTest.class.getResourceAsStream("/grade/vlmevalkit-rules.json")) {
            return Json.MAPPER.readTree(in);
        }
    }

    private static KeyedQuestion question(String truth, String category, Map<String, String> options) {
        return new KeyedQuestion(new Question("1", List.of(), "What is shown?", null, options), truth, category, null);
    }

    private static Answer answer(String text, String option) {
        return new Answer(text, option, 0.5, 0.5, 0, Termination.SINGLE, TokenCount.ZERO, 1, 1, null);
    }

    private static Grader grader(String rule) { return new Grader(Config.defaults().with(Grader.OPEN_ANSWERS_KEY, rule), null); }

    @Test void everyRowScoresAsVlmEvalKitScoresIt() throws Exception {
        Set<String> rules = new HashSet<>();
        Set<String> rightAndWrong = new HashSet<>();
        for (JsonNode r : fixture().get("rows")) {
            String rule = r.get("rule").asText();
            String truth = r.get("answer").asText();
            String prediction = r.get("prediction").asText();
            String category = r.hasNonNull("category") ? r.get("category").asText() : null;
            double expected = r.get("vlmevalkit_score").asDouble();
            String where = rule + " " + truth + " / " + prediction;
            rules.add(rule);
            rightAndWrong.add(rule + (expected > 0 ? "+" : "-"));
            if (VlmEvalKitVqa.RULES.contains(rule)) {
                assertThat(VlmEvalKitVqa.builtIn().score(rule, truth, prediction, category)).as(where).isCloseTo(expected, within(1e-12));
                // through the Grader: full score is correct, the score rides in the rule for the mean (summary's benchmark_score)
                Grade g = grader(rule).grade(question(truth, category, Map.of()), answer(prediction, null));
                assertThat(g.outcome()).as(where).isEqualTo(expected == 1.0 ? Outcome.CORRECT : Outcome.WRONG);
                assertThat(VlmEvalKitVqa.scoreOf(g.rule())).as(where).isCloseTo(expected, within(1e-12));
            } else {
                assertThat(VlmEvalKitLetters.RULES).contains(rule);
                Grade g = grader(rule).grade(question(truth, null, Map.of()), answer(prediction, null));
                assertThat(g.outcome()).as(where).isEqualTo(expected == 1.0 ? Outcome.CORRECT : Outcome.WRONG);
            }
        }
        Set<String> all = new HashSet<>(VlmEvalKitVqa.RULES);
        all.addAll(VlmEvalKitLetters.RULES);
        assertThat(rules).containsExactlyInAnyOrderElementsOf(all);
        for (String rule : all) assertThat(rightAndWrong).as(rule + " has a row it credits and one it does not").contains(rule + "+", rule + "-");
    }

    @Test void fractionalScoresAverageToVlmEvalKitsFigure() {
        // two TextVQA rows: 1.0 and 0.3 → VLMEvalKit's Overall is 65.0; gam counts one correct of two and records both scores
        VlmEvalKitVqa v = VlmEvalKitVqa.builtIn();
        String answers = "['nokia', 'nokia', 'nokia', 'nokia', 'toshiba', 'nokia', 'nokia', 'nokia', 'nokia', 'nokia']";
        double mean = (v.score("vqa-score", answers, "Nokia", null) + v.score("vqa-score", answers, "toshiba", null)) / 2 * 100;
        assertThat(mean).isCloseTo(65.0, within(1e-9));
        assertThat(VlmEvalKitVqa.scoreOf("anls:0.925")).isEqualTo(0.925);
        assertThat(VlmEvalKitVqa.scoreOf("vlmevalkit-2026:option")).isNull();
    }

    @Test void aLetterRuleReadsTheMethodsOwnOptionFirst() {
        KeyedQuestion q = question("B", null, Map.of("A", "left", "B", "right"));
        assertThat(grader("spatial-mcq").grade(q, answer("I think A", "B")).outcome()).isEqualTo(Outcome.CORRECT);
        assertThat(grader("boxed-option").grade(q, answer("\\boxed{A}", null)).outcome()).isEqualTo(Outcome.WRONG);
    }

    @Test void punctuationKeepsVlmEvalKitsQuirks() {
        VlmEvalKitVqa v = VlmEvalKitVqa.builtIn();
        // "3,000": the digit-comma-digit test makes every punctuation mark vanish rather than become a space
        assertThat(v.processAnswer("3,000 (approx)")).isEqualTo("3000 approx");
        assertThat(v.processAnswer("left-hand side")).isEqualTo("left hand side");
        // re.sub(..., re.UNICODE) passes 32 as count: a 33rd lone period stays
        assertThat(v.punctuation("a.".repeat(33))).isEqualTo("a".repeat(32) + "a.");
        assertThat(v.processAnswer("Two dogs")).isEqualTo("2 dogs");
        assertThat(v.processAnswer("It isnt")).isEqualTo("it isn't");
        // the punctuation list the yes/no rule keeps is the one the generator read from smp/misc.py
        List<String> table = new java.util.ArrayList<>();
        dev.gamagent.eval.data.VlmEvalKitTable.builtIn().normalisation().get("punctuation").forEach(p -> table.add(p.asText()));
        assertThat(VlmEvalKitYesNo.PUNCT).isEqualTo(table);
    }
}
