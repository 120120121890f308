package dev.gamagent.local;

import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.local.ocr.PpOcrEngine;
import dev.gamagent.local.vision.ClassicalSceneAnalyzer;
import dev.gamagent.local.vision.CoreSegmenter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Development tool: accuracy of the classical analyser and the core segmenter as the only vision
 * instrument, per family, on generated items. Run after test-compile with the test classpath:
 * {@code java ... dev.gamagent.local.InstrumentProbe N SEED HARD_FRACTION}.
 */
public final class InstrumentProbe {
    private InstrumentProbe() { }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        long seed = Long.parseLong(args[1]);
        double hard = Double.parseDouble(args[2]);
        List<Family> fams = List.of(Family.COUNT, Family.COLOR, Family.SHAPE, Family.SPATIAL);
        List<BenchItem> items = new BenchmarkGenerator(seed, hard, dev.gamagent.bench.RenderStyle.Render.parse(System.getProperty("render", "varied"))).generate(n, fams);
        var classical = new ClassicalSceneAnalyzer();
        var core = new CoreSegmenter();
        FamilyReasoner r = new FamilyReasoner();
        Map<String, int[]> acc = new TreeMap<>();
        Map<String, double[]> conf = new TreeMap<>();
        for (BenchItem it : items) {
            QuestionFamily f = QuestionReader.recognize(it.question());
            List<String> cands = new ArrayList<>(it.options().values());
            int gt = new ArrayList<>(it.options().keySet()).indexOf(it.answer());
            Perception a = new Perception(it.image().getWidth(), it.image().getHeight(), classical.analyze(it.image()), List.of());
            double zoom = Double.parseDouble(System.getProperty("zoom", "1"));
            java.awt.image.BufferedImage img = zoom == 1 ? it.image() : new dev.gamagent.image.Picture("x", it.image()).scaled(zoom, 0).image();
            Perception b = new Perception(img.getWidth(), img.getHeight(), core.analyze(img), List.of());
            Judgement ja = r.judgeOne(f, a, cands), jb = r.judgeOne(f, b, cands);
            boolean oa = ja.answer().bestIndex() == gt, ob = jb.answer().bestIndex() == gt;
            String key = it.category() + "/" + it.difficulty() + (System.getProperty("bystyle") == null ? "" : "/" + (it.render().outlined() ? "outl" : "fill") + (it.render().jpegQuality() > 0 ? "+jpg" : "") + (it.render().antialias() ? "" : "+noaa"));
            int[] c = acc.computeIfAbsent(key, k -> new int[6]);
            c[0]++;
            if (oa) c[1]++;
            if (ob) c[2]++;
            if (oa || ob) c[3]++;
            if (oa != ob) c[4]++;
            c[5] += 0;
            conf.computeIfAbsent(key, k -> new double[4]);
            double[] cf = conf.get(key);
            if (oa) cf[0] += ja.answer().bestProbability(); else cf[1] += ja.answer().bestProbability();
            if (ob) cf[2] += jb.answer().bestProbability(); else cf[3] += jb.answer().bestProbability();
            if (args.length > 3 && (oa != ob || !oa)) {
                System.out.printf(Locale.ROOT, "%d %s %s | %s gt=%s classical=%s(%.2f) core=%s(%.2f)%n", it.index(), key, it.question(),
                        cands, cands.get(gt), ja.answer().best(), ja.answer().bestProbability(), jb.answer().best(), jb.answer().bestProbability());
            }
        }
        System.out.println("family/tier        n  classical  core  either  differ");
        for (var e : acc.entrySet()) {
            int[] c = e.getValue();
            double[] cf = conf.get(e.getKey());
            System.out.printf(Locale.ROOT, "%-16s %4d %9d %5d %7d %7d   conf right/wrong classical %.2f/%.2f core %.2f/%.2f%n", e.getKey(), c[0], c[1], c[2], c[3], c[4],
                    cf[0] / Math.max(1, c[1]), cf[1] / Math.max(1, c[0] - c[1]), cf[2] / Math.max(1, c[2]), cf[3] / Math.max(1, c[0] - c[2]));
        }
    }
}
