package dev.gamagent.cli;

import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.testing.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code gam data list}: every benchmark gam knows by name with its grading; {@code --all} adds VLMEvalKit's others with what they need. */
class DataListCatalogueTest {
    @TempDir Path dir;

    private static final Set<String> GRADINGS = Set.of("multiple-choice", "yes-no", "mathvista", "open", "m3mad", "mvbench", "vqa-score",
            "vqa-match", "anls", "relaxed", "exact", "exact-max", "contains", "mtvqa", "ocrbench", "tallyqa", "zerobench", "exact-text", "spatial-mcq",
            "boxed-option", "medqbench-option");

    @Test void listNamesAtLeast150BenchmarksEachWithItsGrading() {
        CommandRun list = CommandRun.main("data", "list", "--data-dir", dir.toString());
        assertThat(list.code()).as(list.err()).isZero();
        List<String> rows = Arrays.stream(list.out().split("\n")).skip(2).filter(l -> !l.isBlank() && !l.contains("benchmarks by name")).toList();
        List<String> names = rows.stream().map(l -> l.split(" +")[0]).toList();
        assertThat(names).hasSizeGreaterThanOrEqualTo(150).doesNotHaveDuplicates()
                .contains("TextVQA_VAL", "DocVQA_VAL", "ChartQA_TEST", "OCRBench", "AI2D_TEST", "MMBench_DEV_EN_V11", "M3MAD_MME", "MVBench_8frame");
        for (String row : rows) {
            String[] cols = row.split(" +");
            // name, here ("no" / "no (build)" / "no (snapshot)"), grading
            String grading = cols[1].equals("no") && cols.length > 2 && cols[2].startsWith("(") ? cols[3] : cols[2];
            assertThat(GRADINGS).as(row).contains(grading);
        }
        assertThat(list.out()).containsPattern("TextVQA_VAL +no +vqa-score").containsPattern("DocVQA_VAL +no +anls")
                .contains(DatasetCatalogue.builtIn().entries().size() + " benchmarks by name", "gam data list --all");
    }

    @Test void listAllNamesWhatEachUnsupportedDatasetNeeds() {
        CommandRun list = CommandRun.main("data", "list", "--all", "--data-dir", dir.toString());
        assertThat(list.code()).as(list.err()).isZero();
        String out = list.out();
        String tail = out.substring(out.indexOf("not supported"));
        Set<String> listed = Arrays.stream(tail.split("\n")).skip(1).map(l -> l.split(" +")[0]).collect(Collectors.toSet());
        assertThat(listed).containsAll(DatasetCatalogue.builtIn().unsupported().stream().map(DatasetCatalogue.Unsupported::name).toList());
        assertThat(tail).containsPattern("MMVet +a judge model").containsPattern("Video-MME\\S* +video")
                .containsPattern("MMBench_dev_en +its name differs from MMBench_DEV_EN only in case");
    }
}
