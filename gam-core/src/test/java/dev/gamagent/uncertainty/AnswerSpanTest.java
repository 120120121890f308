package dev.gamagent.uncertainty;

import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.UncertaintySignal;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.gamagent.testing.ScriptedBackend.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class AnswerSpanTest {
    private static List<TokenLogprob> tokens(String... parts) {
        List<TokenLogprob> out = new ArrayList<>();
        for (String p : parts) out.add(token(p, 0.9, "other", 0.05));
        return out;
    }

    @Test void theAnswerAfterTheAnswerMarkerIsFoundEvenWhenTheLetterAppearsEarlier() {
        var ts = tokens("B", " looks", " odd", ".\n", "ANSWER", ":", " C", "\n", "CONF");
        var span = AnswerSpan.tokens(ts, "C");
        assertThat(span).extracting(TokenLogprob::token).containsExactly(" C");
    }

    @Test void aJsonAnswerFieldIsFound() {
        var ts = tokens("{\"", "answer", "\":", " \"", "red", " circle", "\",", " \"claims\"");
        assertThat(AnswerSpan.tokens(ts, "red circle")).extracting(TokenLogprob::token).containsExactly("red", " circle");
    }

    @Test void withoutAMarkerTheLastOccurrenceIsUsedAndAMissingAnswerGivesNoTokens() {
        var ts = tokens("It", " is", " blue", ", ", "yes", " blue");
        assertThat(AnswerSpan.tokens(ts, "blue")).hasSize(1).first().extracting(TokenLogprob::token).isEqualTo(" blue");
        assertThat(AnswerSpan.tokens(ts, "green")).isEmpty();
    }

    @Test void withoutAMarkerALetterAnswerIsFoundAsAWordNotInsideALaterWord() {
        var ts = tokens("The", " answer", " is", " (", "B", ").", " Because", " it", " is", " blue");
        assertThat(AnswerSpan.tokens(ts, "B")).extracting(TokenLogprob::token).containsExactly("B");
        assertThat(AnswerSpan.locate("cat in the catalogue", "cat")).containsExactly(0, 3);
    }

    @Test void aMarkerFollowedByAWordContainingTheLetterDoesNotCountAsTheAnswer() {
        // "ANSWER: because B" — the letter after the marker is inside "because"; the standalone B is the answer
        assertThat(AnswerSpan.locate("ANSWER: because of it, B", "B")).containsExactly(23, 24);
    }

    @Test void answerSpanScoringUsesOnlyTheAnswerTokens() {
        var est = UncertaintyEstimator.defaults();
        List<TokenLogprob> ts = new ArrayList<>();
        ts.add(token("ANSWER", 0.5, "X", 0.5));
        ts.add(token(":", 0.5, "Y", 0.5));
        ts.add(new TokenLogprob(" B", 0.0, List.of(new TokenLogprob.Alternative(" B", 0.0), new TokenLogprob.Alternative(" A", -9999))));
        Choice c = new Choice("ANSWER: B", ts, "stop");
        assertThat(est.estimate(c, Scoring.ANSWER_SPAN, "B", null).value()).isCloseTo(0.0, within(1e-12));
        assertThat(est.estimate(c, Scoring.ALL, "B", null).value()).isGreaterThan(0.5);
        // not found → all tokens, never the semantic fallback
        assertThat(est.estimate(c, Scoring.ANSWER_SPAN, "Z", null).signal()).isEqualTo(UncertaintySignal.TOP_K);
    }

    @Test void withoutLogprobsTheHedgeTextIsScoredSemantically() {
        var est = UncertaintyEstimator.defaults();
        Choice c = new Choice("{\"answer\":\"B\",\"confidence\":0.8}", List.of(), "stop");
        var e = est.estimate(c, Scoring.ANSWER_SPAN, "B", "B. CONFIDENCE: 0.8");
        assertThat(e.signal()).isEqualTo(UncertaintySignal.SEMANTIC);
        assertThat(e.value()).isCloseTo((1 / (1 + Math.exp(2.4)) + 0.2) / 2, within(1e-12));
    }

    @Test void theSignalOfChosenOnlySpanTokensIsChosenEvenIfOtherTokensHadAlternatives() {
        var est = UncertaintyEstimator.defaults();
        List<TokenLogprob> ts = List.of(token("ANSWER", 0.5, "X", 0.5), new TokenLogprob(":", 0, List.of()),
                new TokenLogprob(" B", Math.log(0.9), List.of()));
        var e = est.estimate(new Choice("ANSWER: B", ts, "stop"), Scoring.ANSWER_SPAN, "B", null);
        assertThat(e.signal()).isEqualTo(UncertaintySignal.CHOSEN);
        assertThat(e.value()).isCloseTo(0.1, within(1e-12));
    }

    @Test void scoringNamesParseAndUnknownNamesAreRejected() {
        assertThat(Scoring.parse("answer-span")).isEqualTo(Scoring.ANSWER_SPAN);
        assertThat(Scoring.parse("all")).isEqualTo(Scoring.ALL);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Scoring.parse("tokens")).hasMessageContaining("gam.scoring");
    }
}
