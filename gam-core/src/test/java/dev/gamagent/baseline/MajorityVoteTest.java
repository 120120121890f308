package dev.gamagent.baseline;

import dev.gamagent.engine.ReplyParser;
import dev.gamagent.api.Question;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MajorityVoteTest {
    static MajorityVote.Ballot b(String key, double u, double w) { return new MajorityVote.Ballot(key, key, key, u, w); }

    @Test
    void theMostVotedAnswerWinsAndConfidenceIsTheWinnersMeanCertaintyOverAllVoters() {
        var v = MajorityVote.decide(List.of(b("A", 0.2, 1), b("B", 0.1, 1), b("A", 0.4, 1)));
        assertThat(v.key()).isEqualTo("A");
        assertThat(v.support()).isEqualTo(2.0 / 3);
        assertThat(v.confidence()).isCloseTo((0.8 + 0.6) / 3, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(v.uncertainty()).isCloseTo(1 - (0.8 + 0.6) / 3, org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void aTieGoesToTheAnswerWithLowerMeanUncertainty() {
        assertThat(MajorityVote.decide(List.of(b("A", 0.5, 1), b("B", 0.3, 1))).key()).isEqualTo("B");
        assertThat(MajorityVote.decide(List.of(b("A", 0.2, 1), b("B", 0.3, 1))).key()).isEqualTo("A");
    }

    @Test
    void weightsCanOutvoteAHeadcount() {
        var v = MajorityVote.decide(List.of(b("A", 0.05, 0.95), b("B", 0.7, 0.3), b("B", 0.7, 0.3)));
        assertThat(v.key()).isEqualTo("A");
    }

    @Test
    void anEmptyVoteIsRejected() {
        assertThatThrownBy(() -> MajorityVote.decide(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theParserPrefersTheAnswerLineAndNormalisesOpenAnswers() {
        Question mc = Question.of("q", List.of(), "color?", Map.of("A", "red", "B", "blue"));
        assertThat(ReplyParser.parse("A is wrong here.\nANSWER: B\nCONFIDENCE: 0.7", mc).option()).isEqualTo("B");
        assertThat(ReplyParser.parse("blue", mc).option()).isEqualTo("B");
        Question open = Question.of("q", List.of(), "what word?", Map.of());
        var p = ReplyParser.parse("The sign reads STOP.\nANSWER: Stop.", open);
        assertThat(p.answer()).isEqualTo("Stop");
        assertThat(ReplyParser.key(p.answer(), null)).isEqualTo("stop");
        assertThat(ReplyParser.reasoning("I see blue.\nANSWER: B\nCONFIDENCE: 0.7")).isEqualTo("I see blue.");
    }
}
