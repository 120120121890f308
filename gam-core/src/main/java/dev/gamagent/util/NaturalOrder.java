package dev.gamagent.util;

import java.util.Comparator;

/**
 * Natural order of names: runs of digits compare as numbers ("frame2" before "frame10", "q2" before "q10"), leading
 * zeros aside, the rest character by character. Names that differ only in leading zeros ("q01", "q1") are equal
 * here; a caller that needs a total order breaks the tie itself.
 */
public final class NaturalOrder {
    /** {@link #compare} as a comparator. */
    public static final Comparator<String> COMPARATOR = NaturalOrder::compare;

    private NaturalOrder() { }

    public static int compare(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i), y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int si = i, sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) i++;
                while (j < b.length() && Character.isDigit(b.charAt(j))) j++;
                while (si < i - 1 && a.charAt(si) == '0') si++; // leading zeros do not change the number
                while (sj < j - 1 && b.charAt(sj) == '0') sj++;
                String da = a.substring(si, i), db = b.substring(sj, j);
                int c = da.length() != db.length() ? Integer.compare(da.length(), db.length()) : da.compareTo(db);
                if (c != 0) return c;
            } else {
                if (x != y) return Character.compare(x, y);
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
