package dev.gamagent.eval.format;

import java.util.ArrayList;
import java.util.List;

/**
 * A Python list of strings as pandas writes it into a TSV cell ({@code ['3/11', "Tom's", 'c']}): the
 * form of MathVista's {@code choices} column, which VLMEvalKit reads with {@code eval}. Anything else
 * (None, nan, a number list, broken quoting) reads as no list.
 */
public final class PythonList {
    private PythonList() { }

    /** The strings of the list, or an empty list when the text is not a Python list of string literals. */
    public static List<String> strings(String text) {
        if (text == null) return List.of();
        String t = text.strip();
        if (t.length() < 2 || t.charAt(0) != '[' || t.charAt(t.length() - 1) != ']') return List.of();
        List<String> out = new ArrayList<>();
        int i = 1, end = t.length() - 1;
        while (true) {
            while (i < end && Character.isWhitespace(t.charAt(i))) i++;
            if (i >= end) return out;
            char q = t.charAt(i);
            if (q != '\'' && q != '"') return List.of();
            StringBuilder sb = new StringBuilder();
            i++;
            boolean closed = false;
            while (i < end) {
                char c = t.charAt(i++);
                if (c == '\\' && i < end) {
                    char n = t.charAt(i++);
                    sb.append(switch (n) { case 'n' -> '\n'; case 't' -> '\t'; default -> n; });
                } else if (c == q) {
                    closed = true;
                    break;
                } else {
                    sb.append(c);
                }
            }
            if (!closed) return List.of();
            out.add(sb.toString());
            while (i < end && Character.isWhitespace(t.charAt(i))) i++;
            if (i < end && t.charAt(i) == ',') i++;
            else if (i < end) return List.of();
        }
    }
}
