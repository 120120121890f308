package dev.gamagent.eval.grade;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.config.Config;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class GraderTest {
    private static KeyedQuestion mc() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("A", "cat");
        o.put("B", "dog");
        return new KeyedQuestion(new Question("1", List.of(), "Which animal?", null, o), "B", "c", "l");
    }

    private static Answer answer(String text, String option) {
        return new Answer(text, option, 0.5, 0.5, 0, Termination.SINGLE, TokenCount.ZERO, 1, 1, null);
    }

    @Test void theMethodsOwnLetterIsGradedFirst() {
        Grader g = new Grader(Config.defaults(), null);
        assertThat(g.grade(mc(), answer("dog", "B"))).isEqualTo(new Grade(Outcome.CORRECT, "B", "vlmevalkit-2026:method"));
        assertThat(g.grade(mc(), answer("cat", "A")).outcome()).isEqualTo(Outcome.WRONG);
    }

    @Test void withoutALetterTheTextIsExtractedAndRefusalsAreUnmatched() {
        Grader g = new Grader(Config.defaults(), null);
        assertThat(g.grade(mc(), answer("a dog", null))).isEqualTo(new Grade(Outcome.CORRECT, "B", "vlmevalkit-2026:text"));
        assertThat(g.grade(mc(), answer("Cannot determine the answer", null)).outcome()).isEqualTo(Outcome.UNMATCHED);
        assertThat(g.grade(mc(), answer("either a cat or a dog", null))).isEqualTo(new Grade(Outcome.UNMATCHED, null, "vlmevalkit-2026:unmatched"));
    }

    @Test void aJudgeMapsAnswersTheRulesCannotAndItsZIsUnmatched() {
        ScriptedBackend judge = ScriptedBackend.text(r -> r.messages().get(0).toString().contains("puppy") ? "B" : "Z");
        Grader g = new Grader(Config.defaults(), judge);
        assertThat(g.grade(mc(), answer("it's a small puppy, I would say, looking at the ears and the tail of the animal", null)))
                .isEqualTo(new Grade(Outcome.CORRECT, "B", "vlmevalkit-2026:judge"));
        assertThat(g.grade(mc(), answer("a horse is what I see here in the middle of the picture, clearly", null)).outcome())
                .isEqualTo(Outcome.UNMATCHED);
        assertThat(judge.requests).hasSize(2);
    }

    @Test void aJudgeReplyNamingNoSingleOptionIsAskedAgainUpToThreeTimes() {
        ScriptedBackend judge = ScriptedBackend.text(r -> "A or B");
        Grader g = new Grader(Config.defaults(), judge);
        assertThat(g.grade(mc(), answer("something that is neither of them, seen from the distance, hard to say", null)))
                .isEqualTo(new Grade(Outcome.UNMATCHED, null, "vlmevalkit-2026:judge_unmatched"));
        assertThat(judge.requests).hasSize(3);
    }

    @Test void openAnswersMatchExactlyNormalisedOrNumerically() {
        OpenAnswerMatcher m = new OpenAnswerMatcher(0.01);
        assertThat(m.match("Paris", "Paris")).isEqualTo(OpenAnswerMatcher.Match.EXACT);
        assertThat(m.match("The Eiffel tower.", "eiffel Tower")).isEqualTo(OpenAnswerMatcher.Match.NORMALISED);
        assertThat(m.match("ANSWER: 3.0\nCONFIDENCE: 0.9", "3")).isEqualTo(OpenAnswerMatcher.Match.NUMERIC);
        assertThat(m.match("about 1,000", "1000")).isEqualTo(OpenAnswerMatcher.Match.NUMERIC);
        assertThat(m.match("100.5", "100")).isEqualTo(OpenAnswerMatcher.Match.NUMERIC);   // within 1 %
        assertThat(m.match("102", "100")).isEqualTo(OpenAnswerMatcher.Match.NONE);
        assertThat(m.match("three", "3")).isEqualTo(OpenAnswerMatcher.Match.NUMERIC);
        assertThat(m.match("3 or 4", "3")).isEqualTo(OpenAnswerMatcher.Match.NONE);         // two numbers: not a single answer
        assertThat(m.match("12.50%", "12.5")).isEqualTo(OpenAnswerMatcher.Match.NUMERIC);
        assertThat(m.match("dog", "cat")).isEqualTo(OpenAnswerMatcher.Match.NONE);
        KeyedQuestion open = new KeyedQuestion(new Question("2", List.of(), "How many?", null, Map.of()), "4", null, null);
        assertThat(new Grader(Config.defaults(), null).grade(open, answer("4 objects", null)).outcome()).isEqualTo(Outcome.CORRECT);
    }
}
