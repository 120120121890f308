package dev.gamagent.eval;

import dev.gamagent.api.Question;
import dev.gamagent.config.Config;
import dev.gamagent.eval.grade.Grader;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.eval.load.RowImages;
import dev.gamagent.eval.load.SkippedRow;
import dev.gamagent.eval.load.TestImages;
import dev.gamagent.eval.report.HtmlReport;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.Color;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Orchestration with a scripted backend (a test tool): storage, resume, errors, summary and report files. */
class EvalRunnerTest {
    @TempDir Path dir;

    static List<EvalQuestion> questions(int n) {
        var pic = RowImages.decode(TestImages.base64(8, 8, Color.RED), "t");
        List<EvalQuestion> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, String> o = new LinkedHashMap<>();
            o.put("A", "red");
            o.put("B", "blue");
            out.add(new EvalQuestion(new KeyedQuestion(new Question("q" + i, List.of(pic), "Question " + i + "?", null, o), i % 2 == 0 ? "A" : "B",
                    i < 2 ? "first" : "second", "l2"), "q" + i, 0, null));
        }
        return out;
    }

    @Test void eachPairIsStoredOnceAndARerunRedoesNothing() {
        AtomicInteger calls = new AtomicInteger();
        ScriptedBackend b = ScriptedBackend.text(r -> { calls.incrementAndGet(); return "ANSWER: A"; });
        Config c = Config.defaults();
        try (ResultStore s = new ResultStore(dir)) {
            EvalRunner.Stats st = new EvalRunner(b, c, new Grader(c, null), s, 3).run(questions(5), List.of("single"), n -> { }, r -> { });
            assertThat(st.ran()).isEqualTo(5);
            assertThat(s.all()).extracting(r -> r.grade().outcome()).containsExactlyInAnyOrder("correct", "wrong", "correct", "wrong", "correct");
        }
        try (ResultStore s = new ResultStore(dir)) {
            EvalRunner.Stats st = new EvalRunner(b, c, new Grader(c, null), s, 3).run(questions(5), List.of("single"), n -> { }, r -> { });
            assertThat(st.alreadyDone()).isEqualTo(5);
            assertThat(st.ran()).isZero();
        }
        assertThat(calls.get()).isEqualTo(5);
    }

    @Test void aBackendFailureIsRecordedAsErrorAndRetriedOnResume() throws Exception {
        AtomicBoolean down = new AtomicBoolean(true);
        ScriptedBackend b = ScriptedBackend.text(r -> {
            if (down.get() && r.messages().toString().contains("Question 1?")) throw new IllegalStateException("server down");
            return "ANSWER: B";
        });
        Config c = Config.defaults();
        var plan = new Evaluation.Plan(new Dataset("t.tsv", questions(3), List.of(new SkippedRow("9", "bad base64"))), false,
                List.of("single"), dir, 2, "gam eval test");
        RunSummary first = Evaluation.run(plan, b, null, c, System.err, n -> r -> { });
        assertThat(first.metrics().get("single").errors()).isEqualTo(1);
        assertThat(first.metrics().get("single").groups()).isEqualTo(2);
        assertThat(ResultStore.read(dir)).filteredOn(ResultRecord::isError).singleElement()
                .satisfies(r -> assertThat(r.grade().error()).contains("server down"));

        down.set(false);
        RunSummary second = Evaluation.run(plan, b, null, c, System.err, n -> r -> { });
        assertThat(second.metrics().get("single").errors()).isZero();
        assertThat(second.metrics().get("single").accuracy()).isCloseTo(1.0 / 3, org.assertj.core.api.Assertions.within(1e-12));
        List<String> lines = Files.readAllLines(dir.resolve("results.jsonl"));
        assertThat(lines).hasSize(3); // the superseded error line was rebuilt away
        assertThat(lines).noneMatch(l -> l.contains("\"error\""));
        var summary = Json.MAPPER.readTree(dir.resolve("summary.json").toFile());
        assertThat(summary.path("skipped").get(0).path("index").asText()).isEqualTo("9");
        assertThat(summary.path("byCategory").path("single").path("first").path("n").asInt()).isEqualTo(2);
        assertThat(Files.readString(dir.resolve("report.html"))).contains("<table id=metrics>").contains("gam eval test").contains("id=chart-cost");
    }

    @Test void reportThumbnailsAreMadeDuringTheRunFromCopiesAndKeptForTheNextRun() throws Exception {
        // issue 25: every question's image was decoded again at the end to draw the report's thumbnails
        ScriptedBackend b = ScriptedBackend.text(r -> "ANSWER: A");
        Config c = Config.defaults();
        List<EvalQuestion> qs = questions(3);
        var plan = new Evaluation.Plan(new Dataset("t.tsv", qs, List.of()), false, List.of("single"), dir, 2, "gam eval test");
        Evaluation.run(plan, b, null, c, System.err, n -> r -> { });
        // these 8×8 PNGs are small: the report shows them as they are, not decoded and encoded again as JPEG
        try (ResultStore s = new ResultStore(dir)) {
            assertThat(s.thumbnails(java.util.Set.of("q0", "q1", "q2"))).containsOnlyKeys("q0", "q1", "q2")
                    .allSatisfy((id, url) -> assertThat(url).startsWith("data:image/png;base64,"));
        }
        assertThat(qs.get(0).question().images().get(0).isDecoded()).as("the picture sent to the model is never decoded for it").isFalse();
        // the report shows them from its sidecar parts (issue 27), not inlined in the page
        try (var parts = Files.list(HtmlReport.sidecar(dir.resolve("report.html")))) {
            assertThat(parts.map(p -> {
                try {
                    return Files.readString(p);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            })).anySatisfy(part -> assertThat(part).contains("data:image/png;base64,"));
        }
    }

    @Test void aThumbnailIsMadeFromASubsampledReadOfALargeImageAndASmallOneStaysItsBytes() {
        // a 1-MP photo was decoded whole (every pixel) on the thumbnail threads, competing with the run for the CPU
        var big = dev.gamagent.image.ImageLoader.fromEncoded("big.png", TestImages.png(1200, 900, Color.BLUE));
        var copy = Evaluation.thumbnailSource(big);
        assertThat(copy.width()).isEqualTo(Evaluation.THUMBNAIL_WIDTH);
        assertThat(copy.height()).isEqualTo(315);
        assertThat(big.isDecoded()).as("the picture the question sends is left as it is").isFalse();
        var small = dev.gamagent.image.ImageLoader.fromEncoded("small.png", TestImages.png(300, 200, Color.BLUE));
        assertThat(Evaluation.thumbnailSource(small).isDecoded()).isFalse();
        // wider than the thumbnail but shown as its own bytes by the report (the generator's 512-px items): not decoded either
        var shown = dev.gamagent.image.ImageLoader.fromEncoded("shown.png", TestImages.png(512, 384, Color.BLUE));
        assertThat(Evaluation.thumbnailSource(shown)).isSameAs(shown);
        assertThat(shown.isDecoded()).isFalse();
        assertThat(HtmlReport.thumbnail(new EvalQuestion(KeyedQuestion.unkeyed(new dev.gamagent.api.Question("q", List.of(Evaluation.thumbnailSource(shown)), "",
                null, java.util.Map.of())), "q", 0, null))).isEqualTo(shown.dataUrl());
    }

    @Test void questionsShowingTheSameImageShareOneThumbnail() {
        // the perf suite's photos (24 images over thousands of rows), MME's two questions a picture: each was decoded again
        byte[] png = TestImages.png(1200, 900, Color.BLUE);
        var one = dev.gamagent.image.ImageLoader.fromEncoded("row 1", png);
        var again = dev.gamagent.image.ImageLoader.fromEncoded("row 7", png.clone());
        var other = dev.gamagent.image.ImageLoader.fromEncoded("row 2", TestImages.png(1200, 900, Color.RED));
        String key = Evaluation.ThumbnailCache.keyOf(List.of(one));
        assertThat(key).isNotNull().isEqualTo(Evaluation.ThumbnailCache.keyOf(List.of(again)));
        assertThat(Evaluation.ThumbnailCache.keyOf(List.of(other))).isNotEqualTo(key);
        assertThat(Evaluation.ThumbnailCache.keyOf(List.of(one, other))).as("a video's frames in order")
                .isNotEqualTo(Evaluation.ThumbnailCache.keyOf(List.of(other, one)));
        assertThat(Evaluation.ThumbnailCache.keyOf(List.of(new dev.gamagent.image.Picture("drawn", new java.awt.image.BufferedImage(4, 4,
                java.awt.image.BufferedImage.TYPE_INT_RGB))))).as("a picture with no bytes of its own is not kept").isNull();
        assertThat(one.isDecoded()).as("keying reads the bytes, not the pixels").isFalse();
    }

    @Test void aLaggingJsonlIsRebuiltFromTheDatabase() throws Exception {
        ScriptedBackend b = ScriptedBackend.text(r -> "ANSWER: A");
        Config c = Config.defaults();
        try (ResultStore s = new ResultStore(dir)) {
            new EvalRunner(b, c, new Grader(c, null), s, 1).run(questions(4), List.of("single"), n -> { }, r -> { });
        }
        Files.writeString(dir.resolve("results.jsonl"), Files.readAllLines(dir.resolve("results.jsonl")).get(0) + "\n");
        try (ResultStore s = new ResultStore(dir)) {
            assertThat(Files.readAllLines(dir.resolve("results.jsonl"))).hasSize(4);
        }
        // a kill in the middle of a write leaves a torn last line: the line count matches, the content does not
        List<String> lines = Files.readAllLines(dir.resolve("results.jsonl"));
        lines.set(3, lines.get(3).substring(0, 20));
        Files.write(dir.resolve("results.jsonl"), lines);
        try (ResultStore s = new ResultStore(dir)) {
            assertThat(Files.readAllLines(dir.resolve("results.jsonl"))).hasSize(4).allSatisfy(l -> assertThat(l).endsWith("}"));
        }
    }

    @Test void nonFiniteNumbersInATraceAreStoredAsNullSoTheLineParsesAgain() throws Exception {
        var node = Json.MAPPER.createObjectNode();
        node.put("U_sys", Double.NaN);
        node.putArray("w").add(0.5).add(Double.POSITIVE_INFINITY);
        node.putObject("inner").put("x", Double.NEGATIVE_INFINITY).put("y", 1);
        String json = Json.write(EvalRunner.finiteOnly(node));
        assertThat(Json.MAPPER.readTree(json).toString()).isEqualTo("{\"U_sys\":null,\"w\":[0.5,null],\"inner\":{\"x\":null,\"y\":1}}");
    }
}
