package dev.gamagent.local;

import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.bench.SceneTruth;
import dev.gamagent.local.vision.CoreSegmenter;
import dev.gamagent.local.vision.DetectedObject;

import java.util.List;
import java.util.Locale;

/** Development tool: per detected object, how many drawn shapes it covers and its best class score. Args: N SEED HARD. */
public final class ShapeFitProbe {
    private ShapeFitProbe() { }

    public static void main(String[] args) {
        List<BenchItem> items = new BenchmarkGenerator(Long.parseLong(args[1]), Double.parseDouble(args[2]))
                .generate(Integer.parseInt(args[0]), List.of(Family.COUNT, Family.SHAPE));
        var core = new CoreSegmenter();
        int[][] hist = new int[4][11];
        for (BenchItem it : items) {
            for (DetectedObject o : core.analyze(it.image()).objects()) {
                int covered = 0;
                for (SceneTruth.PlacedShape s : it.truth().shapes()) if (o.box().contains(s.cx(), s.cy())) covered++;
                var r = o.box();
                // re-derive features from the box is not possible here; use the classifier distance stored via scores
                double best = o.shapeScores().values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
                double d = o.fit();
                int bin = d < 1 ? 0 : Math.min(10, 1 + (int) Math.floor(Math.log(d) / Math.log(2)));
                hist[Math.min(3, covered)][bin]++;
            }
        }
        for (int c = 0; c < 4; c++) {
            StringBuilder sb = new StringBuilder();
            for (int b = 0; b < 11; b++) sb.append(String.format(Locale.ROOT, "%5d", hist[c][b]));
            System.out.println("covers " + c + ":" + sb);
        }
    }
}
