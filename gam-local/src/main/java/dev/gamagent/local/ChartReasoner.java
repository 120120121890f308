package dev.gamagent.local;

import dev.gamagent.image.Region;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.Scene;

import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static dev.gamagent.local.Judgement.lowInformation;
import static dev.gamagent.local.NumberText.format;
import static dev.gamagent.local.NumberText.parseNumber;
import static dev.gamagent.local.Scores.argmax;
import static dev.gamagent.local.Scores.over;
import static dev.gamagent.local.Scores.phi;
import static dev.gamagent.local.Scores.stated;

/**
 * Answers questions about a bar chart (the tallest or shortest bar, a bar's value, which of two bars is larger): bars
 * joined into columns, each bar's label read below it, heights compared under pixel noise and values read off the
 * axis ({@link AxisFit}).
 */
final class ChartReasoner {
    private ChartReasoner() { }

    static Judgement chart(QuestionFamily.Chart q, Perception v, List<String> candidates) {
        Scene.Chart chart = mergedBars(v.scene().chart());
        if (chart == null || chart.bars().isEmpty()) return lowInformation(q, candidates, false, "no bar chart was found", Region.FULL);
        List<Scene.Bar> bars = chart.bars();
        int n = bars.size();
        double[] heights = new double[n];
        for (int b = 0; b < n; b++) heights[b] = chart.baselineY() - bars.get(b).box().getMinY();
        AxisFit axis = AxisFit.of(v.lines(), chart);
        List<TextLine> labels = barLabels(v.lines(), chart, v.width());
        List<String> labelTexts = labels.stream().map(l -> l == null ? "?" : l.text().strip()).toList();
        double pixelNoise = 1.5;
        switch (q.kind()) {
            case TALLEST, SHORTEST -> {
                double sign = q.kind() == QuestionFamily.ChartKind.TALLEST ? 1 : -1;
                double[] pb = new double[n];
                for (int b = 0; b < n; b++) {
                    double p = 1;
                    for (int c = 0; c < n; c++) if (c != b) p *= phi(sign * (heights[b] - heights[c]) / (pixelNoise * Math.sqrt(2)));
                    pb[b] = p;
                }
                Distribution barDist = Distribution.of(labelTexts, pb);
                Distribution answer;
                if (candidates.isEmpty()) answer = barDist;
                else {
                    double[] s = new double[candidates.size()];
                    for (int b = 0; b < n; b++) {
                        Distribution lab = labelMatch(labels.get(b), candidates);
                        for (int c = 0; c < s.length; c++) s[c] += barDist.p(b) * lab.p(c);
                    }
                    answer = Distribution.of(candidates, s);
                }
                int best = argmax(barDist.probabilities());
                String evidence = String.format(Locale.ROOT, "bar heights in pixels %s", heightsText(labelTexts, heights));
                Distribution said = stated(barDist, answer, candidates);
                Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The " + (sign > 0 ? "tallest" : "shortest") + " bar is"),
                        Piece.best(" ", said)), said.bestProbability(), evidence, v.region(bars.get(best).box()));
                return new Judgement(q, true, false, answer, null, List.of(f), evidence);
            }
            case VALUE -> {
                if (axis == null) return lowInformation(q, candidates, false, "the axis tick labels could not be read", v.region(chart.plotArea()));
                double[] ub = barsLabelled(labels, q.label());
                double sigma = Math.abs(axis.slope()) * pixelNoise + axis.rmse() + 1e-6;
                int best = argmax(ub);
                List<String> vals = new ArrayList<>();
                for (int b = 0; b < n; b++) vals.add(format(axis.value(bars.get(b).box().getMinY())));
                Distribution values = Distribution.of(vals, ub);
                Distribution answer = candidates.isEmpty() ? values : over(candidates, c -> {
                    Double x = parseNumber(c);
                    if (x == null) return 0;
                    double s = 0;
                    for (int b = 0; b < n; b++) {
                        double z = (x - axis.value(bars.get(b).box().getMinY())) / sigma;
                        s += ub[b] * Math.exp(-0.5 * z * z);
                    }
                    return s;
                });
                String evidence = String.format(Locale.ROOT, "bar '%s' top at y=%d; axis %s per pixel from %d ticks (rmse %.2f)",
                        labelTexts.get(best), (int) bars.get(best).box().getMinY(), format(-axis.slope()), axis.ticks(), axis.rmse());
                Distribution said = stated(values, answer, candidates);
                Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The bar labeled " + q.label() + " has the value"),
                        Piece.best(" ", said)), said.bestProbability(), evidence, v.region(bars.get(best).box()));
                return new Judgement(q, true, false, answer, null, List.of(f), evidence);
            }
            default -> {
                double[] u1 = barsLabelled(labels, q.label()), u2 = barsLabelled(labels, q.label2());
                double p1 = 0, norm = 0;
                for (int a = 0; a < n; a++) {
                    for (int b = 0; b < n; b++) {
                        if (a == b) continue;
                        double w = u1[a] * u2[b];
                        p1 += w * phi((heights[a] - heights[b]) / (pixelNoise * Math.sqrt(2)));
                        norm += w;
                    }
                }
                p1 = norm > 0 ? p1 / norm : 0.5;
                if (q.kind() == QuestionFamily.ChartKind.SMALLER) p1 = 1 - p1;
                Distribution pair = Distribution.of(List.of(q.label(), q.label2()), new double[]{p1, 1 - p1});
                Distribution answer = candidates.isEmpty() ? pair : over(candidates, c -> {
                    String lc = TextLikelihood.normalise(c);
                    return lc.equals(TextLikelihood.normalise(q.label())) ? pair.p(0) : lc.equals(TextLikelihood.normalise(q.label2())) ? pair.p(1) : 0;
                });
                int a = argmax(u1), b = argmax(u2);
                String evidence = String.format(Locale.ROOT, "bar '%s' is %d px tall, bar '%s' is %d px tall",
                        labelTexts.get(a), (int) heights[a], labelTexts.get(b), (int) heights[b]);
                String word = q.kind() == QuestionFamily.ChartKind.SMALLER ? "smaller" : "larger";
                Distribution said = stated(pair, answer, candidates);
                Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The " + word + " bar is"), Piece.best(" ", said)),
                        said.bestProbability(), evidence, v.region(bars.get(a).box().union(bars.get(b).box())));
                return new Judgement(q, true, false, answer, null, List.of(f), evidence);
            }
        }
    }

    /**
     * Bars as columns: pieces of one bar that vision reported separately (overlapping horizontally by
     * more than half the narrower one, or side by side within a few pixels) are joined into their union.
     */
    static Scene.Chart mergedBars(Scene.Chart chart) {
        if (chart == null) return null;
        List<Scene.Bar> sorted = new ArrayList<>();
        // A run a few pixels high along the baseline is the axis line, not a bar.
        for (Scene.Bar b : chart.bars()) if (b.box().height >= 4) sorted.add(b);
        if (sorted.isEmpty()) return null;
        sorted.sort(java.util.Comparator.comparingInt(b -> b.box().x));
        List<Scene.Bar> out = new ArrayList<>();
        for (Scene.Bar b : sorted) {
            if (!out.isEmpty()) {
                Scene.Bar last = out.get(out.size() - 1);
                int overlap = Math.min(last.box().x + last.box().width, b.box().x + b.box().width) - Math.max(last.box().x, b.box().x);
                int narrower = Math.min(last.box().width, b.box().width);
                // overlapping columns, or strips touching within a few pixels (real bars stand apart)
                if (overlap > 0.5 * narrower || (overlap > -Math.max(3, 0.05 * narrower) && overlap <= 0)) {
                    out.set(out.size() - 1, new Scene.Bar(last.box().union(b.box()), last.color()));
                    continue;
                }
            }
            out.add(b);
        }
        return new Scene.Chart(out, chart.plotArea(), chart.baselineY());
    }

    /**
     * For each bar, the OCR text nearest below its centre (null when none is close). Tick labels left
     * of the plot are skipped; a line spanning several bars (the recogniser merged the labels) is cut
     * to the word whose estimated position is nearest the bar.
     */
    static List<TextLine> barLabels(List<TextLine> lines, Scene.Chart chart, int width) {
        List<TextLine> out = new ArrayList<>();
        double left = chart.plotArea() == null ? 0 : chart.plotArea().getMinX();
        double spacing = width;
        List<Scene.Bar> bars = chart.bars();
        for (int i = 1; i < bars.size(); i++) {
            spacing = Math.min(spacing, Math.abs(bars.get(i).box().getCenterX() - bars.get(i - 1).box().getCenterX()));
        }
        for (Scene.Bar bar : bars) {
            TextLine best = null;
            double bestDx = Double.MAX_VALUE;
            for (TextLine l : lines) {
                if (l.box().getCenterY() < chart.baselineY() - 2 || l.box().getMaxX() < left) continue;
                double cx = bar.box().getCenterX();
                double dx = cx < l.box().getMinX() ? l.box().getMinX() - cx : cx > l.box().getMaxX() ? cx - l.box().getMaxX() : 0;
                if (dx < bestDx && dx < Math.max(bar.box().getWidth(), 0.1 * width)) { bestDx = dx; best = l; }
            }
            if (best != null && best.box().getWidth() > spacing) best = wordNear(best, bar.box().getCenterX());
            out.add(best);
        }
        return out;
    }

    /** The whitespace-separated word of a line whose position (characters spread evenly over the box) is nearest x. */
    static TextLine wordNear(TextLine line, double x) {
        List<TextLine.CharDistribution> cs = line.chars();
        int n = cs.size();
        if (n == 0) return line;
        int bestStart = -1, bestEnd = -1;
        double bestD = Double.MAX_VALUE;
        int i = 0;
        while (i < n) {
            while (i < n && blank(cs.get(i))) i++;
            int s = i;
            while (i < n && !blank(cs.get(i))) i++;
            if (i > s) {
                double wx = line.box().getMinX() + (s + i) / 2.0 / n * line.box().getWidth();
                if (Math.abs(wx - x) < bestD) { bestD = Math.abs(wx - x); bestStart = s; bestEnd = i; }
            }
        }
        if (bestStart < 0 || (bestStart == 0 && bestEnd == n)) return line;
        StringBuilder text = new StringBuilder();
        for (int k = bestStart; k < bestEnd; k++) text.append(cs.get(k).top().get(0).character());
        int x0 = (int) Math.round(line.box().getMinX() + (double) bestStart / n * line.box().getWidth());
        int x1 = (int) Math.round(line.box().getMinX() + (double) bestEnd / n * line.box().getWidth());
        return new TextLine(new Rectangle(x0, line.box().y, Math.max(1, x1 - x0), line.box().height), text.toString(),
                cs.subList(bestStart, bestEnd), line.detectionScore());
    }

    private static boolean blank(TextLine.CharDistribution d) {
        String s = d.top().get(0).character();
        return s.isBlank();
    }

    /** P(bar b carries {@code label}) from the OCR likelihood of the label under each bar's label line. */
    static double[] barsLabelled(List<TextLine> labels, String label) {
        double[] lw = new double[labels.size()];
        for (int b = 0; b < lw.length; b++) {
            lw[b] = labels.get(b) == null ? Math.log(1e-6) : TextLikelihood.logLikelihood(labels.get(b), label);
        }
        return Distribution.fromLog(java.util.Collections.nCopies(lw.length, "bar"), lw).probabilities();
    }

    /** P(option text is this label) over the candidates. */
    static Distribution labelMatch(TextLine label, List<String> candidates) {
        if (label == null) return Distribution.uniform(candidates);
        double[] lw = new double[candidates.size()];
        for (int c = 0; c < lw.length; c++) lw[c] = TextLikelihood.logLikelihood(label, candidates.get(c));
        return Distribution.fromLog(candidates, lw);
    }

    private static String heightsText(List<String> labels, double[] h) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < h.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append(labels.get(i)).append(' ').append((int) Math.round(h[i]));
        }
        return sb.toString();
    }
}
