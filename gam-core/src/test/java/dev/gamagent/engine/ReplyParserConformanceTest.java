package dev.gamagent.engine;

import dev.gamagent.api.Question;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** ReplyParser on replies as models write them in the wild, not as the prompt asked. */
class ReplyParserConformanceTest {
    private static final Map<String, String> OPTS = new LinkedHashMap<>();
    static {
        OPTS.put("A", "red");
        OPTS.put("B", "blue");
        OPTS.put("C", "green");
        OPTS.put("D", "yellow");
    }
    private static final Question MC = Question.of("q1", List.of(), "Which colour?", OPTS);
    private static final Question OPEN = Question.of("q2", List.of(), "What word is written?", Map.of());

    private static String option(String reply) { return ReplyParser.parse(reply, MC).option(); }

    @Test void jsonInsideAMarkdownCodeFenceGivesItsLetter() {
        assertThat(option("```json\n{\"answer\": \"C\", \"confidence\": 0.9}\n```")).isEqualTo("C");
    }

    @Test void aBoldAnswerLabelGivesItsLetter() {
        assertThat(option("**Answer:** B")).isEqualTo("B");
        assertThat(option("Looking at the image.\n**Final Answer**: (D)")).isEqualTo("D");
    }

    @Test void theAnswerIsInParenthesesGivesItsLetter() {
        assertThat(option("The answer is (C).")).isEqualTo("C");
    }

    @Test void aLowercaseLetterAfterAnAnswerMarkerIsTheOption() {
        assertThat(option("answer: b")).isEqualTo("B");
        assertThat(option("The answer is c.")).isEqualTo("C");
        assertThat(option("I think the answer is (d)")).isEqualTo("D");
    }

    @Test void theArticleAInAnOpenSentenceIsNotReadAsOptionA() {
        assertThat(option("The answer is a blue square, so B")).isEqualTo("B");
    }

    @Test void aLetterFollowedByATrailingExplanationIsTheOption() {
        assertThat(option("B. A blue triangle sits left of the circle, which rules out the others.")).isEqualTo("B");
        assertThat(option("ANSWER: B\nBecause the triangle is clearly blue.")).isEqualTo("B");
    }

    @Test void anEmptyReplyHasNoOptionAndNoAnswer() {
        ReplyParser.Parsed mc = ReplyParser.parse("", MC);
        assertThat(mc.option()).isNull();
        assertThat(ReplyParser.key(mc.answer(), mc.option())).isEmpty();
        ReplyParser.Parsed open = ReplyParser.parse(null, OPEN);
        assertThat(ReplyParser.key(open.answer(), open.option())).isEmpty();
    }

    @Test void aRefusalHasNoOption() {
        ReplyParser.Parsed p = ReplyParser.parse("I'm sorry, but I can't help with identifying that.", MC);
        assertThat(p.option()).isNull();
        assertThat(p.how()).isEqualTo("unmatched");
    }

    @Test void openAnswersLoseTheirBoldMarkersAndFinalFullStop() {
        assertThat(ReplyParser.parse("**Answer:** Stop sign.", OPEN).answer()).isEqualTo("Stop sign");
    }
}
