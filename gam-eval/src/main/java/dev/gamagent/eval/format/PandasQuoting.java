package dev.gamagent.eval.format;

/**
 * Fields as pandas writes them ({@code to_csv}), the one writer beside the one reader ({@link PandasTable}): quoted with
 * {@code "} when they must be (QUOTE_MINIMAL: a separator, a quote, CR or LF inside), or always (QUOTE_ALL, as
 * VLMEvalKit's {@code dump} writes {@code *_acc.csv}); a quote inside is doubled.
 */
public final class PandasQuoting {
    private PandasQuoting() { }

    /** {@code s} as one field of a file separated by {@code separator}: quoted only when it holds the separator, a quote, CR or LF; null is empty. */
    public static String field(String s, char separator) {
        if (s == null) return "";
        if (s.indexOf(separator) < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0 && s.indexOf('"') < 0) return s;
        return quoted(s);
    }

    /** {@code s} in quotes, a quote inside doubled. */
    public static String quoted(String s) { return '"' + s.replace("\"", "\"\"") + '"'; }
}
