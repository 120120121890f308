package dev.gamagent.local;

import dev.gamagent.api.Question;
import dev.gamagent.config.Config;
import dev.gamagent.eval.EvalRunner;
import dev.gamagent.eval.grade.Grader;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.local.ocr.OcrEngine;
import dev.gamagent.local.ocr.TextLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 15 item 3: in one evaluation each method pays for its own perception, so its wall time is its own. */
class PerMethodPerceptionTest {
    @TempDir Path dir;

    @Test void eachMethodPerceivesTheImageItselfAndTheEnginesStayOpen() {
        AtomicInteger reads = new AtomicInteger(), secondReads = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        OcrEngine counting = counting(reads, closed), second = counting(secondReads, closed);
        LocalBackend backend = new LocalBackend(new LocalPerception(counting, () -> second, new BlobSceneAnalyzer(), new BlobSceneAnalyzer(), 16));
        Map<String, String> options = new LinkedHashMap<>();
        options.put("A", "sale");
        options.put("B", "sole");
        // A text question: the model reads text only for questions that depend on it.
        Question q = new Question("q1", List.of(LocalBackendTest.scene()), "What word is written on the sign?", null, options);
        Config c = Config.defaults();
        try (ResultStore store = new ResultStore(dir)) {
            new EvalRunner(backend, c, new Grader(c, null), store, 1)
                    .run(List.of(new EvalQuestion(new KeyedQuestion(q, "A", "text", null), "q1", 0, null)), List.of("single", "vote", "cot"), n -> { }, r -> { });
            assertThat(store.all()).hasSize(3).allSatisfy(r -> assertThat(r.isError()).as(r.grade().error()).isFalse());
        }
        // one image, three methods: perceived once per method and reader. A plain call answers with the model's
        // general reading, both networks pooled (issue 39), so single, cot and vote's sampled calls each read with
        // both; vote's three calls share vote's own cache, so each network reads the image once for each method.
        assertThat(reads.get()).as("first network: once each for single, cot and vote").isEqualTo(3);
        assertThat(secondReads.get()).as("second network: once each for single, cot and vote").isEqualTo(3);
        assertThat(closed.get()).as("the per-method views do not close the shared engines").isZero();
        backend.close();
        assertThat(closed.get()).as("both networks closed").isEqualTo(2);
    }

    static OcrEngine counting(AtomicInteger reads, AtomicInteger closed) {
        return new OcrEngine() {
            final LayoutOcr inner = new LayoutOcr();
            @Override public List<TextLine> read(BufferedImage image) { reads.incrementAndGet(); return inner.read(image); }
            @Override public TextLine readLine(BufferedImage lineImage) { return inner.readLine(lineImage); }
            @Override public void close() { closed.incrementAndGet(); }
        };
    }
}
