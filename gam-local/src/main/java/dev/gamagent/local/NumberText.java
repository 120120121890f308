package dev.gamagent.local;

import java.util.Locale;
import java.util.Map;

/**
 * Numbers as options and answers write them: a count ("3", "three"), a value ("1,200", "45%", "$7.5") and a value
 * written back ("12", "7.5").
 */
final class NumberText {
    private static final Map<String, Integer> NUMBER_WORDS = numberWords();

    private NumberText() { }

    static String format(double v) {
        if (Math.abs(v - Math.rint(v)) < 0.05) return Long.toString(Math.round(v));
        return String.format(Locale.ROOT, "%.1f", v);
    }

    static Integer parseCount(String s) {
        String t = TextLikelihood.normalise(s);
        if (t.matches("\\d+")) return Integer.parseInt(t);
        return NUMBER_WORDS.get(t);
    }

    static Double parseNumber(String s) {
        String t = s == null ? "" : s.strip().replace(",", "").replace("%", "").replace("$", "");
        if (t.matches("-?\\d+(\\.\\d+)?")) return Double.parseDouble(t);
        Integer w = NUMBER_WORDS.get(t.toLowerCase(Locale.ROOT));
        return w == null ? null : w.doubleValue();
    }

    private static Map<String, Integer> numberWords() {
        String[] w = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"};
        Map<String, Integer> m = new java.util.HashMap<>();
        for (int i = 0; i < w.length; i++) m.put(w[i], i);
        return Map.copyOf(m);
    }
}
