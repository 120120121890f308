package dev.gamagent.eval.recipe;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** {@code --import-scores}: VLMEvalKit's {@code *_acc.csv} read back as the official scores of a test split. */
class ImportedScoresTest {
    @TempDir Path dir;

    @Test void aRealVlmEvalKitAccuracyFileIsReadAsPercentages() throws Exception {
        // VLMEvalKit's own report_acc output for VILA-1.5 13B on MMStar (realdata/vlmevalkit-vila1.5): fractions, one row, split "none"
        Path real = Path.of(getClass().getResource("/realdata/vlmevalkit-vila1.5/vila_13b_MMStar_acc.csv").toURI());
        ImportedScores s = ImportedScores.read(real);
        assertThat(s.split()).isEqualTo("none");
        assertThat(s.fractions()).isTrue();
        assertThat(s.overall()).isCloseTo(44.266666666666665, within(1e-9));
        assertThat(s.categories()).containsKeys("coarse perception", "science & technology").hasSize(6);
        assertThat(s.categories().get("math")).isCloseTo(42.8, within(1e-9));
        // a category name with a tab inside its quotes (ScienceQA_TEST's) is one field
        ImportedScores sqa = ImportedScores.read(Path.of(getClass().getResource("/realdata/vlmevalkit-vila1.5/vila_13b_ScienceQA_TEST_acc.csv").toURI()));
        assertThat(sqa.split()).isEqualTo("test");
        assertThat(sqa.overall()).isCloseTo(79.07783837382251, within(1e-9));
    }

    @Test void theTestSplitsRowIsTakenAndPercentagesStayPercentages() throws Exception {
        Path f = Files.writeString(dir.resolve("gam_MMBench_TEST_EN_V11_acc.csv"),
                "\"split\",\"Overall\",\"AR\",\"CP\",\"attribute_recognition\"\n\"dev\",\"81.0\",\"80.5\",\"82.0\",\"70.0\"\n"
                        + "\"test\",\"90.15\",\"91.2\",\"88.4\",\"75.25\"\n");
        ImportedScores s = ImportedScores.read(f);
        assertThat(s.split()).isEqualTo("test");
        assertThat(s.fractions()).isFalse();
        assertThat(s.overall()).isEqualTo(90.15);
        assertThat(s.categories()).containsEntry("attribute_recognition", 75.25);
        assertThat(ImportedScores.methodAndDataset(f, List.of("MMBench_TEST_EN_V11"))).containsExactly("gam", "MMBench_TEST_EN_V11");
        assertThat(ImportedScores.methodAndDataset(dir.resolve("scores.csv"), List.of("MMBench_TEST_EN_V11"))).isNull();
    }

    @Test void anythingElseIsRefusedNamingTheFileAndWhatItHolds() throws Exception {
        Path noOverall = Files.writeString(dir.resolve("a.csv"), "split,accuracy\ntest,0.9\n");
        assertThatThrownBy(() -> ImportedScores.read(noOverall)).hasMessageContaining("a.csv").hasMessageContaining("[split, accuracy]")
                .hasMessageContaining("VLMEvalKit's <model>_<dataset>_acc.csv");
        Path twoSplits = Files.writeString(dir.resolve("b.csv"), "split,Overall\ndev,0.8\nval,0.7\n");
        assertThatThrownBy(() -> ImportedScores.read(twoSplits)).hasMessageContaining("no row for split 'test' among [dev, val]");
        Path notANumber = Files.writeString(dir.resolve("c.csv"), "split,Overall\ntest,n/a\n");
        assertThatThrownBy(() -> ImportedScores.read(notANumber)).hasMessageContaining("'Overall' is 'n/a', not a number");
        Path ragged = Files.writeString(dir.resolve("d.csv"), "split,Overall,AR\ntest,0.8\n");
        assertThatThrownBy(() -> ImportedScores.read(ragged)).hasMessageContaining("line 2 has 2 fields, the header 3");
    }
}
