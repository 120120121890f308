package dev.gamagent.eval.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.Color;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchmarkLoaderTest {
    @TempDir Path dir;

    private static String row(String... cells) { return String.join("\t", cells) + "\n"; }

    private Map<String, SkippedRow> skippedByIndex(Dataset d) {
        return d.skipped().stream().collect(java.util.stream.Collectors.toMap(SkippedRow::index, s -> s));
    }

    @Test void aVlmEvalKitTsvLoadsGoodRowsAndReportsEveryBadRowByIndex() throws Exception {
        String img = TestImages.base64(40, 30, Color.RED);
        // VLMEvalKit writes multi-image cells as Python list reprs
        String multi = "['" + TestImages.base64(8, 8, Color.BLUE) + "', '" + TestImages.base64(9, 9, Color.GREEN) + "']";
        TestImages.write(dir.resolve("imgs/p.png"), 20, 10, Color.GRAY);
        TestImages.write(dir.resolve("video/f002.png"), 5, 5, Color.BLACK);
        TestImages.write(dir.resolve("video/f001.png"), 6, 6, Color.WHITE);
        String tsv = row("index", "image", "image_path", "question", "hint", "A", "B", "C", "answer", "category", "l2-category", "split")
                + row("1", img, "", "What color is the square?", "nan", "red", "blue", "", "A", "color", "attribute", "dev")
                + row("2", "1", "", "Is it red?", "", "yes", "no", "", "a", "color", "attribute", "dev")          // reuses row 1's image; lower-case letter
                + row("3", "%%%not-base64%%%" + "x".repeat(80), "", "q?", "", "x", "y", "", "A", "c", "l", "dev")     // bad base64
                + row("4", img, "", "", "", "x", "y", "", "A", "c", "l", "dev")                                      // empty question
                + row("5", "", "imgs/p.png", "How many bars?", "", "", "", "", "3", "chart", "chart", "dev")           // open question from a file
                + row("6", "", "imgs/missing.png", "q?", "", "x", "y", "", "A", "c", "l", "dev")                      // missing file
                + row("7", multi, "", "Which is bigger?", "", "first", "second", "", "B", "multi", "l", "dev")       // multi-image
                + row("8", "", "video", "What happens?", "", "falls", "rises", "", "A", "video", "l", "dev")          // frames
                + row("9", "", "", "q?", "", "x", "y", "", "A", "c", "l", "dev")                                      // no image at all
                + row("10", "42", "", "q?", "", "x", "y", "", "A", "c", "l", "dev")                                   // reference to no row
                + row("11", img, "", "q?", "", "x", "y", "", "C", "c", "l", "dev")                                    // answer not an option
                + "12\t" + img + "\tonly three fields\n"                                                             // wrong field count
                + row("13", Base64Junk.NOT_AN_IMAGE, "", "q?", "", "x", "y", "", "A", "c", "l", "dev")              // base64 of text
                + row("1", img, "", "Again?", "", "x", "y", "", "A", "c", "l", "dev");                              // duplicate index
        Path f = Files.writeString(dir.resolve("bench.tsv"), tsv);

        Dataset d = BenchmarkLoader.load(f);

        assertThat(d.questions()).extracting(EvalQuestion::id).containsExactly("1", "2", "5", "7", "8");
        // pixels are decoded only when a question is run, never held for the whole benchmark
        assertThat(d.questions()).allSatisfy(q -> assertThat(q.shell().images()).isEmpty());
        assertThat(d.questions().get(0).question().images().get(0)).isNotSameAs(d.questions().get(0).question().images().get(0));
        var q1 = d.questions().get(0).question();
        assertThat(q1.hint()).isNull();
        assertThat(q1.options()).containsExactly(Map.entry("A", "red"), Map.entry("B", "blue"));
        assertThat(q1.groundTruth()).isEqualTo("A");
        assertThat(q1.category()).isEqualTo("color");
        assertThat(q1.l2Category()).isEqualTo("attribute");
        assertThat(d.questions().get(0).split()).isEqualTo("dev");
        assertThat(q1.images().get(0).width()).isEqualTo(40);
        var q2 = d.questions().get(1).question();
        assertThat(q2.images().get(0).width()).isEqualTo(40);
        assertThat(q2.groundTruth()).isEqualTo("A");
        var q5 = d.questions().get(2).question();
        assertThat(q5.isMultipleChoice()).isFalse();
        assertThat(q5.groundTruth()).isEqualTo("3");
        assertThat(q5.images().get(0).width()).isEqualTo(20);
        assertThat(d.questions().get(3).question().images()).extracting(p -> p.width()).containsExactly(8, 9);
        assertThat(d.questions().get(4).question().images()).extracting(p -> p.width()).containsExactly(6, 5); // f001 then f002

        Map<String, SkippedRow> s = skippedByIndex(d);
        assertThat(s.keySet()).containsExactlyInAnyOrder("3", "4", "6", "9", "10", "11", "12", "13", "1");
        assertThat(s.get("1").reason()).contains("duplicate index");
        assertThat(s.get("3").reason()).contains("base64");
        assertThat(s.get("4").reason()).contains("question");
        assertThat(s.get("6").reason()).contains("missing.png").contains("does not exist");
        assertThat(s.get("9").reason()).contains("no image");
        assertThat(s.get("10").reason()).contains("'42'");
        assertThat(s.get("11").reason()).contains("'C'");
        assertThat(s.get("12").reason()).contains("3 fields");
        assertThat(s.get("13").reason()).contains("not an image");
    }

    /** Base64 of plain text: valid base64, but not an image. */
    private static final class Base64Junk {
        static final String NOT_AN_IMAGE = java.util.Base64.getEncoder().encodeToString(
                "this is not an image, just some text that is long enough to not be a reference".getBytes());
    }

    @Test void aHeaderWithoutAQuestionColumnRefusesTheFileInOneLine() throws Exception {
        Path f = Files.writeString(dir.resolve("noq.tsv"), row("index", "image", "answer") + row("1", TestImages.base64(4, 4, Color.RED), "A"));
        assertThatThrownBy(() -> BenchmarkLoader.load(f)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(f + ": not a VLMEvalKit TSV").hasMessageContaining("no 'question' column")
                .hasMessageContaining("index | image | answer").hasMessageNotContaining("\n");
    }

    @Test void quotedFieldsMayHoldTabsNewlinesAndQuotes() throws Exception {
        String img = TestImages.base64(4, 4, Color.RED);
        Path f = Files.writeString(dir.resolve("q.tsv"), row("index", "image", "question", "A", "B", "answer")
                + "1\t" + img + "\t\"Line one\n\"\"quoted\"\"\tand tab\"\tx\ty\tB\n");
        var q = BenchmarkLoader.load(f).questions().get(0).question();
        assertThat(q.text()).isEqualTo("Line one\n\"quoted\"\tand tab");
        assertThat(q.groundTruth()).isEqualTo("B");
    }

    @Test void theFilterKeepsACategoryAndALimitBeforeDecodingImages() throws Exception {
        String img = TestImages.base64(4, 4, Color.RED);
        StringBuilder sb = new StringBuilder(row("index", "image", "question", "A", "B", "answer", "category"));
        for (int i = 0; i < 6; i++) sb.append(row(Integer.toString(i), i == 5 ? "broken" + "x".repeat(70) : img, "q" + i, "x", "y", "A", i % 2 == 0 ? "even" : "odd"));
        Path f = Files.writeString(dir.resolve("f.tsv"), sb.toString());
        Dataset d = BenchmarkLoader.load(f, new RowFilter(2, "odd"));
        assertThat(d.questions()).extracting(EvalQuestion::id).containsExactly("1", "3");
        assertThat(d.skipped()).isEmpty(); // row 5 was never decoded
    }

    @Test void m3madJsonParsesOptionsOutOfTheQueryAndMapsTextAnswersToLetters() throws Exception {
        TestImages.write(dir.resolve("m/a.png"), 10, 10, Color.RED);
        String json = """
                [
                 {"image_path": "m/a.png", "query": "What color is it?\\nA. red\\nB. blue", "gt": "A", "tag": "color", "source": "synth"},
                 {"image_path": "m/a.png", "query": "Which shape?\\n(A) circle\\n(B) square", "gt": "square", "tag": "shape", "source": "synth"},
                 {"image_path": "m/a.png", "query": "How many?", "gt": "2", "tag": "count", "source": "synth"},
                 {"image_path": "m/a.png", "gt": "A", "tag": "x"},
                 {"image_path": "m/none.png", "query": "Q?\\nA. a\\nB. b", "gt": "A", "tag": "x"}
                ]""";
        Dataset d = BenchmarkLoader.load(Files.writeString(dir.resolve("m3mad.json"), json));
        assertThat(d.questions()).hasSize(3);
        var q0 = d.questions().get(0).question();
        assertThat(q0.text()).isEqualTo("What color is it?");
        assertThat(q0.options()).containsExactly(Map.entry("A", "red"), Map.entry("B", "blue"));
        assertThat(q0.category()).isEqualTo("color");
        assertThat(q0.l2Category()).isEqualTo("synth");
        assertThat(d.questions().get(1).question().groundTruth()).isEqualTo("B");
        assertThat(d.questions().get(2).question().isMultipleChoice()).isFalse();
        assertThat(d.skipped()).extracting(SkippedRow::index).containsExactly("3", "4");
        assertThat(d.skipped().get(0).reason()).contains("query");
        assertThat(d.skipped().get(1).reason()).contains("none.png");
    }

    @Test void jsonlUsesTsvFieldNamesAndSkipsBrokenLines() throws Exception {
        String img = TestImages.base64(4, 4, Color.RED);
        String jsonl = "{\"index\": 7, \"image\": \"" + img + "\", \"question\": \"Q?\", \"A\": \"x\", \"B\": \"y\", \"answer\": \"B\"}\n"
                + "{not json\n"
                + "{\"index\": 8, \"image\": \"" + img + "\", \"question\": \"Q?\"}\n";
        Dataset d = BenchmarkLoader.load(Files.writeString(dir.resolve("b.jsonl"), jsonl));
        assertThat(d.questions()).extracting(EvalQuestion::id).containsExactly("7");
        assertThat(d.skipped()).extracting(SkippedRow::index).containsExactly("line 2", "8");
        assertThat(d.skipped().get(1).reason()).contains("answer");
    }

    @Test void aMissingFileOrUnknownFormatNamesTheFile() throws Exception {
        assertThatThrownBy(() -> BenchmarkLoader.load(dir.resolve("nope.tsv"))).hasMessageContaining("nope.tsv");
        Path csv = Files.writeString(dir.resolve("x.csv"), "a,b\n");
        assertThatThrownBy(() -> BenchmarkLoader.load(csv)).hasMessageContaining("x.csv").hasMessageContaining(".tsv");
    }

    @Test void circularEvaluationRotatesOptionsAndMovesTheGroundTruth() {
        var opts = new java.util.LinkedHashMap<String, String>();
        opts.put("A", "red");
        opts.put("B", "blue");
        opts.put("C", "green");
        var q = KeyedQuestion.unkeyed(dev.gamagent.api.Question.of("9", List.of(), "Q?", Map.of())).withOptions(opts, "B");
        List<EvalQuestion> all = CircularExpansion.expand(List.of(new EvalQuestion(q, "9", 0, null)));
        assertThat(all).extracting(EvalQuestion::id).containsExactly("9", "9#r1", "9#r2");
        assertThat(all).extracting(EvalQuestion::group).containsOnly("9");
        assertThat(all.get(1).question().options().values()).containsExactly("blue", "green", "red");
        assertThat(all.get(1).question().groundTruth()).isEqualTo("A");
        assertThat(all.get(2).question().options().values()).containsExactly("green", "red", "blue");
        assertThat(all.get(2).question().groundTruth()).isEqualTo("C");
        assertThat(CircularExpansion.defaultFor("MMBench_DEV_EN.tsv")).isTrue();
        assertThat(CircularExpansion.defaultFor("demo.tsv")).isFalse();
    }
}
