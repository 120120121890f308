package dev.gamagent.local.ocr;

import dev.gamagent.image.Picture;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Line accuracy of an {@link OcrEngine} on rendered text: each image holds two random lines (fonts and
 * polarity rotate, mild noise); the image is rescaled with {@link Picture#scaled} as DREAM's probes are.
 * A ground-truth line counts as read when some output line equals it (exactly, or ignoring case).
 */
final class OcrAccuracy {
    private OcrAccuracy() { }

    record Cell(int fontPx, double scale, int lines, int exact, int exactIgnoreCase, double msPerImage) {
        double exactRate() { return exact / (double) lines; }
        double ignoreCaseRate() { return exactIgnoreCase / (double) lines; }
    }

    static Cell measure(OcrEngine engine, int fontPx, double scale, int images, long seed) {
        Random rnd = new Random(seed * 1_000_003L + fontPx * 31L + Math.round(scale * 100));
        int lines = 0, exact = 0, ci = 0;
        long nanos = 0;
        for (int i = 0; i < images; i++) {
            List<String> truth = List.of(TextImages.randomLine(rnd), TextImages.randomLine(rnd));
            TextImages.Rendered r = TextImages.render(truth, TextImages.FONTS[i % TextImages.FONTS.length], fontPx,
                    (i / TextImages.FONTS.length) % 2 == 0, 4.0, rnd.nextLong());
            var img = new Picture("ocr-measure", r.image()).scaled(scale, 0).image();
            long t0 = System.nanoTime();
            List<TextLine> read = engine.read(img);
            nanos += System.nanoTime() - t0;
            List<String> got = new ArrayList<>();
            for (TextLine l : read) got.add(l.text());
            for (String want : truth) {
                lines++;
                if (got.contains(want)) exact++;
                String lw = want.toLowerCase(Locale.ROOT);
                if (got.stream().anyMatch(g -> g.toLowerCase(Locale.ROOT).equals(lw))) ci++;
            }
        }
        return new Cell(fontPx, scale, lines, exact, ci, nanos / 1e6 / images);
    }
}
