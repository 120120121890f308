package dev.gamagent.util;

/**
 * Levenshtein distance (insertions, deletions and substitutions of one character each cost 1), and the same with a
 * swap of two neighbouring characters costing 1 too ({@link #withTranspositions}), the commonest typo in a name.
 */
public final class EditDistance {
    private EditDistance() { }

    /** Levenshtein distance of the UTF-16 characters of {@code a} and {@code b}. */
    public static int between(String a, String b) {
        return of(a.chars().toArray(), b.chars().toArray());
    }

    /** Levenshtein distance of the code points of {@code a} and {@code b}, as Python's strings count characters. */
    public static int betweenCodePoints(String a, String b) {
        return of(a.codePoints().toArray(), b.codePoints().toArray());
    }

    private static int of(int[] a, int[] b) {
        int[] prev = new int[b.length + 1], cur = new int[b.length + 1];
        for (int j = 0; j <= b.length; j++) prev[j] = j;
        for (int i = 1; i <= a.length; i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length; j++) {
                int sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length];
    }

    /** Optimal string alignment distance: Levenshtein plus adjacent transpositions at cost 1 ("gma" → "gam" is 1, not 2). */
    public static int withTranspositions(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1));
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
