package dev.gamagent.eval;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/** The report's plots, drawn headless with JFreeChart and returned as PNG data URIs (null when there is nothing to draw). */
final class Charts {
    static final int WIDTH = 640, HEIGHT = 400;

    private Charts() { }

    static String accuracyVsTokens(Map<String, MethodMetrics> metrics) {
        XYSeriesCollection ds = new XYSeriesCollection();
        for (var e : metrics.entrySet()) {
            MethodMetrics m = e.getValue();
            if (m.accuracy() == null) continue;
            XYSeries s = new XYSeries(e.getKey());
            s.add(m.promptTokensPerQuestion() + m.completionTokensPerQuestion(), m.accuracy());
            ds.addSeries(s);
        }
        if (ds.getSeriesCount() == 0) return null;
        JFreeChart c = ChartFactory.createScatterPlot("Accuracy vs tokens per question", "tokens per question (prompt + completion)",
                "accuracy", ds, PlotOrientation.VERTICAL, true, false, false);
        return png(c);
    }

    static String reliability(Map<String, MethodMetrics> metrics) {
        XYSeriesCollection ds = new XYSeriesCollection();
        XYSeries ideal = new XYSeries("perfect calibration");
        ideal.add(0, 0);
        ideal.add(1, 1);
        ds.addSeries(ideal);
        for (var e : metrics.entrySet()) {
            MethodMetrics m = e.getValue();
            if (m.reliability() == null) continue;
            XYSeries s = new XYSeries(e.getKey() + (m.ece() == null ? "" : String.format(java.util.Locale.ROOT, " (ECE %.3f)", m.ece())));
            for (Calibration.Bin b : m.reliability()) if (b.count() > 0) s.add(b.meanConfidence(), b.accuracy());
            if (s.getItemCount() > 0) ds.addSeries(s);
        }
        if (ds.getSeriesCount() == 1) return null;
        return png(lines("Reliability diagram (10 equal-width bins)", "mean confidence in bin", "accuracy in bin", ds));
    }

    static String perRound(String title, String yLabel, Map<String, List<Double>> series) {
        XYSeriesCollection ds = new XYSeriesCollection();
        for (var e : series.entrySet()) {
            XYSeries s = new XYSeries(e.getKey());
            List<Double> v = e.getValue();
            for (int k = 0; k < v.size(); k++) if (v.get(k) != null) s.add(k, v.get(k));
            if (s.getItemCount() > 0) ds.addSeries(s);
        }
        if (ds.getSeriesCount() == 0) return null;
        JFreeChart c = lines(title, "round k", yLabel, ds);
        ((NumberAxis) c.getXYPlot().getDomainAxis()).setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        return png(c);
    }

    /** Bars: for each method (column group), the share of each key (termination reason, DREAM branch). */
    static String shares(String title, Map<String, Map<String, Double>> byMethod) {
        DefaultCategoryDataset ds = new DefaultCategoryDataset();
        for (var m : byMethod.entrySet()) for (var e : m.getValue().entrySet()) ds.addValue(e.getValue(), e.getKey(), m.getKey());
        if (ds.getRowCount() == 0) return null;
        JFreeChart c = ChartFactory.createBarChart(title, "method", "share of questions", ds, PlotOrientation.VERTICAL, true, false, false);
        return png(c);
    }

    private static JFreeChart lines(String title, String x, String y, XYSeriesCollection ds) {
        JFreeChart c = ChartFactory.createXYLineChart(title, x, y, ds, PlotOrientation.VERTICAL, true, false, false);
        XYPlot p = c.getXYPlot();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        p.setRenderer(r);
        return c;
    }

    static String png(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.getPlot().setBackgroundPaint(new Color(0xF4F4F4));
        BufferedImage img = chart.createBufferedImage(WIDTH, HEIGHT);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(img, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode chart '" + chart.getTitle().getText() + "' as PNG", e);
        }
        return "data:image/png;base64," + Base64.getEncoder().encodeToString(out.toByteArray());
    }
}
