package dev.gamagent.eval.grade;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.config.Config;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** MathVista and MathVision graded with a judge as VLMEvalKit grades them (the prompt, the retries, post_check), and without one. */
class HarnessJudgeGradingTest {
    private static final String INT_HINT = "Hint: Please answer the question requiring an integer answer and provide the final value, e.g., 1, 2, 3, at the end.\n";

    private static Answer answer(String text) { return new Answer(text, null, 0.5, 0.5, 0, Termination.SINGLE, TokenCount.ZERO, 1, 1, null); }

    private static KeyedQuestion open(String text, String truth) { return new KeyedQuestion(new Question("q", List.of(), text, null, Map.of()), truth, null, null); }

    private static Grader grader(String rule, ScriptedBackend judge) { return new Grader(Config.defaults().with(Grader.OPEN_ANSWERS_KEY, rule), judge); }

    @Test void aMathVistaReplyTheRulesLeaveGoesToTheJudgeWithVlmEvalKitsPromptAndItsExtractionIsComparedByAnswerType() {
        ScriptedBackend judge = ScriptedBackend.text(r -> " 14");
        Grader g = grader("mathvista", judge);
        KeyedQuestion q = open(INT_HINT + "Question: How many bars?", "14");
        assertThat(g.grade(q, answer("I count 14 bars."))).isEqualTo(new Grade(Outcome.CORRECT, "14", "mathvista:judge"));
        ChatRequest sent = judge.requests.get(0);
        assertThat(sent.messages()).hasSize(1);
        assertThat(sent.messages().get(0).text()).isEqualTo(HarnessPrompt.MATHVISTA.render(q.text(), "I count 14 bars."));
        assertThat(sent.maxTokens()).isEqualTo(128);
        assertThat(sent.temperature()).isZero();
        // the prefetch decides an equal reply without the judge; a zero is not "decided" in Python, so the judge reads it
        assertThat(g.grade(q, answer("14"))).isEqualTo(new Grade(Outcome.CORRECT, "14", "mathvista:prefetch"));
        assertThat(judge.requests).hasSize(1);
        g.grade(open(INT_HINT + "Question: How many?", "0"), answer("0"));
        assertThat(judge.requests).hasSize(2);
        // int() does not read "14.0": VLMEvalKit counts it wrong
        assertThat(grader("mathvista", ScriptedBackend.text(r -> "14.0")).grade(q, answer("about 14")).outcome()).isEqualTo(Outcome.WRONG);
    }

    @Test void floatsAreComparedAsFloatAndListAnswersAreNeverRightAsInPostCheck() {
        String floatHint = "Hint: Please answer the question requiring a floating-point number with one decimal place and provide the final value, e.g., 1.2, 1.3, 1.4, at the end.\nQuestion: x?";
        assertThat(grader("mathvista", ScriptedBackend.text(r -> "1.20")).grade(open(floatHint, "1.2"), answer("it is 1.20")).outcome()).isEqualTo(Outcome.CORRECT);
        assertThat(grader("mathvista", ScriptedBackend.text(r -> "1.23")).grade(open(floatHint, "1.2"), answer("it is 1.23")).outcome()).isEqualTo(Outcome.WRONG);
        String listHint = "Hint: Please answer the question requiring a Python list as an answer and provide the final list, e.g., [1, 2, 3], [1.2, 1.3, 1.4], at the end.\nQuestion: y?";
        assertThat(grader("mathvista", ScriptedBackend.text(r -> "[2014, 2016]")).grade(open(listHint, "[2014, 2016]"), answer("[2014, 2016]")).outcome())
                .isEqualTo(Outcome.WRONG);
    }

    @Test void aFailingJudgeIsAskedFiveTimesOneTemperatureStepUpEachThenTheAnswerCountsWrong() {
        List<Double> temps = new ArrayList<>();
        ScriptedBackend down = new ScriptedBackend("down", new Capabilities(true, false, 0, true, true, 0), r -> {
            temps.add(r.temperature());
            throw new BackendException.ServerUnavailable("503 from the judge", 503, null);
        });
        Grade g = grader("mathvista", down).grade(open(INT_HINT + "Question: n?", "3"), answer("three"));
        assertThat(g).isEqualTo(new Grade(Outcome.UNMATCHED, null, "mathvista:judge-failed"));
        assertThat(temps).containsExactly(0.0, 0.5, 1.0, 1.5, 2.0);
        AtomicInteger calls = new AtomicInteger();
        ScriptedBackend flaky = new ScriptedBackend("flaky", new Capabilities(true, false, 0, true, true, 0), r -> {
            if (calls.getAndIncrement() == 0) throw new BackendException.ServerUnavailable("503", 503, null);
            return ScriptedBackend.result("3", List.of());
        });
        assertThat(grader("mathvista", flaky).grade(open(INT_HINT + "Question: n?", "3"), answer("three")).outcome()).isEqualTo(Outcome.CORRECT);
        assertThat(calls).hasValue(2);
    }

    @Test void aMultipleChoiceReplyTheRulesCannotReadGoesToTheJudgeWithTheHarnessPromptAndCanInferReadsItsAnswer() {
        ScriptedBackend judge = ScriptedBackend.text(r -> "B");
        Map<String, String> options = Map.of("A", "3/11", "B", "8/11");
        KeyedQuestion q = new KeyedQuestion(new Question("q", List.of(), "Hint: ...\nQuestion: What fraction?\nChoices:\n(A) 3/11\n(B) 8/11", null,
                new java.util.TreeMap<>(options)), "B", null, null);
        assertThat(grader("mathvista", judge).grade(q, answer("Eight elevenths of it, I would say."))).isEqualTo(new Grade(Outcome.CORRECT, "B", "mathvista:judge"));
        assertThat(judge.requests.get(0).messages().get(0).text()).isEqualTo(HarnessPrompt.MATHVISTA.render(q.text(), "Eight elevenths of it, I would say."));
        ScriptedBackend v = ScriptedBackend.text(r -> "A");
        assertThat(grader("mathvision", v).grade(q, answer("Eight elevenths of it, I would say."))).isEqualTo(new Grade(Outcome.WRONG, "A", "mathvision:judge"));
        assertThat(v.requests.get(0).messages().get(0).text()).startsWith(HarnessPrompt.MATHVISION.taskDescription() + HarnessPrompt.MATHVISION.examples().get(0));
        // a letter the rules read needs no judge
        assertThat(grader("mathvista", judge).grade(q, answer("B")).rule()).isEqualTo("vlmevalkit-2026:option");
        assertThat(judge.requests).hasSize(1);
    }

    @Test void mathVisionComparesAsIsEqualDoesAndWithoutAJudgeLeavesWhatItsPrefetchCannotDecide() {
        assertThat(VlmEvalKitMathVision.isEqual(" 0.5 ", "1/2")).isTrue();
        assertThat(VlmEvalKitMathVision.isEqual("\\frac{1}{2}", "0.5")).isTrue();
        assertThat(VlmEvalKitMathVision.isEqual("2\\sqrt{3}", "\\sqrt{12}")).isTrue();
        assertThat(VlmEvalKitMathVision.isEqual("2**3", "8")).isTrue();
        assertThat(VlmEvalKitMathVision.isEqual("-2**2", "-4")).isTrue();
        assertThat(VlmEvalKitMathVision.isEqual("ABC", "abc")).isTrue();
        assertThat(VlmEvalKitMathVision.isEqual("0.50001", "0.5")).isFalse();
        assertThat(VlmEvalKitMathVision.isEqual("x+1", "1+x")).isFalse(); // latex2sympy's symbolic equality is not reproduced
        Grader none = grader("mathvision", null);
        assertThat(none.grade(open("Question: area?", "1/2"), answer("0.5"))).isEqualTo(new Grade(Outcome.CORRECT, "0.5", "mathvision:prefetch"));
        assertThat(none.grade(open("Question: area?", "1/2"), answer("The area is one half."))).isEqualTo(
                new Grade(Outcome.UNMATCHED, "The area is one half.", "mathvision:needs-judge"));
        ScriptedBackend judge = ScriptedBackend.text(r -> "\\frac{1}{2}");
        assertThat(grader("mathvision", judge).grade(open("Question: area?", "1/2"), answer("The area is one half.")))
                .isEqualTo(new Grade(Outcome.CORRECT, "\\frac{1}{2}", "mathvision:judge"));
    }
}
