package dev.gamagent.engine;

import dev.gamagent.engine.AnswerExtractor.Matched;
import dev.gamagent.engine.AnswerExtractor.Refused;
import dev.gamagent.engine.AnswerExtractor.Unmatched;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Cases worked by hand from VLMEvalKit's can_infer_option / can_infer_text, plus our line format. */
class AnswerExtractorTest {
    private static Map<String, String> opts(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return m;
    }

    private final Map<String, String> colours = opts("A", "red", "B", "blue", "C", "green", "D", "yellow");

    @Test void aLoneLetterIsTheAnswer() {
        assertThat(AnswerExtractor.extract("B", colours)).isEqualTo(new Matched("B", "option"));
        assertThat(AnswerExtractor.option("(C)", colours)).isEqualTo("C");
        assertThat(AnswerExtractor.option("D.", colours)).isEqualTo("D");
        assertThat(AnswerExtractor.option("I choose [A]", colours)).isEqualTo("A");
    }

    @Test void separatorsAreSplitLikeVlmEvalKit() {
        // '.()[],:;!*#{}' become spaces, so "**B**" and "B:" are the token "B"
        assertThat(AnswerExtractor.option("**B**", colours)).isEqualTo("B");
        assertThat(AnswerExtractor.option("Option {C}!", colours)).isEqualTo("C");
    }

    @Test void twoLettersAmongTheTokensAreUnmatched() {
        var x = AnswerExtractor.extract("A or B", colours);
        assertThat(x).isInstanceOf(Unmatched.class);
        assertThat(((Unmatched) x).candidates()).containsExactly("A", "B");
    }

    @Test void aLetterThatIsNotAnOptionDoesNotCount() {
        // only A and B are options: "C" is just a token, so the single option letter A wins
        assertThat(AnswerExtractor.option("C A", opts("A", "cat", "B", "dog"))).isEqualTo("A");
    }

    @Test void knownRefusalsAndALoneZAreRefusals() {
        assertThat(AnswerExtractor.extract("Cannot determine the answer from this picture", colours)).isInstanceOf(Refused.class);
        assertThat(AnswerExtractor.extract("I'm sorry, but without the image provided I cannot say", colours)).isInstanceOf(Refused.class);
        assertThat(AnswerExtractor.extract("Z", colours)).isInstanceOf(Refused.class);
        assertThat(AnswerExtractor.option("Z", colours)).isNull();
    }

    @Test void anApiFailureIsUnmatchedNotRefused() {
        assertThat(AnswerExtractor.extract("Failed to obtain answer via API", colours)).isInstanceOf(Unmatched.class);
    }

    @Test void aUniqueOptionTextIsFoundWhenNoLetterIs() {
        assertThat(AnswerExtractor.extract("it is green", colours)).isEqualTo(new Matched("C", "text"));
        // can_infer_text is a substring test on the lower-cased answer
        assertThat(AnswerExtractor.option("Yellowish", colours)).isEqualTo("D");
    }

    @Test void twoOptionTextsOrAVeryLongAnswerAreUnmatched() {
        assertThat(AnswerExtractor.option("red and blue", colours)).isNull();
        // total option length is 3+4+5+6 = 18; an answer longer than 36 characters is not text-matched
        assertThat(AnswerExtractor.option("the object in the middle is clearly green, no doubt", colours)).isNull();
    }

    @Test void theAnswerLineOfOurFormatWinsOverCapitalsInClaims() {
        String reply = "ANSWER: B\nCLAIM 1: A red circle is left of the square | CONFIDENCE: 0.8\nCONFIDENCE: 0.7";
        assertThat(AnswerExtractor.extract(reply, colours)).isEqualTo(new Matched("B", "explicit"));
        assertThat(AnswerExtractor.option("ANSWER: blue\nCONFIDENCE: 0.9", colours)).isEqualTo("B");
        assertThat(AnswerExtractor.option("After checking, the answer is (D).", colours)).isEqualTo("D");
    }

    @Test void explicitAndOneLetterRepliesAreReadInAnyCase() {
        assertThat(AnswerExtractor.option("answer: c", colours)).isEqualTo("C");
        assertThat(AnswerExtractor.option("b.", colours)).isEqualTo("B");
        assertThat(AnswerExtractor.option("the answer is e", colours)).isNull(); // E is not an option
    }

    @Test void theArticleAfterAnswerIsIsNotALetter() {
        assertThat(AnswerExtractor.option("The answer is a blue square, so B.", colours)).isEqualTo("B");
        assertThat(AnswerExtractor.option("The answer is c.", colours)).isEqualTo("C");
    }

    @Test void emptyOrMissingTextIsUnmatched() {
        assertThat(AnswerExtractor.extract("", colours)).isInstanceOf(Unmatched.class);
        assertThat(AnswerExtractor.option(null, colours)).isNull();
        assertThat(AnswerExtractor.option("B", Map.of())).isNull();
    }
}
