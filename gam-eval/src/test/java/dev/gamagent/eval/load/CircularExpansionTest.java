package dev.gamagent.eval.load;

import dev.gamagent.api.Question;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CircularExpansionTest {
    private static EvalQuestion q(String id, String gt) {
        return new EvalQuestion(new KeyedQuestion(new Question(id, List.of(), "q", null, Map.of("A", "x", "B", "y")), gt, "c", null), id, 0, null);
    }

    @Test void aFileOfOriginalsIsRotated() {
        List<EvalQuestion> out = CircularExpansion.expand(List.of(q("5", "A")));
        assertThat(out).hasSize(2);
        assertThat(out.get(1).group()).isEqualTo("5");
        assertThat(out.get(1).rotation()).isEqualTo(1);
        assertThat(out.get(1).shell().groundTruth()).isEqualTo("B");
    }

    /** VLMEvalKit's MMBench TSVs hold the rotations themselves (index + k·10⁶): grouped, never rotated again. */
    @Test void aVlmEvalKitFileWithItsRotationsIsGroupedByIndexModuloAMillion() {
        List<EvalQuestion> out = CircularExpansion.expand(List.of(q("5", "A"), q("1000005", "B"), q("7", "A"), q("1000007", "B")));
        assertThat(out).hasSize(4);
        assertThat(out.stream().map(EvalQuestion::group).toList()).containsExactly("5", "5", "7", "7");
        assertThat(out.stream().map(EvalQuestion::rotation).toList()).containsExactly(0, 1, 0, 1);
        assertThat(out.stream().map(EvalQuestion::id).toList()).containsExactly("5", "1000005", "7", "1000007");
        assertThat(CircularExpansion.defaultFor("CCBench_samples.tsv")).isTrue();
        assertThat(CircularExpansion.defaultFor("mmbench_dev_en.tsv")).isTrue();
        assertThat(CircularExpansion.defaultFor("ScienceQA_TEST.tsv")).isFalse();
        // VLMEvalKit e8e78f05 also evaluates MMCR and the *_circular sets circularly (BLINK_circular is in the catalogue)
        assertThat(CircularExpansion.defaultFor("BLINK_circular.tsv")).isTrue();
        assertThat(CircularExpansion.defaultFor("MMCR.tsv")).isTrue();
        assertThat(CircularExpansion.defaultFor("BLINK.tsv")).isFalse();
    }
}
