package dev.gamagent.local;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A probability distribution over named values (option texts, colours, counts, characters), in the
 * order the values were given. Always normalised; ties in {@link #best()} go to the earlier value.
 */
public record Distribution(List<String> values, double[] probabilities) {
    /** Mass mixed in uniformly so no value is impossible (a log-prob of −inf would break the estimators). */
    static final double FLOOR = 0.01;

    public Distribution {
        values = List.copyOf(values);
        if (values.isEmpty()) throw new IllegalArgumentException("a distribution needs at least one value");
        if (probabilities.length != values.size()) {
            throw new IllegalArgumentException(values.size() + " values but " + probabilities.length + " probabilities");
        }
        double sum = 0;
        for (double p : probabilities) sum += Double.isFinite(p) && p > 0 ? p : 0;
        double[] n = new double[probabilities.length];
        for (int i = 0; i < n.length; i++) {
            double p = Double.isFinite(probabilities[i]) && probabilities[i] > 0 ? probabilities[i] : 0;
            n[i] = sum > 0 ? p / sum : 1.0 / n.length;
        }
        probabilities = n;
    }

    public static Distribution uniform(List<String> values) {
        return new Distribution(values, new double[values.size()]);
    }

    /** From unnormalised weights. */
    public static Distribution of(List<String> values, double[] weights) { return new Distribution(values, weights); }

    /** From log-weights (a softmax), stable for very negative values. */
    public static Distribution fromLog(List<String> values, double[] logWeights) {
        double max = Double.NEGATIVE_INFINITY;
        for (double l : logWeights) max = Math.max(max, l);
        double[] w = new double[logWeights.length];
        for (int i = 0; i < w.length; i++) w[i] = Double.isFinite(max) ? Math.exp(logWeights[i] - max) : 1;
        return new Distribution(values, w);
    }

    public double p(int i) { return probabilities[i]; }

    public double p(String value) {
        if (value == null) return 0;
        int i = values.indexOf(value);
        return i < 0 ? 0 : probabilities[i];
    }

    public int size() { return values.size(); }

    public int bestIndex() {
        int b = 0;
        for (int i = 1; i < probabilities.length; i++) if (probabilities[i] > probabilities[b] + 1e-12) b = i;
        return b;
    }

    public String best() { return values.get(bestIndex()); }

    public double bestProbability() { return probabilities[bestIndex()]; }

    /** Mixed with the uniform distribution: (1 − ε)·p + ε/K. */
    public Distribution smoothed(double epsilon) {
        double[] s = new double[probabilities.length];
        for (int i = 0; i < s.length; i++) s[i] = (1 - epsilon) * probabilities[i] + epsilon / s.length;
        return new Distribution(values, s);
    }

    /** Entropy over ln K: 0 = certain, 1 = uniform. */
    public double normalisedEntropy() {
        if (probabilities.length < 2) return 0;
        double h = 0;
        for (double p : probabilities) if (p > 0) h -= p * Math.log(p);
        return h / Math.log(probabilities.length);
    }

    /** The same probabilities under other names (e.g. option texts → letters). */
    public Distribution renamed(List<String> newValues) { return new Distribution(newValues, probabilities); }

    /** Mixture Σ w_i·d_i of distributions over the same values. */
    public static Distribution mixture(List<Distribution> parts, double[] weights) {
        List<String> vals = parts.get(0).values();
        double[] m = new double[vals.size()];
        for (int k = 0; k < parts.size(); k++) {
            for (int i = 0; i < m.length; i++) m[i] += weights[k] * parts.get(k).p(i);
        }
        return new Distribution(vals, m);
    }

    public Map<String, Double> asMap() {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < values.size(); i++) m.merge(values.get(i), probabilities[i], Double::sum);
        return m;
    }

    /** Values sorted by probability, most probable first (stable for ties). */
    public List<Integer> ranking() {
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) idx.add(i);
        idx.sort((a, b) -> Double.compare(probabilities[b], probabilities[a]));
        return idx;
    }

    /** The five most probable values, for evidence and reasons. */
    @Override public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (int i : ranking().subList(0, Math.min(5, values.size()))) {
            if (sb.length() > 1) sb.append(", ");
            sb.append(values.get(i)).append('=').append(String.format(java.util.Locale.ROOT, "%.3f", probabilities[i]));
        }
        return sb.append('}').toString();
    }
}
