package dev.gamagent.local;

import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.image.Picture;
import dev.gamagent.local.ocr.PpOcrEngine;
import dev.gamagent.local.ocr.PpOcrOptions;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.ClassicalSceneAnalyzer;
import dev.gamagent.local.vision.Scene;

import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Development tool: chart-family accuracy with several label readings. Args: N SEED HARD [verbose]. */
public final class ChartProbe {
    private ChartProbe() { }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        long seed = Long.parseLong(args[1]);
        double hard = Double.parseDouble(args[2]);
        List<BenchItem> items = new BenchmarkGenerator(seed, hard).generate(n, List.of(Family.CHART));
        Map<String, int[]> acc = new TreeMap<>();
        FamilyReasoner r = new FamilyReasoner();
        var vision = new ClassicalSceneAnalyzer();
        try (PpOcrEngine v4 = PpOcrEngine.create(); PpOcrEngine v3 = PpOcrEngine.create(PpOcrOptions.defaults()
                .withModels("/models/ch_PP-OCRv3_det_infer.onnx", "/models/ch_PP-OCRv3_rec_infer.onnx"))) {
            for (BenchItem it : items) {
                QuestionFamily f = QuestionReader.recognize(it.question());
                List<String> cands = new ArrayList<>(it.options().values());
                int gt = new ArrayList<>(it.options().keySet()).indexOf(it.answer());
                int w = it.image().getWidth(), h = it.image().getHeight();
                Scene scene = vision.analyze(it.image());
                List<TextLine> l4 = v4.read(it.image()), l3 = v3.read(it.image());
                Map<String, Judgement> res = new java.util.LinkedHashMap<>();
                res.put("v4", r.judgeOne(f, new Perception(w, h, scene, l4), cands));
                res.put("v3", r.judgeOne(f, new Perception(w, h, scene, l3), cands));
                for (double z : new double[]{2, 3}) {
                    if (scene.chart() == null) continue;
                    int base = scene.chart().baselineY();
                    Rectangle strip = new Rectangle(0, base + 1, w, Math.min(h - base - 1, Math.max(12, h / 10)));
                    List<TextLine> zl = new ArrayList<>();
                    for (TextLine l : l4) if (l.box().getCenterY() < base) zl.add(l);
                    Picture crop = new Picture("x", it.image()).crop(new dev.gamagent.image.Region(0, (double) strip.y / h, 1, (double) (strip.y + strip.height) / h)).scaled(z, 0);
                    for (TextLine l : v4.read(crop.image())) {
                        Rectangle b = l.box();
                        zl.add(new TextLine(new Rectangle((int) Math.round(b.x / z), strip.y + (int) Math.round(b.y / z),
                                (int) Math.max(1, Math.round(b.width / z)), (int) Math.max(1, Math.round(b.height / z))), l.text(), l.chars(), l.detectionScore()));
                    }
                    res.put("zoom" + (int) z, r.judgeOne(f, new Perception(w, h, scene, zl), cands));
                }
                StringBuilder sb = new StringBuilder();
                for (var e : res.entrySet()) {
                    int[] c = acc.computeIfAbsent(e.getKey() + "/" + it.difficulty(), k -> new int[2]);
                    c[1]++;
                    boolean ok = e.getValue().answer().bestIndex() == gt;
                    if (ok) c[0]++;
                    sb.append(String.format(Locale.ROOT, " %s=%s(%.2f)%s", e.getKey(), e.getValue().answer().best(), e.getValue().answer().bestProbability(), ok ? "" : "X"));
                }
                if (args.length > 3) System.out.println(it.index() + " " + it.difficulty() + " " + it.question() + " gt=" + cands.get(gt) + sb
                        + " | " + l4.stream().map(TextLine::text).toList());
            }
        }
        for (var e : acc.entrySet()) System.out.printf(Locale.ROOT, "%-20s %d/%d%n", e.getKey(), e.getValue()[0], e.getValue()[1]);
    }
}
