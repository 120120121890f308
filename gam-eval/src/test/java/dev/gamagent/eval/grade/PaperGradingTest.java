package dev.gamagent.eval.grade;

import dev.gamagent.config.Config;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which runs summary.json calls comparable with the paper's grading, and the line saying why. */
class PaperGradingTest {
    private static final DatasetCatalogue CATALOGUE = DatasetCatalogue.builtIn();

    private static PaperGrading.Verdict verdict(String benchmark, String openRule, boolean judge) {
        Config c = Config.defaults().with(Grader.OPEN_ANSWERS_KEY, openRule);
        return PaperGrading.of(CATALOGUE.find(benchmark), c, judge ? ScriptedBackend.text(r -> "A") : null, List.of());
    }

    @Test void mathVistaAndMathVisionAreComparableOnlyWithAJudge() {
        assertThat(verdict("MathVista_MINI", "mathvista", true).comparable()).isTrue();
        assertThat(verdict("MathVista_MINI", "mathvista", true).why()).contains("VLMEvalKit e8e78f05", "MathVista extraction prompt", "scripted");
        assertThat(verdict("MathVista_MINI", "mathvista", false).comparable()).isFalse();
        assertThat(PaperGrading.openRuleFor(CATALOGUE.find("MathVision_MINI"))).isEqualTo("mathvision");
        assertThat(verdict("MathVision", "mathvision", false).why()).contains("no judge was configured");
    }

    @Test void benchmarksWhoseHarnessGradingGamDoesNotRunAreNeverComparable() {
        assertThat(verdict("M3MAD_MME", "matcher", true)).satisfies(v -> {
            assertThat(v.comparable()).isFalse();
            assertThat(v.why()).contains("publishes no evaluation code");
        });
        assertThat(verdict("PathVQA_VAL", "matcher", true).comparable()).isFalse();
        assertThat(verdict("MME-Reasoning", "matcher", true).why()).contains("judge model and prompts gam does not run");
        assertThat(PaperGrading.openRuleFor(CATALOGUE.find("PathVQA_VAL"))).isNull();
        assertThat(PaperGrading.of(null, Config.defaults(), null, List.of()).comparable()).isFalse();
    }

    @Test void vlmEvalKitsRuleBasedGradingsAreComparableUnlessAnotherGradingModeReadsTheReplies() {
        assertThat(verdict("MMStar", "matcher", false).comparable()).isTrue();
        assertThat(verdict("MME", "yes-no", false).comparable()).isTrue();
        Config extended = Config.defaults().with(GradingMode.CONFIG_KEY, "extended");
        assertThat(PaperGrading.of(CATALOGUE.find("MMStar"), extended, null, List.of()).comparable()).isFalse();
    }
}
