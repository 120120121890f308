package dev.gamagent.eval.stats;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Each statistic against published or hand-computed values. */
class StatsTest {
    @Test void theNormalQuantileAndCdfMatchTabulatedValues() {
        assertThat(Normal.twoSidedZ(0.95)).isCloseTo(1.959963984540054, within(1e-12));
        assertThat(Normal.twoSidedZ(0.99)).isCloseTo(2.5758293035489004, within(1e-12));
        assertThat(Normal.cdf(1.96)).isCloseTo(0.9750021048517795, within(1e-14));
        assertThat(Normal.cdf(-1)).isCloseTo(0.15865525393145707, within(1e-14));
        assertThat(Normal.cdf(0)).isEqualTo(0.5);
    }

    /** Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table II, method 3 (Wilson, no correction). */
    @Test void wilsonIntervalsMatchNewcombesPublishedExamples() {
        assertInterval(Binomial.wilson(81, 263, 0.95), 0.2553, 0.3662);
        assertInterval(Binomial.wilson(15, 148, 0.95), 0.0624, 0.1605);
        assertInterval(Binomial.wilson(0, 20, 0.95), 0.0, 0.1611);
        assertInterval(Binomial.wilson(1, 29, 0.95), 0.0061, 0.1718);
        assertThat(Binomial.wilson(0, 20, 0.95).lo()).as("exactly 0 at no successes").isZero();
        assertThat(Binomial.wilson(20, 20, 0.95).hi()).as("exactly 1 at all successes").isEqualTo(1.0);
        assertThat(Binomial.wilson(0, 0, 0.95)).as("nothing graded: no interval").isNull();
        assertThatThrownBy(() -> Binomial.wilson(3, 2, 0.95)).hasMessageContaining("out of range");
    }

    /** The exact sign test on the discordant pairs: hand-computed binomial sums. */
    @Test void mcNemarsExactTestIsTheDoubledBinomialTail() {
        assertThat(Binomial.mcNemarExact(5, 0)).as("2 · (1/2)^5; Altman et al. 2000, Table 6.2").isEqualTo(0.0625);
        assertThat(Binomial.mcNemarExact(12, 2)).as("2 · (1 + 14 + 91) / 2^14").isCloseTo(2.0 * 106 / 16384, within(1e-15));
        assertThat(Binomial.mcNemarExact(1, 10)).as("2 · (1 + 11) / 2^11").isCloseTo(24.0 / 2048, within(1e-15));
        assertThat(Binomial.mcNemarExact(3, 3)).isEqualTo(1.0);
        assertThat(Binomial.mcNemarExact(0, 0)).as("no discordant item: no evidence").isEqualTo(1.0);
        assertThat(Binomial.mcNemarExact(1, 0)).as("capped at 1").isEqualTo(1.0);
        // far beyond where 2^-n underflows a double: the same value as an exact rational sum
        assertThat(Binomial.mcNemarExact(1180, 1020)).isCloseTo(exactTwoSided(1180, 1020), within(1e-13));
        assertThat(Binomial.mcNemarExact(40, 12)).isCloseTo(exactTwoSided(40, 12), within(1e-15));
    }

    private static double exactTwoSided(int b, int c) {
        int n = b + c, m = Math.min(b, c);
        BigInteger sum = BigInteger.ZERO, choose = BigInteger.ONE;
        for (int i = 0; i <= m; i++) {
            if (i > 0) choose = choose.multiply(BigInteger.valueOf(n - i + 1)).divide(BigInteger.valueOf(i));
            sum = sum.add(choose);
        }
        return new BigDecimal(sum.shiftLeft(1)).divide(new BigDecimal(BigInteger.ONE.shiftLeft(n)), MathContext.DECIMAL128).min(BigDecimal.ONE).doubleValue();
    }

    /** Newcombe (1998), "Improved confidence intervals for the difference between binomial proportions based on paired data", Table II, method 10. */
    @Test void theDifferenceIntervalMatchesNewcombesPublishedPairedExamples() {
        PairedTable a = new PairedTable(36, 12, 2, 0);
        assertThat(a.difference()).isCloseTo(0.2, within(1e-15));
        assertInterval(a.newcombe(0.95), 0.0569, 0.3404);
        assertInterval(new PairedTable(18, 12, 2, 18).newcombe(0.95), 0.0562, 0.3290);
        assertInterval(new PairedTable(53, 0, 0, 1).newcombe(0.95), -0.0729, 0.0729);
        assertInterval(new PairedTable(0, 30, 0, 0).newcombe(0.95), 0.8395, 1.0);
        assertThat(new PairedTable(0, 0, 0, 0).newcombe(0.95)).isNull();
        // swapping the methods mirrors the interval
        Interval swapped = new PairedTable(36, 2, 12, 0).newcombe(0.95);
        assertThat(swapped.lo()).isCloseTo(-a.newcombe(0.95).hi(), within(1e-12));
    }

    /** R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02. */
    @Test void holmsCorrectionStepsDownAndStaysMonotone() {
        double[] adj = Holm.adjust(new double[]{0.01, 0.04, 0.03, 0.005});
        assertThat(adj[0]).isCloseTo(0.03, within(1e-15));
        assertThat(adj[1]).isCloseTo(0.06, within(1e-15));
        assertThat(adj[2]).isCloseTo(0.06, within(1e-15));
        assertThat(adj[3]).isCloseTo(0.02, within(1e-15));
        assertThat(Holm.adjust(new double[]{0.5, 0.9})).containsExactly(1.0, 1.0);
        assertThat(Holm.adjust(new double[]{0.2})).containsExactly(0.2);
        assertThat(Holm.adjust(new double[0])).isEmpty();
    }

    @Test void bootstrapIntervalsAreReproducibleAndAgreeWithTheScoreIntervalsOnLargeSamples() {
        Interval b = Bootstrap.proportion(280, 400, 0.95, 4000, 1);
        Interval w = Binomial.wilson(280, 400, 0.95);
        assertThat(b.lo()).isCloseTo(w.lo(), within(0.01));
        assertThat(b.hi()).isCloseTo(w.hi(), within(0.01));
        assertThat(Bootstrap.proportion(280, 400, 0.95, 4000, 1)).as("same seed, same interval").isEqualTo(b);
        assertThat(Bootstrap.proportion(7, 7, 0.95, 500, 1)).isEqualTo(new Interval(1, 1));
        assertThat(Bootstrap.proportion(0, 0, 0.95, 500, 1)).isNull();

        PairedTable t = new PairedTable(180, 120, 20, 180);
        Interval d = Bootstrap.difference(t, 0.95, 4000, 1), n = t.newcombe(0.95);
        assertThat(d.contains(t.difference())).isTrue();
        assertThat(d.lo()).isCloseTo(n.lo(), within(0.015));
        assertThat(d.hi()).isCloseTo(n.hi(), within(0.015));
        assertThat(Bootstrap.difference(new PairedTable(5, 0, 0, 5), 0.95, 500, 1)).as("no discordant item").isEqualTo(new Interval(0, 0));
        assertThat(IntervalMethod.BOOTSTRAP.label()).contains("bootstrap");
        assertThat(IntervalMethod.of("Wilson")).isEqualTo(IntervalMethod.WILSON);
        assertThatThrownBy(() -> IntervalMethod.of("wald")).hasMessageContaining("use wilson or bootstrap");
    }

    @Test void everyPairIsComparedOnTheItemsBothGradedWithHolmAcrossThePairs() {
        Map<String, Map<String, Boolean>> items = new LinkedHashMap<>();
        Map<String, Boolean> base = new LinkedHashMap<>(), better = new LinkedHashMap<>(), partial = new LinkedHashMap<>();
        for (int i = 0; i < 40; i++) {
            base.put("q" + i, i < 20);           // 20 of 40
            better.put("q" + i, i < 20 || i < 32); // 32 of 40: right on 12 more, wrong on none
            if (i % 2 == 0) partial.put("q" + i, i < 10); // 20 items; q0..q8 right (5)
        }
        items.put("base", base);
        items.put("better", better);
        items.put("partial", partial);
        Pairwise.Report r = Pairwise.compare(items, IntervalMethod.WILSON);
        assertThat(r.pairs()).extracting(Pairwise.Pair::method, Pairwise.Pair::versus)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("better", "base"), org.assertj.core.groups.Tuple.tuple("partial", "base"),
                        org.assertj.core.groups.Tuple.tuple("partial", "better"));
        Pairwise.Pair first = r.pairs().get(0);
        assertThat(first.n()).isEqualTo(40);
        assertThat(first.onlyMethod()).isEqualTo(12);
        assertThat(first.onlyVersus()).isZero();
        assertThat(first.difference()).isCloseTo(0.3, within(1e-15));
        assertThat(first.p()).isCloseTo(2.0 / 4096, within(1e-15));
        Pairwise.Pair second = r.pairs().get(1);
        assertThat(second.n()).as("only the items both graded").isEqualTo(20);
        assertThat(second.methodRight()).isEqualTo(5);
        assertThat(second.versusRight()).isEqualTo(10);
        assertThat(second.onlyVersus()).isEqualTo(5);
        assertThat(second.p()).isEqualTo(0.0625);
        Pairwise.Pair third = r.pairs().get(2);
        assertThat(third.onlyVersus()).isEqualTo(11); // better is right on q0..q30 even, partial only on q0..q8
        assertThat(third.p()).isCloseTo(2.0 / 2048, within(1e-15));
        // Holm over the three: 3·p(1), 2·p(2), 1·p(3), kept monotone
        assertThat(first.pHolm()).isCloseTo(3 * first.p(), within(1e-15));
        assertThat(third.pHolm()).isCloseTo(2 * third.p(), within(1e-15));
        assertThat(second.pHolm()).isEqualTo(0.0625);
        assertThat(List.of(first.significant(), second.significant(), third.significant())).containsExactly(true, false, true);
        assertThat(first.differenceCi()).isEqualTo(first.table().newcombe(0.95));
        assertThat(r.test()).contains("Holm", "3 pairs");
        assertThat(r.find("base", "partial")).isSameAs(second);
        assertThat(Pairwise.compare(Map.of("only", base), IntervalMethod.WILSON).pairs()).isEmpty();
    }

    private static void assertInterval(Interval i, double lo, double hi) {
        assertThat(i.lo()).as("lower bound of " + i).isCloseTo(lo, within(0.00005));
        assertThat(i.hi()).as("upper bound of " + i).isCloseTo(hi, within(0.00005));
    }
}
