package dev.gamagent.local;

import dev.gamagent.local.ocr.TextLine;

import java.util.List;
import java.util.Locale;

/**
 * The probability of a string under an OCR line's per-character distributions, tolerant to edits: a
 * Viterbi alignment where matching candidate character c at line position i costs −log P_i(c)
 * (case-insensitive), a skipped line character or a missing candidate character costs −log 0.02, and
 * the candidate may match any whole-word span of the line (signs often carry more than one word).
 */
final class TextLikelihood {
    private static final double LOG_EDIT = Math.log(0.02);
    private static final double MIN_P = 1e-4;

    private TextLikelihood() { }

    static double logLikelihood(TextLine line, String candidate) {
        String cand = normalise(candidate);
        List<TextLine.CharDistribution> cs = line.chars();
        int n = cs.size(), m = cand.length();
        if (n == 0) return m * LOG_EDIT;
        double[][] d = new double[n + 1][m + 1];
        for (double[] row : d) java.util.Arrays.fill(row, Double.NEGATIVE_INFINITY);
        for (int i = 0; i <= n; i++) if (i == 0 || boundary(cs.get(i - 1))) d[i][0] = 0;
        for (int i = 0; i <= n; i++) {
            for (int j = 0; j <= m; j++) {
                double v = d[i][j];
                if (v == Double.NEGATIVE_INFINITY) continue;
                if (j < m) d[i][j + 1] = Math.max(d[i][j + 1], v + LOG_EDIT);
                if (i < n) {
                    d[i + 1][j] = Math.max(d[i + 1][j], v + LOG_EDIT);
                    if (j < m) d[i + 1][j + 1] = Math.max(d[i + 1][j + 1], v + Math.log(charProbability(cs.get(i), cand.charAt(j))));
                }
            }
        }
        double best = Double.NEGATIVE_INFINITY;
        for (int e = 0; e <= n; e++) if (e == n || boundary(cs.get(e))) best = Math.max(best, d[e][m]);
        return best;
    }

    /** Mean log-probability per candidate character: comparable across strings of different length. */
    static double perCharacter(TextLine line, String candidate) {
        return logLikelihood(line, candidate) / Math.max(1, normalise(candidate).length());
    }

    /** P_i(c), case-insensitive; a character outside the top-k shares the residual mass. */
    static double charProbability(TextLine.CharDistribution d, char c) {
        double p = 0, sum = 0;
        for (TextLine.Candidate k : d.top()) {
            sum += k.probability();
            String ch = k.character();
            if (ch.length() == 1 && Character.toLowerCase(ch.charAt(0)) == Character.toLowerCase(c)) p += k.probability();
        }
        if (p > 0) return Math.min(1, p);
        return Math.max(MIN_P, (1 - sum) / 50);
    }

    private static boolean boundary(TextLine.CharDistribution d) {
        String s = d.top().get(0).character();
        return s.isEmpty() || !Character.isLetterOrDigit(s.charAt(0));
    }

    static String normalise(String s) {
        return s == null ? "" : s.strip().replaceAll("^[\"'“”]+|[\"'“”]+$", "").toLowerCase(Locale.ROOT);
    }
}
