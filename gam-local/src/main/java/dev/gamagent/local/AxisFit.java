package dev.gamagent.local;

import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.Scene;

import java.util.ArrayList;
import java.util.List;

/**
 * A bar chart's value axis read from its tick labels: value = intercept + slope·y over the numeric tick
 * labels left of the plot. Robust to a misread tick (the tick mark read as a digit, "100" → "1004"): the
 * pair of ticks that explains the most others within 4 px picks the inliers, then least squares over those.
 */
record AxisFit(double intercept, double slope, double rmse, int ticks) {
    private static final java.util.regex.Pattern TICK = java.util.regex.Pattern.compile("^[^0-9-]*(-?\\d+(?:[.,]\\d+)?)");

    double value(double y) { return intercept + slope * y; }

    static AxisFit of(List<TextLine> lines, Scene.Chart chart) {
        List<double[]> pts = new ArrayList<>();
        double left = chart.plotArea() != null ? chart.plotArea().getMinX()
                : chart.bars().stream().mapToDouble(b -> b.box().getMinX()).min().orElse(0);
        for (TextLine l : lines) {
            if (l.box().getCenterX() > left + 2) continue;
            java.util.regex.Matcher m = TICK.matcher(l.text().strip().replace(" ", ""));
            if (m.find()) pts.add(new double[]{l.box().getCenterY(), Double.parseDouble(m.group(1).replace(",", "."))});
        }
        if (pts.size() < 2) return null;
        List<double[]> bestIn = null;
        double bestErr = Double.MAX_VALUE;
        for (int i = 0; i < pts.size(); i++) {
            for (int j = i + 1; j < pts.size(); j++) {
                double dy = pts.get(j)[0] - pts.get(i)[0];
                if (Math.abs(dy) < 1) continue;
                double slope = (pts.get(j)[1] - pts.get(i)[1]) / dy;
                if (slope == 0) continue;
                double icpt = pts.get(i)[1] - slope * pts.get(i)[0];
                List<double[]> in = new ArrayList<>();
                double err = 0;
                for (double[] p : pts) {
                    double px = Math.abs(p[1] - (icpt + slope * p[0])) / Math.abs(slope);
                    if (px <= 4) { in.add(p); err += px; }
                }
                if (bestIn == null || in.size() > bestIn.size() || (in.size() == bestIn.size() && err < bestErr)) {
                    bestIn = in;
                    bestErr = err;
                }
            }
        }
        if (bestIn == null || bestIn.size() < 2) return null;
        double my = 0, mv = 0;
        for (double[] p : bestIn) { my += p[0]; mv += p[1]; }
        my /= bestIn.size();
        mv /= bestIn.size();
        double sxy = 0, sxx = 0;
        for (double[] p : bestIn) { sxy += (p[0] - my) * (p[1] - mv); sxx += (p[0] - my) * (p[0] - my); }
        if (sxx < 1e-9) return null;
        double slope = sxy / sxx, intercept = mv - slope * my, se = 0;
        for (double[] p : bestIn) { double r = p[1] - (intercept + slope * p[0]); se += r * r; }
        return new AxisFit(intercept, slope, Math.sqrt(se / bestIn.size()), bestIn.size());
    }
}
