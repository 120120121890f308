package dev.gamagent.eval.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The statistics behind the calibration and uncertainty metrics (definitions in docs/metrics.md).
 * Pure functions over arrays, so each is tested against hand-computed values.
 */
public final class Calibration {
    private Calibration() { }

    /** One reliability-diagram bin: [lo, hi), its size, mean confidence and accuracy (null when empty). */
    public record Bin(double lo, double hi, int count, Double meanConfidence, Double accuracy) { }

    /** Equal-width bins over [0,1]; a confidence of exactly 1 falls in the last bin. */
    public static List<Bin> reliability(double[] confidence, boolean[] correct, int bins) {
        int[] n = new int[bins];
        double[] conf = new double[bins], acc = new double[bins];
        for (int i = 0; i < confidence.length; i++) {
            double c = Math.max(0, Math.min(1, confidence[i]));
            int b = Math.min(bins - 1, (int) Math.floor(c * bins));
            n[b]++;
            conf[b] += c;
            acc[b] += correct[i] ? 1 : 0;
        }
        List<Bin> out = new ArrayList<>(bins);
        for (int b = 0; b < bins; b++) {
            out.add(new Bin((double) b / bins, (double) (b + 1) / bins, n[b],
                    n[b] == 0 ? null : conf[b] / n[b], n[b] == 0 ? null : acc[b] / n[b]));
        }
        return out;
    }

    /** Expected calibration error (Guo et al. 2017): Σ_b |B_b|/n · |acc(B_b) − conf(B_b)|; NaN when empty. */
    public static double ece(double[] confidence, boolean[] correct, int bins) {
        if (confidence.length == 0) return Double.NaN;
        double sum = 0;
        for (Bin b : reliability(confidence, correct, bins)) {
            if (b.count() > 0) sum += (double) b.count() / confidence.length * Math.abs(b.accuracy() - b.meanConfidence());
        }
        return sum;
    }

    /**
     * Area under the ROC curve of {@code score} for detecting {@code positive}: the probability that a
     * random positive scores higher than a random negative, ties counting one half (Mann–Whitney U / n⁺n⁻).
     * NaN when either class is empty.
     */
    public static double auroc(double[] score, boolean[] positive) {
        double[] r = ranks(score);
        long pos = 0, neg = 0;
        double rankSum = 0;
        for (int i = 0; i < score.length; i++) {
            if (positive[i]) { pos++; rankSum += r[i]; } else neg++;
        }
        if (pos == 0 || neg == 0) return Double.NaN;
        return (rankSum - pos * (pos + 1) / 2.0) / ((double) pos * neg);
    }

    /** Balanced accuracy of the rule "positive iff score > threshold": (TPR + TNR) / 2; NaN when a class is empty. */
    public static double balancedAccuracy(double[] score, boolean[] positive, double threshold) {
        long tp = 0, fn = 0, tn = 0, fp = 0;
        for (int i = 0; i < score.length; i++) {
            boolean flagged = score[i] > threshold;
            if (positive[i]) { if (flagged) tp++; else fn++; } else { if (flagged) fp++; else tn++; }
        }
        if (tp + fn == 0 || tn + fp == 0) return Double.NaN;
        return ((double) tp / (tp + fn) + (double) tn / (tn + fp)) / 2;
    }

    /** Spearman's ρ: Pearson correlation of the average ranks; NaN when fewer than 2 points or a constant series. */
    public static double spearman(double[] x, double[] y) {
        if (x.length != y.length) throw new IllegalArgumentException("spearman: " + x.length + " x values but " + y.length + " y values");
        if (x.length < 2) return Double.NaN;
        return pearson(ranks(x), ranks(y));
    }

    static double pearson(double[] a, double[] b) {
        double ma = Arrays.stream(a).average().orElse(0), mb = Arrays.stream(b).average().orElse(0);
        double sab = 0, saa = 0, sbb = 0;
        for (int i = 0; i < a.length; i++) {
            sab += (a[i] - ma) * (b[i] - mb);
            saa += (a[i] - ma) * (a[i] - ma);
            sbb += (b[i] - mb) * (b[i] - mb);
        }
        if (saa == 0 || sbb == 0) return Double.NaN;
        return sab / Math.sqrt(saa * sbb);
    }

    /** 1-based ranks, ties given the average of the ranks they span. */
    static double[] ranks(double[] x) {
        Integer[] idx = new Integer[x.length];
        for (int i = 0; i < x.length; i++) idx[i] = i;
        Arrays.sort(idx, (i, j) -> Double.compare(x[i], x[j]));
        double[] r = new double[x.length];
        int i = 0;
        while (i < x.length) {
            int j = i;
            while (j + 1 < x.length && x[idx[j + 1]] == x[idx[i]]) j++;
            double avg = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) r[idx[k]] = avg;
            i = j + 1;
        }
        return r;
    }
}
