package dev.gamagent.eval.stats;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every pair of methods compared on the items both graded: McNemar's exact test, the difference in accuracy with
 * its interval, and Holm's correction across the pairs of one family (the uncorrected p stays beside it). A family is
 * the series of one benchmark: series of different benchmarks are never compared, and each benchmark's pairs are
 * corrected among themselves ({@link #compareFamilies}). The unit is the graded item: a question, or a circular group
 * (right only when every rotation is right).
 */
public final class Pairwise {
    private Pairwise() { }

    public static final double ALPHA = 0.05;
    public static final double LEVEL = 0.95;

    /**
     * One pair: {@code method} against {@code versus} (the method listed earlier, usually the baseline).
     * {@code n} items both graded; {@code onlyMethod} right only for {@code method}, {@code onlyVersus} only for
     * {@code versus}; {@code difference} = accuracy(method) − accuracy(versus) on those items, {@code differenceCi} its
     * interval; {@code p} McNemar's exact two-sided p, {@code pHolm} after Holm's correction; {@code significant}
     * when pHolm &lt; α; {@code family} the benchmark whose pairs Holm's correction spans (null: the only family, one run's methods).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Pair(String method, String versus, int n, int methodRight, int versusRight, int onlyMethod, int onlyVersus,
                       Double difference, Interval differenceCi, double p, double pHolm, boolean significant, String family) {
        public PairedTable table() {
            return new PairedTable(methodRight - onlyMethod, onlyMethod, onlyVersus, n - methodRight - onlyVersus);
        }
    }

    /** What was computed and how, with the pairs: the block {@code summary.json} keeps as {@code statistics}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Report(String interval, String differenceInterval, double level, String test, double alpha, List<Pair> pairs) {
        /** The pair of these two names in either order, or null. */
        public Pair find(String a, String b) {
            for (Pair p : pairs) if (p.method().equals(a) && p.versus().equals(b) || p.method().equals(b) && p.versus().equals(a)) return p;
            return null;
        }
    }

    /**
     * All pairs of the given series (name → item id → right), each later series against each earlier one, in order.
     * Items missing from either side are left out of that pair.
     */
    public static Report compare(Map<String, Map<String, Boolean>> items, IntervalMethod method) {
        List<Pair> pairs = family(items, method, null);
        return new Report(method.label(), method.differenceLabel(), LEVEL,
                "McNemar's exact test (two-sided) on the items both methods graded; Holm's correction across the " + pairs.size()
                        + (pairs.size() == 1 ? " pair" : " pairs"), ALPHA, pairs);
    }

    /**
     * The pairs of several families (family → series → item id → right): each family's series against each other as
     * {@link #compare} does, Holm's correction within the family; series of different families are not compared.
     */
    public static Report compareFamilies(Map<String, Map<String, Map<String, Boolean>>> families, IntervalMethod method) {
        List<Pair> pairs = new ArrayList<>();
        List<String> sizes = new ArrayList<>();
        for (var f : families.entrySet()) {
            List<Pair> mine = family(f.getValue(), method, f.getKey());
            pairs.addAll(mine);
            if (!mine.isEmpty()) sizes.add(mine.size() + (mine.size() == 1 ? " pair" : " pairs") + " of " + f.getKey());
        }
        return new Report(method.label(), method.differenceLabel(), LEVEL,
                "McNemar's exact test (two-sided) on the items both methods graded; Holm's correction within each benchmark ("
                        + (sizes.isEmpty() ? "no pairs" : String.join(", ", sizes)) + ")", ALPHA, pairs);
    }

    /** The number of pairs Holm's correction spans for {@code p}: those of its family. */
    public static long familySize(Report report, Pair p) {
        return report.pairs().stream().filter(q -> java.util.Objects.equals(q.family(), p.family())).count();
    }

    private static List<Pair> family(Map<String, Map<String, Boolean>> items, IntervalMethod method, String familyName) {
        List<String> names = new ArrayList<>(items.keySet());
        List<PairedTable> tables = new ArrayList<>();
        List<String[]> who = new ArrayList<>();
        for (int j = 1; j < names.size(); j++) {
            for (int i = 0; i < j; i++) {
                tables.add(table(items.get(names.get(j)), items.get(names.get(i))));
                who.add(new String[]{names.get(j), names.get(i)});
            }
        }
        double[] p = new double[tables.size()];
        for (int k = 0; k < p.length; k++) p[k] = tables.get(k).mcNemarP();
        double[] holm = Holm.adjust(p);
        List<Pair> pairs = new ArrayList<>();
        for (int k = 0; k < p.length; k++) {
            PairedTable t = tables.get(k);
            pairs.add(new Pair(who.get(k)[0], who.get(k)[1], t.n(), t.firstRight(), t.secondRight(), t.onlyFirst(), t.onlySecond(),
                    t.n() == 0 ? null : t.difference(), method.difference(t, LEVEL), p[k], holm[k], holm[k] < ALPHA, familyName));
        }
        return pairs;
    }

    /** The 2×2 table of two series on the items both graded. */
    public static PairedTable table(Map<String, Boolean> first, Map<String, Boolean> second) {
        int e = 0, f = 0, g = 0, h = 0;
        for (var x : first.entrySet()) {
            Boolean other = second.get(x.getKey());
            if (other == null || x.getValue() == null) continue;
            if (x.getValue()) { if (other) e++; else f++; } else { if (other) g++; else h++; }
        }
        return new PairedTable(e, f, g, h);
    }
}
