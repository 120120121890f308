package dev.gamagent.gam;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The claim parser on expert replies as models write them in the wild. */
class ClaimParserConformanceTest {
    private static final Map<String, String> OPTS = new LinkedHashMap<>();
    static {
        OPTS.put("A", "red");
        OPTS.put("B", "blue");
        OPTS.put("C", "green");
        OPTS.put("D", "yellow");
    }

    @Test void jsonInAFenceFollowedByAnExplanationWithBracesIsStillJson() {
        String text = "```json\n{\"answer\": \"B\", \"claims\": [{\"text\": \"The square is blue\", \"confidence\": 0.9}]}\n```\n"
                + "Note: I read the colour from the {largest} shape.";
        ParsedResponse p = ClaimParser.parseAnswer(text, OPTS);
        assertThat(p.parse()).isEqualTo("json");
        assertThat(p.answer()).isEqualTo("B");
        assertThat(p.claims()).hasSize(1);
    }

    @Test void aBoldAnswerLabelIsReadAsTheAnswerLine() {
        ParsedResponse p = ClaimParser.parseAnswer("**Answer:** B\nCLAIM 1: The square is blue | CONFIDENCE: 0.8", OPTS);
        assertThat(p.answer()).isEqualTo("B");
        assertThat(p.claims()).hasSize(1);
    }

    @Test void theAnswerIsInParenthesesInProseGivesTheLetter() {
        assertThat(ClaimParser.parseAnswer("The answer is (C). The patch is green.", OPTS).answer()).isEqualTo("C");
    }

    @Test void aLowercaseLetterInProseGivesTheLetter() {
        ParsedResponse p = ClaimParser.parseAnswer("the answer is c. I checked the patch twice.", OPTS);
        assertThat(p.answer()).isEqualTo("C");
    }

    @Test void aLetterWithATrailingExplanationOnTheAnswerLineKeepsTheLetter() {
        ParsedResponse p = ClaimParser.parseAnswer("ANSWER: B because the square is blue", OPTS);
        assertThat(dev.gamagent.engine.AnswerExtractor.option(p.answer(), OPTS)).isEqualTo("B");
    }

    @Test void anEmptyReplyIsUnreadable() {
        assertThat(ClaimParser.parseAnswer("", OPTS).parse()).isEqualTo("none");
        assertThat(ClaimParser.parseAnswer("   \n", Map.of()).parse()).isEqualTo("none");
        assertThat(ClaimParser.parseAnswer(null, OPTS).answer()).isNull();
    }

    @Test void aRefusalToAMultipleChoiceQuestionIsUnreadable() {
        ParsedResponse p = ClaimParser.parseAnswer("I'm sorry, but I can't help with that request.", OPTS);
        assertThat(p.answer()).isNull();
        assertThat(p.parse()).isEqualTo("none");
    }

    @Test void aCritiqueInAFenceWithTrailingProseIsRead() {
        String text = "```json\n{\"assessments\": [{\"claim\": 1, \"assessment\": \"Inaccurate\", \"reason\": \"it is red\","
                + " \"correction\": \"red\", \"confidence\": 0.7}]}\n```\nHope this helps {user}.";
        assertThat(ClaimParser.parseCritique(text, 1)).singleElement()
                .satisfies(a -> assertThat(a.assessment()).isEqualTo("inaccurate"));
    }

    @Test void anOpenAnswerLosesItsBoldMarkersAndFinalFullStopLikeTheBaselinesDo() {
        assertThat(ClaimParser.parseAnswer("**Answer:** Stop sign.\nCONFIDENCE: 0.9", Map.of()).answer()).isEqualTo("Stop sign");
        assertThat(ClaimParser.parseAnswer("ANSWER: 3.5", Map.of()).answer()).isEqualTo("3.5");
        assertThat(ClaimParser.parseAnswer("ANSWER: etc...", Map.of()).answer()).isEqualTo("etc...");
    }
}
