package dev.gamagent.eval.load;

import dev.gamagent.eval.format.PythonList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.Color;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** MathVista_MINI's TSV keeps a multiple-choice question's options as a Python list in 'choices' and its answer as the option's text. */
class MathVistaTsvTest {
    @TempDir Path dir;

    private static String row(String... cells) { return String.join("\t", cells) + "\n"; }

    @Test void choicesBecomeOptionsAndTheAnswerTextItsLetterWhileFreeFormRowsStayOpen() throws Exception {
        String img = TestImages.base64(20, 20, Color.RED);
        String tsv = row("index", "image", "question", "answer", "question_type", "answer_type", "choices", "task")
                + row("1", img, "What fraction of the shape is blue?", "8/11", "multi_choice", "text", "['3/11', '8/11', '6/11', '3/5']", "fqa")
                + row("2", img, "How many bars?", "14", "free_form", "integer", "", "fqa")
                + row("3", img, "Which word?", "Tom's", "multi_choice", "text", "[\"Tom's\", 'Ann']", "fqa");
        Dataset d = BenchmarkLoader.load(Files.writeString(dir.resolve("MathVista_MINI.tsv"), tsv));
        assertThat(d.skipped()).isEmpty();
        var mc = d.questions().get(0).shell();
        assertThat(mc.options()).containsExactly(Map.entry("A", "3/11"), Map.entry("B", "8/11"), Map.entry("C", "6/11"), Map.entry("D", "3/5"));
        assertThat(mc.groundTruth()).isEqualTo("B");
        var free = d.questions().get(1).shell();
        assertThat(free.isMultipleChoice()).isFalse();
        assertThat(free.groundTruth()).isEqualTo("14");
        assertThat(d.questions().get(2).shell().groundTruth()).isEqualTo("A");
    }

    @Test void pythonListsAreReadWithBothQuotesAndAnythingElseIsNoList() {
        assertThat(PythonList.strings("['a', \"b's\", 'c\\'d']")).isEqualTo(List.of("a", "b's", "c'd"));
        assertThat(PythonList.strings("[]")).isEmpty();
        assertThat(PythonList.strings("None")).isEmpty();
        assertThat(PythonList.strings("[1, 2]")).isEmpty();
        assertThat(PythonList.strings("['unclosed]")).isEmpty();
    }
}
