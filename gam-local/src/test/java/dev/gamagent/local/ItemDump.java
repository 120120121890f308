package dev.gamagent.local;

import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.local.vision.ClassicalSceneAnalyzer;
import dev.gamagent.local.vision.CoreSegmenter;
import dev.gamagent.local.vision.DetectedObject;

import javax.imageio.ImageIO;
import java.io.File;
import java.util.List;
import java.util.Locale;

/** Development tool: writes one generated item's image and prints what each segmentation found. Args: SEED HARD INDEX FAMILY OUTPNG. */
public final class ItemDump {
    private ItemDump() { }

    public static void main(String[] args) throws Exception {
        BenchItem it = new BenchmarkGenerator(Long.parseLong(args[0]), Double.parseDouble(args[1]), dev.gamagent.bench.RenderStyle.Render.parse(System.getProperty("render", "varied")))
                .generate(Integer.parseInt(args[2]), Family.valueOf(args[3]));
        ImageIO.write(it.image(), "png", new File(args[4]));
        System.out.println(it.question() + " " + it.options() + " gt=" + it.answer() + " " + it.difficulty());
        System.out.println("truth: " + it.truth());
        for (var a : List.of(new ClassicalSceneAnalyzer(), new CoreSegmenter())) {
            System.out.println("== " + a.getClass().getSimpleName());
            for (DetectedObject o : a.analyze(it.image()).objects()) {
                System.out.printf(Locale.ROOT, "  %s area=%d %s %s %s%n", o.box(), o.pixelArea(), o.color(), o.shape(), top(o));
            }
        }
    }

    static String top(DetectedObject o) {
        StringBuilder sb = new StringBuilder();
        o.shapeScores().entrySet().stream().sorted((a, b) -> Double.compare(b.getValue(), a.getValue())).limit(2)
                .forEach(e -> sb.append(String.format(Locale.ROOT, "%s=%.2f ", e.getKey(), e.getValue())));
        o.colorScores().entrySet().stream().sorted((a, b) -> Double.compare(b.getValue(), a.getValue())).limit(2)
                .forEach(e -> sb.append(String.format(Locale.ROOT, "%s=%.2f ", e.getKey(), e.getValue())));
        return sb.toString();
    }
}
