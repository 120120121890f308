package dev.gamagent.local;

import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.image.Picture;
import dev.gamagent.local.ocr.OcrEngine;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.ClassicalSceneAnalyzer;
import dev.gamagent.local.vision.Scene;
import dev.gamagent.local.vision.SceneAnalyzer;
import org.junit.jupiter.api.Test;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A look taken before a run ({@link LocalPerception#lookAt}) is shared by the perceptions made with
 * {@link LocalPerception#withOwnCache} (one per method in an evaluation): its default reading and scene are computed
 * once, they perceive exactly what they would have on their own, and nothing else is shared.
 */
class SharedLookTest {
    /** Reads one line per image and counts the reads. */
    private static final class CountingOcr implements OcrEngine {
        final AtomicInteger reads = new AtomicInteger();

        @Override public List<TextLine> read(BufferedImage image) {
            reads.incrementAndGet();
            return List.of(new TextLine(new Rectangle(1, 1, 10, 5), "w" + image.getWidth(), List.of(), 0.9));
        }

        @Override public TextLine readLine(BufferedImage lineImage) { throw new UnsupportedOperationException(); }
    }

    /** The real classical analyser, counting its runs. */
    private static final class CountingAnalyzer implements SceneAnalyzer {
        final AtomicInteger runs = new AtomicInteger();
        final ClassicalSceneAnalyzer real = new ClassicalSceneAnalyzer();

        @Override public Scene analyze(BufferedImage image) {
            runs.incrementAndGet();
            return real.analyze(image);
        }

        @Override public Scene analyze(BufferedImage image, int[] denoised) {
            runs.incrementAndGet();
            return real.analyze(image, denoised);
        }
    }

    private static Picture picture(int index) {
        return new Picture("q" + index, new BenchmarkGenerator(5).generate(index, Family.COUNT).image());
    }

    /** The same pixels in another image object (as a method's copy of a question's picture would be). */
    private static Picture copyOf(Picture p) {
        BufferedImage src = p.image(), out = new BufferedImage(src.getWidth(), src.getHeight(), BufferedImage.TYPE_INT_RGB);
        out.setRGB(0, 0, src.getWidth(), src.getHeight(), src.getRGB(0, 0, src.getWidth(), src.getHeight(), null, 0, src.getWidth()), 0,
                src.getWidth());
        return new Picture("copy", out);
    }

    @Test void methodsShareWhatWasLookedAtAndNothingElse() {
        CountingOcr ocr = new CountingOcr();
        CountingAnalyzer vision = new CountingAnalyzer();
        LocalPerception root = new LocalPerception(ocr, vision, 8);
        Picture looked = picture(1), unlooked = picture(2);
        root.lookAt(looked);
        // every instrument a plain call reads with: both readers (one engine stands for both here), both segmentations
        assertThat(ocr.reads.get()).isEqualTo(2);
        assertThat(vision.runs.get()).isEqualTo(1);
        assertThat(root.looked()).isEqualTo(1);

        LocalPerception single = root.withOwnCache(), gam = root.withOwnCache();
        Perception a = single.perceive(copyOf(looked)), b = gam.perceive(looked);
        assertThat(ocr.reads.get()).as("the default reading is the look's").isEqualTo(2);
        assertThat(vision.runs.get()).as("so is the classical scene").isEqualTo(1);
        assertThat(single.ocrPasses() + gam.ocrPasses()).isZero();

        // the same perception as a method that never saw the look
        LocalPerception alone = new LocalPerception(new CountingOcr(), new CountingAnalyzer(), 8);
        Perception own = alone.perceive(looked);
        for (Perception p : List.of(a, b)) {
            assertThat(p.lines()).isEqualTo(own.lines());
            assertThat(p.scene().objects()).isEqualTo(own.scene().objects());
        }

        // the second reader was looked at too; anything else stays each method's own: a picture not looked at
        single.sight(looked).lines(Sight.Reader.V3);
        gam.sight(looked).lines(Sight.Reader.V3);
        assertThat(ocr.reads.get()).isEqualTo(2);
        single.perceive(unlooked);
        gam.perceive(unlooked);
        assertThat(ocr.reads.get()).isEqualTo(4);
        assertThat(vision.runs.get()).isEqualTo(3);
    }

    @Test void withoutALookEveryMethodPerceivesOnItsOwn() {
        CountingOcr ocr = new CountingOcr();
        LocalPerception root = new LocalPerception(ocr, new CountingAnalyzer(), 8);
        Picture p = picture(3);
        root.withOwnCache().perceive(p);
        root.withOwnCache().perceive(p);
        assertThat(ocr.reads.get()).isEqualTo(2);
        assertThat(root.looked()).isZero();
    }

    @Test void agentsAskingAtOnceHashANewPictureOnce() throws Exception {
        // a debate's agents are sent a new picture (a DREAM probe's scaled copy) at the same moment
        LocalPerception root = new LocalPerception(new CountingOcr(), new CountingAnalyzer(), 8);
        int agents = 6;
        for (int round = 0; round < 5; round++) {
            Picture p = new Picture("big", new BufferedImage(1600, 1200, BufferedImage.TYPE_INT_RGB)).scaled(1.0, 0);
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(agents);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(agents);
            try {
                List<java.util.concurrent.Future<Sight>> sights = new java.util.ArrayList<>();
                for (int k = 0; k < agents; k++) {
                    LocalPerception method = k % 2 == 0 ? root : root.withOwnCache();
                    sights.add(pool.submit(() -> {
                        start.await();
                        return method.sight(p);
                    }));
                }
                for (var f : sights) f.get();
            } finally {
                pool.shutdownNow();
            }
        }
        assertThat(root.contentHashes()).as("five pictures, each hashed once for six agents asking together").isEqualTo(5);
    }
}
