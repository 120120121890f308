package dev.gamagent.local;

import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.image.Picture;
import dev.gamagent.local.ocr.PpOcrEngine;
import dev.gamagent.local.ocr.PpOcrOptions;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.Surfaces;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Development tool: text-family accuracy of several reading strategies. Args: N SEED HARD [verbose]. */
public final class TextProbe {
    private TextProbe() { }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        long seed = Long.parseLong(args[1]);
        double hard = Double.parseDouble(args[2]);
        List<BenchItem> items = new BenchmarkGenerator(seed, hard).generate(n, List.of(Family.TEXT));
        Map<String, int[]> acc = new TreeMap<>();
        try (PpOcrEngine v4 = PpOcrEngine.create(); PpOcrEngine v3 = PpOcrEngine.create(PpOcrOptions.defaults()
                .withModels("/models/ch_PP-OCRv3_det_infer.onnx", "/models/ch_PP-OCRv3_rec_infer.onnx"))) {
            for (BenchItem it : items) {
                QuestionFamily.Text f = (QuestionFamily.Text) QuestionReader.recognize(it.question());
                List<String> cands = new ArrayList<>(it.options().values());
                int gt = new ArrayList<>(it.options().keySet()).indexOf(it.answer());
                Surfaces surf = new Surfaces(it.image());
                List<TextLine> l4 = v4.read(it.image()), l3 = v3.read(it.image());
                Map<String, Distribution> res = new java.util.LinkedHashMap<>();
                res.put("v4-size", answer(l4, cands, f, null, false));
                res.put("v4-surf", answer(l4, cands, f, surf, false));
                res.put("v3-surf", answer(l3, cands, f, surf, false));
                res.put("v4-flat", answer(l4, cands, f, null, true));
                // zoomed re-reading of each bounded surface at 2x and 3x
                for (double z : new double[]{2, 3}) {
                    List<TextLine> zl = new ArrayList<>();
                    for (TextLine l : l4) {
                        var s = surf.around(l.box());
                        if (!s.bounded()) continue;
                        var r = s.box();
                        var reg = new dev.gamagent.image.Region((double) r.x / it.image().getWidth(), (double) r.y / it.image().getHeight(),
                                (double) (r.x + r.width) / it.image().getWidth(), (double) (r.y + r.height) / it.image().getHeight()).expand(0.1);
                        Picture crop = new Picture("x", it.image()).crop(reg).scaled(z, 0);
                        zl.addAll(v4.read(crop.image()));
                    }
                    res.put("zoom" + (int) z + "-v4", answer(zl, cands, f, null, false));
                }
                String key = it.difficulty();
                StringBuilder sb = new StringBuilder();
                for (var e : res.entrySet()) {
                    int[] c = acc.computeIfAbsent(e.getKey() + "/" + key, k -> new int[2]);
                    c[1]++;
                    boolean ok = e.getValue() != null && e.getValue().bestIndex() == gt;
                    if (ok) c[0]++;
                    sb.append(String.format(Locale.ROOT, " %s=%s(%.2f)%s", e.getKey(), e.getValue() == null ? "-" : e.getValue().best(),
                            e.getValue() == null ? 0 : e.getValue().bestProbability(), ok ? "" : "X"));
                }
                if (args.length > 3) System.out.println(it.index() + " " + key + " " + it.question() + " gt=" + cands.get(gt) + sb
                        + " | v4 lines " + l4.stream().map(l -> l.text() + (surf.around(l.box()).bounded() ? "*" : "")).toList()
                        + " | v3 lines " + l3.stream().map(l -> l.text() + (surf.around(l.box()).bounded() ? "*" : "")).toList());
            }
        }
        for (var e : acc.entrySet()) System.out.printf(Locale.ROOT, "%-20s %d/%d%n", e.getKey(), e.getValue()[0], e.getValue()[1]);
    }

    static Distribution answer(List<TextLine> all, List<String> cands, QuestionFamily.Text f, Surfaces surf, boolean flat) {
        List<TextLine> lines = all.stream().filter(l -> !l.text().isBlank()).toList();
        if (lines.isEmpty()) return null;
        double[] mix = new double[cands.size()];
        double[] weight = new double[lines.size()];
        List<Distribution> posts = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            double[] ll = new double[cands.size()];
            double fit = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < ll.length; c++) {
                ll[c] = TextLikelihood.logLikelihood(lines.get(i), cands.get(c));
                fit = Math.max(fit, TextLikelihood.perCharacter(lines.get(i), cands.get(c)));
            }
            posts.add(Distribution.fromLog(cands, ll));
            double hgt = Math.max(1, lines.get(i).box().getHeight());
            double rel = flat ? 1 : f.kind() == QuestionFamily.TextKind.SMALL_PRINT ? 1 / (hgt * hgt) : hgt * hgt;
            if (surf != null) {
                var s = surf.around(lines.get(i).box());
                rel = s.bounded() ? (f.kind() == QuestionFamily.TextKind.SMALL_PRINT ? 1 / (hgt * hgt) : 1) : 0.02 * rel / Math.max(1, hgt * hgt);
            }
            weight[i] = rel * Math.exp(fit);
        }
        double ws = 0;
        for (double x : weight) ws += x;
        for (int i = 0; i < lines.size(); i++) for (int c = 0; c < mix.length; c++) mix[c] += (ws > 0 ? weight[i] / ws : 1.0 / lines.size()) * posts.get(i).p(c);
        return Distribution.of(cands, mix);
    }
}
