package dev.gamagent.eval.grade;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.config.Config;
import dev.gamagent.eval.load.KeyedQuestion;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Open answers graded by the benchmark's VLMEvalKit rule: yes/no (MME, POPE, HallusionBench) and MathVista's prefetch. */
class BenchmarkRulesGraderTest {
    private static KeyedQuestion open(String truth) { return new KeyedQuestion(new Question("1", List.of(), "Is there a dog?", null, Map.of()), truth, "existence", null); }

    private static Answer answer(String text) { return new Answer(text, null, 0.5, 0.5, 0, Termination.SINGLE, TokenCount.ZERO, 1, 1, null); }

    private static Grader grader(String rule) { return new Grader(Config.defaults().with(Grader.OPEN_ANSWERS_KEY, rule), null); }

    @Test void yesNoQuestionsAreReadAsVlmEvalKitReadsThemNotAsFreeText() {
        Grader g = grader("yes-no");
        assertThat(g.grade(open("Yes"), answer("Yes, there is a dog on the sofa."))).isEqualTo(new Grade(Outcome.CORRECT, "Yes", "yes-no:yorn"));
        assertThat(g.grade(open("Yes"), answer("No"))).isEqualTo(new Grade(Outcome.WRONG, "No", "yes-no:yorn"));
        assertThat(g.grade(open("No"), answer("Maybe yes, maybe no")).outcome()).isEqualTo(Outcome.UNMATCHED);
        // the default matcher would not credit the sentence: the rule is what changed
        assertThat(grader("matcher").grade(open("Yes"), answer("Yes, there is a dog on the sofa.")).outcome()).isEqualTo(Outcome.WRONG);
    }

    @Test void mathVistaFreeFormAnswersAreDecidedOnlyWhereVlmEvalKitsRuleDecidesThem() {
        Grader g = grader("mathvista");
        assertThat(g.grade(open("14"), answer(" 14 "))).isEqualTo(new Grade(Outcome.CORRECT, "14", "mathvista:prefetch"));
        assertThat(g.grade(open("14"), answer("15")).outcome()).isEqualTo(Outcome.WRONG);
        // int("14.0") fails in Python: VLMEvalKit hands that reply to its judge
        assertThat(g.grade(open("14"), answer("14.0"))).isEqualTo(new Grade(Outcome.UNMATCHED, "14.0", "mathvista:needs-judge"));
        assertThat(g.grade(open("14"), answer("The answer is 14")).outcome()).isEqualTo(Outcome.UNMATCHED);
        assertThat(g.grade(open("1.5"), answer("1.50")).outcome()).isEqualTo(Outcome.CORRECT);
        assertThat(g.grade(open("1.5"), answer("1.49")).outcome()).isEqualTo(Outcome.WRONG);
        assertThat(g.grade(open("[2007, 2008]"), answer("[2007, 2008]")).outcome()).isEqualTo(Outcome.UNMATCHED);
        // the default matcher's numeric tolerance would have credited 14.1
        assertThat(grader("matcher").grade(open("14"), answer("14.1")).outcome()).isEqualTo(Outcome.CORRECT);
        assertThat(g.grade(open("14"), answer("14.1")).outcome()).isEqualTo(Outcome.UNMATCHED);
    }

    @Test void anUnknownRuleIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> grader("fuzzy")).hasMessageContaining("eval.open_answers").hasMessageContaining("yes-no");
    }
}
