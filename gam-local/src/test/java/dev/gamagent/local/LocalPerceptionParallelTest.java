package dev.gamagent.local;

import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.image.Picture;
import dev.gamagent.local.ocr.OcrEngine;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.Scene;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The built-in model perceives different images at the same time, and the real engines give the same results in parallel. */
class LocalPerceptionParallelTest {
    /** An OCR engine that waits (up to 20 s) until two reads are running at once, and records the most it saw. */
    private static final class Overlapping implements OcrEngine {
        final CountDownLatch both = new CountDownLatch(2);
        final AtomicInteger running = new AtomicInteger(), most = new AtomicInteger();

        @Override public List<TextLine> read(BufferedImage image) {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            both.countDown();
            try {
                both.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
            return List.of();
        }

        @Override public TextLine readLine(BufferedImage lineImage) { throw new UnsupportedOperationException(); }

        @Override public void close() { }
    }

    private static Picture picture(int seed) {
        BufferedImage img = new BufferedImage(32, 32, BufferedImage.TYPE_INT_RGB);
        img.setRGB(seed, seed, 0xff0000);
        return new Picture("p" + seed, img);
    }

    @Test void twoImagesArePerceivedAtTheSameTime() throws Exception {
        Overlapping ocr = new Overlapping();
        LocalPerception perception = new LocalPerception(ocr, image -> new Scene(image.getWidth(), image.getHeight(), List.of(), null), 8);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Perception> a = pool.submit(() -> perception.perceive(picture(1)));
            Future<Perception> b = pool.submit(() -> perception.perceive(picture(2)));
            a.get();
            b.get();
        } finally {
            pool.shutdownNow();
        }
        assertThat(ocr.most.get()).as("reads of different images overlap (they were serialised before)").isEqualTo(2);
    }

    @Test void theRealEnginesGiveTheSameResultsInParallelAsOneAtATime() throws Exception {
        List<BenchItem> items = BenchmarkGenerator.withMix(23, null).generate(6, List.of(Family.TEXT, Family.CHART, Family.COUNT), it -> { });
        // The JVM's one set of real engines (the OCR keeps no results: its cache is off), two perception caches: the
        // parallel perceptions are computed again, by the same engines, not read from the sequential ones' cache.
        try (LocalPerception one = RealEngines.backend().perception();
             LocalPerception two = RealEngines.backend().perception()) {
            List<Perception> sequential = new ArrayList<>();
            for (BenchItem it : items) sequential.add(one.perceive(new Picture("s" + it.index(), it.image())));
            ExecutorService pool = Executors.newFixedThreadPool(3);
            try {
                List<Future<Perception>> parallel = new ArrayList<>();
                for (BenchItem it : items) parallel.add(pool.submit(() -> two.perceive(new Picture("p" + it.index(), it.image()))));
                for (int i = 0; i < items.size(); i++) assertThat(parallel.get(i).get()).as("item " + i).isEqualTo(sequential.get(i));
                assertThat(two.cache().misses()).as("each image perceived anew in parallel").isEqualTo(items.size());
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
