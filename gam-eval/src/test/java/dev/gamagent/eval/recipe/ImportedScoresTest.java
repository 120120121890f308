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

    // ---- issue 41 item 4: each kind of wrong file is named in one line ------------------------------------------------

    private Path real(String name) throws Exception { return Path.of(getClass().getResource("/realdata/vlmevalkit-vila1.5/" + name).toURI()); }

    @Test void aSplitOtherThanTestIsKeptAsWhatItIs() throws Exception {
        // VLMEvalKit writes "none" when its data had no split column (MMStar's real file): not the test split, and said so
        ImportedScores none = ImportedScores.read(real("vila_13b_MMStar_acc.csv"));
        assertThat(none.isTest()).isFalse();
        assertThat(none.split()).isEqualTo("none");
        assertThat(ImportedScores.read(real("vila_13b_ScienceQA_TEST_acc.csv")).isTest()).isTrue();
    }

    @Test void duplicateRowsAreAnError() throws Exception {
        Path twice = Files.writeString(dir.resolve("twice.csv"), "split,Overall\ntest,0.8\ndev,0.7\ntest,0.9\n");
        assertThatThrownBy(() -> ImportedScores.read(twice)).hasMessage("--import-scores " + twice
                + ": split 'test' is on two rows (lines 2 and 4): duplicate rows; keep the one the evaluation server gave");
        Path column = Files.writeString(dir.resolve("column.csv"), "split,Overall,AR,AR\ntest,0.8,0.7,0.6\n");
        assertThatThrownBy(() -> ImportedScores.read(column)).hasMessageContaining("its header names 'AR' twice (columns 3 and 4)");
    }

    @Test void aFolderAFifoAWorkbookAndBytesThatAreNotUtf8AreNamedAsSuch() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("scores"));
        assertThatThrownBy(() -> ImportedScores.read(folder)).hasMessage("--import-scores " + folder + ": is a folder, not a file; give the _acc.csv inside it");
        Path fifo = dir.resolve("pipe_acc.csv");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mk.waitFor()).as("mkfifo").isZero();
        assertThatThrownBy(() -> ImportedScores.read(fifo)).hasMessageContaining(fifo + ": is a FIFO (named pipe), not a file");
        // VLMEvalKit's own xlsx prediction file (a zip), under its own name and under a csv name
        Path xlsx = real("vila_13b_MMStar.xlsx");
        assertThatThrownBy(() -> ImportedScores.read(xlsx)).hasMessageContaining("is an Excel workbook, not CSV; open it and save it as CSV UTF-8");
        Path renamed = Files.write(dir.resolve("vila_MMStar_acc.csv"), Files.readAllBytes(xlsx));
        assertThatThrownBy(() -> ImportedScores.read(renamed)).hasMessageContaining("is an Excel workbook");
        // latin-1: "Catégorie" with 0xE9
        byte[] latin1 = "split,Overall,Cat\u00e9gorie\ntest,0.8,0.7\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        Path notUtf8 = Files.write(dir.resolve("latin1_acc.csv"), latin1);
        assertThatThrownBy(() -> ImportedScores.read(notUtf8)).hasMessage("--import-scores " + notUtf8
                + ": is not UTF-8 text: byte 0xE9 at offset 17 (line 1) is not valid UTF-8; " + dev.gamagent.eval.format.Utf8Scan.FIX);
    }

    @Test void categoriesOfAnotherBenchmarkAreRefusedNamingThem() throws Exception {
        // MMStar's real accuracy file against ScienceQA's categories: none of its six is one of them
        ImportedScores mmstar = ImportedScores.read(real("vila_13b_MMStar_acc.csv"));
        java.util.Set<String> sqa = ImportedScores.read(real("vila_13b_ScienceQA_TEST_acc.csv")).categories().keySet();
        assertThatThrownBy(() -> mmstar.checkCategories("ScienceQA_TEST", sqa, "ScienceQA_TEST.tsv"))
                .hasMessageStartingWith("--import-scores " + real("vila_13b_MMStar_acc.csv") + ": 6 of its 6 categories are not ScienceQA_TEST's: "
                        + "'coarse perception', 'fine-grained perception'")
                .hasMessageContaining("ScienceQA_TEST's (from ScienceQA_TEST.tsv) are 'Adaptations'")
                .hasMessageContaining("is it another benchmark's accuracy file?");
        // its own categories pass, whatever the case and spacing
        mmstar.checkCategories("MMStar", List.of("Coarse Perception", "fine-grained  perception", "instance reasoning", "logical reasoning",
                "math", "science & technology"), "MMStar.tsv");
    }
}
