package dev.gamagent.local.ocr;

import java.util.Locale;

/**
 * Prints OCR line accuracy per font size × image scale, and milliseconds per image, for ASCII-only and
 * full-dictionary decoding. Run (after {@code mvn -o test-compile}):
 * <pre>
 * mvn -B -q -o dependency:build-classpath -Dmdep.outputFile=cp.txt
 * java -Djava.awt.headless=true -cp target/classes:target/test-classes:$(cat cp.txt) dev.gamagent.local.ocr.OcrMeasure [imagesPerCell]
 * </pre>
 */
public final class OcrMeasure {
    private OcrMeasure() { }

    public static void main(String[] args) {
        int images = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int[] sizes = {10, 14, 20, 28, 40, 48};
        double[] scales = {0.5, 1.0, 2.0};
        for (boolean ascii : new boolean[]{true, false}) {
            PpOcrOptions opts = PpOcrOptions.defaults().withAsciiOnly(ascii);
            try (PpOcrEngine engine = PpOcrEngine.create(opts)) {
                engine.read(TextImages.render(java.util.List.of("warm up"), "SansSerif", 20, true, 0, 1).image());
                System.out.printf(Locale.ROOT, "%nasciiOnly=%s, %d images × 2 lines per cell; exact / ignore-case line accuracy, ms per image%n",
                        ascii, images);
                System.out.printf(Locale.ROOT, "%-8s", "font px");
                for (double s : scales) System.out.printf(Locale.ROOT, " | %-22s", "scale " + s);
                System.out.println();
                int tl = 0, te = 0, tc = 0;
                double ms = 0;
                for (int size : sizes) {
                    System.out.printf(Locale.ROOT, "%-8d", size);
                    for (double s : scales) {
                        OcrAccuracy.Cell c = OcrAccuracy.measure(engine, size, s, images, 7);
                        tl += c.lines(); te += c.exact(); tc += c.exactIgnoreCase(); ms += c.msPerImage();
                        System.out.printf(Locale.ROOT, " | %5.1f%% %5.1f%% %6.0fms", 100 * c.exactRate(),
                                100 * c.ignoreCaseRate(), c.msPerImage());
                    }
                    System.out.println();
                }
                System.out.printf(Locale.ROOT, "overall: exact %.1f%%, ignore-case %.1f%%, mean %.0f ms/image%n",
                        100.0 * te / tl, 100.0 * tc / tl, ms / (sizes.length * scales.length));
            }
        }
    }
}
