package dev.gamagent.eval.grade;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.config.Config;
import dev.gamagent.engine.AnswerExtractor;
import dev.gamagent.eval.load.KeyedQuestion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two readers of a graded answer ({@link Grader} for a run's results.jsonl, {@link VlmEvalKitGrading} for
 * {@code gam grade}) and the two readers of a refusal ({@link AnswerExtractor}, {@link VlmEvalKitMatcher}) each go
 * through one home, and each output keeps its own names for the steps.
 */
class GradedReadingTest {
    @TempDir Path dir;

    private static final List<String> MODES = List.of("vlmevalkit-2024", "vlmevalkit-2025", "vlmevalkit-2026", "extended");
    /** Replies where the two readers labelled differently: a refusal, a lone Z, nothing readable; and a plain letter. */
    private static final List<String> REPLIES = List.of("I can't process this file.", "Z", "either a cat or a dog", "B");

    private static Map<String, String> options() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("A", "cat");
        o.put("B", "dog");
        return o;
    }

    @Test void vlmEvalKitsRefusalListIsOursAndBothReadersUseIt() {
        assertThat(AnswerExtractor.refusals()).containsExactly(
                "Sorry, I can't help with images of people yet.",
                "I can't process this file.",
                "I'm sorry, but without the image provided",
                "Cannot determine the answer");
        for (String phrase : AnswerExtractor.refusals()) {
            String reply = "Well. " + phrase + " B";
            assertThat(AnswerExtractor.extract(reply, options())).isEqualTo(new AnswerExtractor.Refused(phrase));
            for (VlmEvalKitMatcher.Rules rules : VlmEvalKitMatcher.Rules.values()) {
                assertThat(VlmEvalKitMatcher.infer(reply, options(), rules))
                        .isEqualTo(new VlmEvalKitMatcher.Match("Z", VlmEvalKitMatcher.Step.REFUSAL));
            }
        }
        String failed = "Failed to obtain answer via API. " + AnswerExtractor.refusals().get(0) + " B";
        assertThat(AnswerExtractor.isApiFailure(failed)).isTrue();
        assertThat(AnswerExtractor.extract(failed, options())).isEqualTo(new AnswerExtractor.Unmatched(List.of()));
        assertThat(VlmEvalKitMatcher.infer(failed, options(), VlmEvalKitMatcher.Rules.latest()))
                .isEqualTo(new VlmEvalKitMatcher.Match(null, VlmEvalKitMatcher.Step.NONE));
    }

    @Test void theModesReadingsAreWhatEachOutputNames() {
        record Case(String mode, String reply, String letter, String step, boolean declined) { }
        List<Case> expected = List.of(
                new Case("vlmevalkit-2026", "I can't process this file.", "Z", "refusal", true),
                new Case("vlmevalkit-2026", "Z", "Z", "z", true),
                new Case("vlmevalkit-2026", "either a cat or a dog", null, "none", false),
                new Case("vlmevalkit-2026", "B", "B", "option", false),
                new Case("extended", "I can't process this file.", "Z", "refusal", true),
                new Case("extended", "Z", "Z", "refusal", true),
                new Case("extended", "either a cat or a dog", null, "none", false),
                new Case("extended", "B", "B", "option", false));
        for (Case c : expected) {
            assertThat(GradingMode.of(c.mode()).read(c.reply(), options()))
                    .as(c.mode() + " reads '" + c.reply() + "'").isEqualTo(new GradingMode.Reading(c.letter(), c.step(), c.declined()));
        }
    }

    @Test void gradeAndGamGradeNameTheSameReadingEachInItsOwnWords() throws Exception {
        Path f = dir.resolve("m_X.tsv");
        StringBuilder tsv = new StringBuilder("index\tquestion\tA\tB\tanswer\tprediction\n");
        for (int i = 0; i < REPLIES.size(); i++) tsv.append(i).append("\tWhich animal?\tcat\tdog\tB\t").append(REPLIES.get(i)).append('\n');
        Files.writeString(f, tsv.toString());
        KeyedQuestion q = new KeyedQuestion(new Question("1", List.of(), "Which animal?", null, options()), "B", "c", "l");
        for (String name : MODES) {
            GradingMode mode = GradingMode.of(name);
            Grader grader = new Grader(Config.defaults().with(GradingMode.CONFIG_KEY, name), null);
            VlmEvalKitGrading.Result file = VlmEvalKitGrading.grade(PredictionFile.read(f), mode, "m_X", false);
            for (int i = 0; i < REPLIES.size(); i++) {
                GradingMode.Reading r = mode.read(REPLIES.get(i), options());
                VlmEvalKitGrading.Row row = file.rows().get(i);
                // gam grade: the reading as it is ("Z" for a refusal, "refusal"/"none" as the steps)
                assertThat(row.extracted()).as(name + " " + REPLIES.get(i)).isEqualTo(r.letter());
                assertThat(row.step()).as(name + " " + REPLIES.get(i)).isEqualTo(r.step());
                // results.jsonl: a refusal is unmatched, the extended mode's is "refused", nothing read is "unmatched"
                Grade g = grader.grade(q, new Answer(REPLIES.get(i), null, 0.5, 0.5, 0, Termination.SINGLE, TokenCount.ZERO, 1, 1, null));
                String step = r.none() ? "unmatched" : r.declined() && !mode.isVlmEvalKit() ? "refused" : r.step();
                assertThat(g.rule()).as(name + " " + REPLIES.get(i)).isEqualTo(name + ":" + step);
                assertThat(g.predicted()).isEqualTo(r.declined() ? null : r.letter());
                assertThat(g.outcome()).isEqualTo(r.letter() == null || r.declined() ? Outcome.UNMATCHED
                        : r.letter().equals("B") ? Outcome.CORRECT : Outcome.WRONG);
            }
        }
        // where the two copies differed: the extended mode's refusal is "refused" in results.jsonl, "refusal" in gam grade
        Grader extended = new Grader(Config.defaults().with(GradingMode.CONFIG_KEY, "extended"), null);
        assertThat(extended.grade(q, new Answer(REPLIES.get(0), null, 0.5, 0.5, 0, Termination.SINGLE, TokenCount.ZERO, 1, 1, null)).rule())
                .isEqualTo("extended:refused");
        assertThat(VlmEvalKitGrading.grade(PredictionFile.read(f), GradingMode.EXTENDED, "m_X", false).rows().get(0).step()).isEqualTo("refusal");
    }
}
