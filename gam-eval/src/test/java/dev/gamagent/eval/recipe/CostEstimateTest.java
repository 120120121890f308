package dev.gamagent.eval.recipe;

import dev.gamagent.api.Question;
import dev.gamagent.config.Config;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.image.Picture;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/** Issue 23 item 3: the dry run's ranges follow the protocol and the images; a pilot narrows them by the questions' sizes. */
class CostEstimateTest {
    private static Question q(String id, int w, int h) {
        return new Question(id, List.of(new Picture("t", new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB))), "How many circles are there?",
                null, Map.of("A", "2", "B", "3"));
    }

    @Test void rangesFollowTheProtocolTheImageAndMaxTokens() {
        Config c = Config.defaults();
        CostEstimate.QuestionSize small = CostEstimate.size(q("1", 224, 224), "debate", c, null);
        CostEstimate.QuestionSize big = CostEstimate.size(q("2", 1792, 1792), "debate", c, null);
        assertThat(big.textTokens()).isEqualTo(small.textTokens());
        assertThat(big.imageTokens()).isGreaterThan(10 * small.imageTokens());
        // DREAM sees the image at up to twice the size
        assertThat(CostEstimate.size(q("3", 896, 896), "dream+debate", c, null).imageTokens())
                .isGreaterThan(3 * CostEstimate.size(q("3", 896, 896), "debate", c, null).imageTokens());
        CostEstimate.MethodEstimate e = CostEstimate.of("debate", c, List.of(small, big), new PriceTable.Price(1.0, 2.0));
        assertThat(e.callsPerQuestion().min()).isEqualTo(9);
        assertThat(e.calls().low()).isEqualTo(18);
        assertThat(e.promptTokens().low()).isEqualTo(9.0 * (small.textTokens() + big.textTokens()));
        double history = 512.0 * 9 * 8 / 2;
        assertThat(e.promptTokens().high()).isEqualTo(9.0 * (small.textTokens() + small.imageTokens() + 1024) + history
                + 9.0 * (big.textTokens() + big.imageTokens() + 1024) + history);
        assertThat(e.completionTokens().high()).isEqualTo(2 * 9 * 512.0);
        assertThat(e.dollars().high()).isCloseTo((e.promptTokens().high() + 2 * e.completionTokens().high()) / 1e6, offset(1e-12));
        assertThat(CostEstimate.of("debate", c.with("debate.max_tokens", "100"), List.of(small), null).completionTokens().high()).isEqualTo(900);
        assertThat(CostEstimate.maxTokens("dream+debate", c)).isEqualTo(512);
        assertThat(CostEstimate.maxTokens("self-debate", c)).isEqualTo(512);
        assertThat(CostEstimate.maxTokens("cot", c)).isEqualTo(1024);
    }

    @Test void aPilotScalesPromptTokensByTheQuestionsSizesNotByTheirCount() {
        Config c = Config.defaults();
        List<CostEstimate.QuestionSize> all = new ArrayList<>();
        Map<String, CostEstimate.QuestionSize> byId = new HashMap<>();
        for (int i = 0; i < 10; i++) {
            // the pilot's two questions are small; the other eight are large
            CostEstimate.QuestionSize s = i < 2 ? new CostEstimate.QuestionSize(50, 100) : new CostEstimate.QuestionSize(50, 3000);
            all.add(s);
            byId.put("q" + i, s);
        }
        CostEstimate.MethodEstimate e = CostEstimate.of("single", c, all, null);
        List<ResultRecord> pilot = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            // a server that spends 2 tokens per unit of size
            long prompt = 2 * (50 + 100 + CostEstimate.TEMPLATE_ALLOWANCE);
            pilot.add(Records.record("q" + i, "single").outcome("correct").predicted("A").groundTruth("A").answer("A")
                    .option("A").confidence(1).promptTokens(prompt).completionTokens(7).calls(1).millis(500)
                    .backend("openai:m").build());
        }
        CostEstimate.MethodEstimate n = CostEstimate.withPilot(e, all, byId, pilot, null);
        double expected = 0;
        for (CostEstimate.QuestionSize s : all) expected += 2.0 * (s.textTokens() + s.imageTokens() + CostEstimate.TEMPLATE_ALLOWANCE);
        assertThat(n.pilot().promptTokens()).isCloseTo(expected, offset(1e-6));
        assertThat(n.pilot().calls()).isEqualTo(10);
        assertThat(n.pilot().completionTokens()).isEqualTo(70);
        assertThat(n.pilot().secondsPerQuestion()).isEqualTo(0.5);
        assertThat(n.pilot().n()).isEqualTo(2);
        // the per-question mean alone would have said 10 × the pilot's small questions
        assertThat(n.pilot().promptTokens()).isGreaterThan(2 * 10 * pilot.get(0).cost().promptTokens());
        assertThat(n.pilot().computedPromptTokens()).as("the pilot's server reported no cached tokens: only it knows").isNull();

        // a server that reported a quarter of the pilot's prompt tokens cached: the estimate of the tokens it computes follows
        List<ResultRecord> cachedPilot = pilot.stream().map(r -> Records.from(r).cachedPromptTokens(r.cost().promptTokens() / 4).build()).toList();
        CostEstimate.Pilot q = CostEstimate.withPilot(e, all, byId, cachedPilot, null).pilot();
        assertThat(q.promptTokens()).as("prompt tokens are as sent").isCloseTo(expected, offset(1e-6));
        assertThat(q.computedPromptTokens()).isCloseTo(expected * 0.75, offset(1e-6));
    }
}
