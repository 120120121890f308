package dev.gamagent.bench;

import dev.gamagent.bench.SceneTruth.ChartTruth;
import dev.gamagent.bench.SceneTruth.PlacedText;

import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Bar charts: 3–7 labelled bars standing on a black baseline, a y axis with numeric tick labels, light
 * grid lines on harder items. Values are multiples of 5 and all distinct, so tallest and shortest are unique;
 * hard charts use 9 px labels and neighbouring values.
 */
final class ChartScenes extends Scenes {
    static final List<String> LABELS = List.of("apple", "pear", "plum", "kiwi", "lime", "fig", "mango", "grape",
            "peach", "berry", "melon", "lemon");
    private static final List<Integer> MAXIMA = List.of(20, 40, 50, 60, 80, 100);
    private static final Color AXIS = new Color(20, 20, 20);

    ChartScenes(Random rng, Difficulty d, RenderStyle style) {
        super(rng, d, style);
    }

    BenchItem item(int index) {
        int n = 3 + rng.nextInt(d.tag().equals("hard") ? 5 : d.tag().equals("medium") ? 4 : 3);
        int max;
        do max = MAXIMA.get(rng.nextInt(MAXIMA.size())); while (max / 5 < n + 1);
        int step = max <= 20 ? 5 : max <= 50 ? 10 : 20;
        List<Integer> pool = new ArrayList<>();
        int lo = 5, hi = max;
        if (d.closeBars()) {
            // Close bars: the values come from n + 1 neighbouring multiples of 5, so bars differ by one grid unit.
            lo = 5 * (1 + rng.nextInt(max / 5 - n));
            hi = lo + 5 * n;
        }
        for (int v = lo; v <= hi; v += 5) pool.add(v);
        Collections.shuffle(pool, rng);
        List<Integer> values = new ArrayList<>(pool.subList(0, n));
        List<String> names = new ArrayList<>(LABELS);
        Collections.shuffle(names, rng);
        List<String> labels = new ArrayList<>(names.subList(0, n));

        Canvas c = newCanvas();
        List<PlacedText> texts = new ArrayList<>();
        ChartTruth truth = draw(c, labels, values, max, step, texts);
        Draft draft = question(labels, values, max);
        return draft.item(index, rng, c, Family.CHART, d, new SceneTruth(List.of(), texts, truth));
    }

    private Draft question(List<String> labels, List<Integer> values, int max) {
        int n = labels.size();
        int variant = rng.nextInt(4);
        if (variant <= 1) {
            int best = 0;
            for (int i = 1; i < n; i++) {
                if (variant == 0 ? values.get(i) > values.get(best) : values.get(i) < values.get(best)) best = i;
            }
            List<String> others = new ArrayList<>(labels);
            others.remove(best);
            Collections.shuffle(others, rng);
            return new Draft(variant == 0 ? "Which bar is the tallest?" : "Which bar is the shortest?",
                    labels.get(best), others.subList(0, Math.min(3, others.size())));
        }
        if (variant == 2) {
            int i = rng.nextInt(n);
            int v = values.get(i);
            List<Integer> cands = new ArrayList<>();
            for (int dv = -15; dv <= 15; dv += 5) if (dv != 0 && v + dv >= 0 && v + dv <= max + 10) cands.add(v + dv);
            Collections.shuffle(cands, rng);
            cands.sort((a, b) -> Integer.compare(Math.abs(a - v), Math.abs(b - v)));
            return new Draft("What is the value of the bar labeled " + labels.get(i) + "?", String.valueOf(v),
                    cands.subList(0, 3).stream().map(String::valueOf).toList());
        }
        int a = rng.nextInt(n), b;
        do b = rng.nextInt(n); while (b == a);
        String larger = values.get(a) > values.get(b) ? labels.get(a) : labels.get(b);
        String smaller = larger.equals(labels.get(a)) ? labels.get(b) : labels.get(a);
        return new Draft("Which is larger, " + labels.get(a) + " or " + labels.get(b) + "?", larger, List.of(smaller));
    }

    private ChartTruth draw(Canvas c, List<String> labels, List<Integer> values, int max, int step, List<PlacedText> texts) {
        int w = c.width(), h = c.height();
        int left = 64, right = w - 24, top = 48, baseline = h - 56;
        int tickPx = Math.min(13, d.chartTextPx());
        int labelPx = d.chartTextPx();
        Font tickFont = c.font(tickPx, false), labelFont = c.font(labelPx, false);
        double perUnit = (double) (baseline - top) / max;
        if (!d.tag().equals("easy")) {
            for (int t = step; t <= max; t += step) {
                int y = baseline - (int) Math.round(t * perUnit);
                c.fill(new Rectangle(left, y, right - left, 1), new Color(222, 222, 222));
            }
        }
        if (!d.tag().equals("easy")) {
            c.textCentered("Sales by item", c.font(16, true), new Color(40, 40, 40), (left + right) / 2.0, 22, 0);
        }
        boolean oneColor = rng.nextBoolean();
        List<String> palette = new ArrayList<>(List.of("red", "green", "blue", "yellow", "orange", "purple", "gray"));
        Collections.shuffle(palette, rng);
        int n = labels.size();
        double slot = (double) (right - left) / n;
        int bw = (int) Math.round(slot * (0.45 + rng.nextDouble() * 0.25));
        List<Rectangle> bars = new ArrayList<>();
        List<String> colors = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String color = oneColor ? palette.get(0) : palette.get(i % palette.size());
            int x = (int) Math.round(left + slot * i + (slot - bw) / 2);
            int y = baseline - (int) Math.round(values.get(i) * perUnit);
            Rectangle bar = new Rectangle(x, y, bw, baseline - y);
            Color col = Palette.jittered(color, rng, c.background, d.contrastBlend());
            c.g.setColor(col);
            c.g.fillRect(bar.x, bar.y, bar.width, bar.height);
            bars.add(bar);
            colors.add(color);
            Rectangle lb = c.textCentered(labels.get(i), labelFont, AXIS, bar.getCenterX(), baseline + 10 + labelPx * 0.6, 0);
            texts.add(new PlacedText(labels.get(i), labelPx, lb, "bar label"));
        }
        c.g.setColor(AXIS);
        c.g.fillRect(left, baseline, right - left, 2);
        c.g.fillRect(left - 2, top - 6, 2, baseline - top + 8);
        for (int t = 0; t <= max; t += step) {
            int y = baseline - (int) Math.round(t * perUnit);
            c.g.fillRect(left - 7, y, 5, 1);
            String s = String.valueOf(t);
            Rectangle tb = c.textAt(s, tickFont, AXIS, left - 10 - c.textWidth(s, tickFont), y + tickPx * 0.36);
            texts.add(new PlacedText(s, tickPx, tb, "tick"));
        }
        return new ChartTruth(labels, values, bars, colors, new Rectangle(left, top, right - left, baseline - top),
                baseline, max, step);
    }
}
