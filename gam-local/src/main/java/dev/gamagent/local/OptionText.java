package dev.gamagent.local;

import dev.gamagent.util.EditDistance;

import java.util.Collection;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Which option a sentence (a claim, a correction) states as the answer. */
final class OptionText {
    private static final Pattern QUOTED = Pattern.compile("[\"“]([^\"”]{1,60})[\"”]");

    private OptionText() { }

    /**
     * The option {@code text} names: a quoted option (or the option nearest a quoted reading, within a
     * quarter of its letters), else the option written last as a whole word; null when none is.
     */
    static String named(String text, Collection<String> options) {
        if (text == null || options.isEmpty()) return null;
        Matcher q = QUOTED.matcher(text);
        while (q.find()) {
            String said = norm(q.group(1));
            String best = null;
            int bestD = Integer.MAX_VALUE;
            for (String o : options) {
                int d = EditDistance.between(said, norm(o));
                if (d < bestD) { bestD = d; best = o; }
            }
            if (best != null && bestD <= Math.max(1, norm(best).length() / 4)) return best;
        }
        String lower = text.toLowerCase(Locale.ROOT);
        java.util.List<int[]> spans = new java.util.ArrayList<>();
        java.util.List<String> which = new java.util.ArrayList<>();
        for (String o : options) {
            String n = norm(o);
            if (n.isEmpty()) continue;
            Matcher m = Pattern.compile("(?<![a-z0-9])" + Pattern.quote(n) + "(?![a-z0-9])").matcher(lower);
            while (m.find()) { spans.add(new int[]{m.start(), m.end()}); which.add(o); }
        }
        String hit = null;
        int at = -1;
        for (int i = 0; i < spans.size(); i++) {
            int[] a = spans.get(i);
            boolean inside = false; // "star" inside "green star" is part of the longer option
            for (int[] b : spans) if (b != a && b[0] <= a[0] && a[1] <= b[1] && b[1] - b[0] > a[1] - a[0]) inside = true;
            if (!inside && a[0] > at) { at = a[0]; hit = which.get(i); }
        }
        return hit;
    }

    static String norm(String s) { return s == null ? "" : s.strip().toLowerCase(Locale.ROOT); }
}
