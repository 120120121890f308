package dev.gamagent.gam;

import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.Question;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.config.Config;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Holds no opinion" has one home, {@link GamDecision#noOpinion}: the controller's reading of an expert's reply and
 * DREAM's rollback decision ({@link GamMethod#decide}, from the trace's turns) must agree on every kind of reply.
 */
class GamDecisionTest {
    @Test void theRuleNamesWhyAReplyHoldsNoOpinion() {
        assertThat(ExpertTurn.noOpinion(true, "lines", "NOT APPLICABLE", null, false)).isEqualTo("not applicable");
        assertThat(ExpertTurn.noOpinion(false, "none", null, null, false)).isEqualTo("unreadable");
        assertThat(ExpertTurn.noOpinion(false, "lines", "blue", null, true)).isEqualTo("unreadable"); // names no option
        assertThat(ExpertTurn.noOpinion(false, "lines", "cannot determine", null, false)).isEqualTo("declined");
        assertThat(ExpertTurn.noOpinion(false, "json", "cannot determine", "A", true)).isNull(); // a letter is an answer
        assertThat(ExpertTurn.noOpinion(false, "lines", "STOP", null, false)).isNull();
    }

    @Test void theControllerAndDreamsRollbackDecideWhoHoldsAnOpinionAlike() {
        Question q = GamControllerTest.open();
        Map<String, Boolean> replies = Map.of(
                "ANSWER: cannot determine\nCONFIDENCE: 0.95", false, // declines: the copy in GamMethod.decide once missed this
                "ANSWER: NOT APPLICABLE", false,
                "", false, // nothing to read
                "ANSWER: EXIT\nCONFIDENCE: 0.95", true);
        for (var e : replies.entrySet()) {
            String text = e.getKey();
            boolean holds = e.getValue();
            MultiAgentMethod.Reading controller = Experts.read(q, text);
            assertThat(controller.answer() != null).as("controller on %s", text).isEqualTo(holds);
            // the same reply as the trace records it, outweighing a second expert that reads the sign as STOP
            ParsedResponse p = ClaimParser.parseAnswer(text, q.options());
            Trace.AgentTurn heavy = new Trace.AgentTurn("ocr", "ocr", 1.0, p.answer(), null, 0.05, "logprobs-answer-span", 0.9,
                    List.of(), TokenCount.ZERO, text, p.parse(), null, null);
            Trace.AgentTurn light = new Trace.AgentTurn("scene", "scene", 1.0, "STOP", null, 0.2, "logprobs-answer-span", 0.1,
                    List.of(), TokenCount.ZERO, "ANSWER: STOP", "lines", null, null);
            MultiAgentMethod.Decision rollback = new GamMethod().decide(q, List.of(heavy, light), Config.defaults()
                    .with("gam.embedding", "none")).orElseThrow();
            assertThat(rollback.answer()).as("rollback on %s", text).isEqualTo(holds ? "EXIT" : "STOP");
        }
    }
}
