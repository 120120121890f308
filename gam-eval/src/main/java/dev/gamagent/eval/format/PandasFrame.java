package dev.gamagent.eval.format;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A table as VLMEvalKit sees it after {@code pd.read_excel} / {@code pd.read_csv}: pandas' default NA
 * strings become missing, a column whose every value is numeric becomes int64 (float64 when a value is
 * missing or fractional), and every value is then what Python's {@code str()} prints, so an option "3"
 * in a column with a missing cell reads "3.0", as VLMEvalKit's matcher sees it. Missing values are null.
 * Column names are lower-cased except single capital letters (the option columns), as VLMEvalKit does.
 */
public final class PandasFrame {
    /** pandas' default {@code na_values} (pandas 2.x): a cell holding exactly one of these is missing. */
    static final Set<String> NA_STRINGS = Set.of("", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan",
            "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null");
    private static final Pattern INT = Pattern.compile("\\s*[+-]?\\d+\\s*");
    private static final Pattern FLOAT = Pattern.compile(
            "\\s*[+-]?(?:(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?|(?i:inf|infinity))\\s*");
    private static final Set<String> TRUE = Set.of("True", "TRUE", "true"), FALSE = Set.of("False", "FALSE", "false");

    private final List<String> columns;
    private final List<Map<String, String>> rows;

    private PandasFrame(List<String> columns, List<Map<String, String>> rows) {
        this.columns = List.copyOf(columns);
        this.rows = rows;
    }
public 
    List<String> columns() { return columns; }

    /** Each row: column name → Python str() of the value, null when missing. */
    public List<Map<String, String>> rows() { return rows; }

    /**
     * @param table header row first; values are String, Long, Double, Boolean or null. A text source
     *              (CSV, TSV) holds only strings, which are typed the way {@code read_csv} types them.
     */
    public static PandasFrame of(List<List<Object>> table) {
        if (table.isEmpty()) throw new IllegalArgumentException("empty table: expected a header row");
        List<Object> header = table.get(0);
        int width = header.size();
        for (List<Object> r : table) width = Math.max(width, r.size());
        List<String> names = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (int c = 0; c < width; c++) {
            Object h = c < header.size() ? header.get(c) : null;
            String name = h == null || (h instanceof String s && s.isEmpty()) ? "Unnamed: " + c : str(h);
            int dup = seen.merge(name, 1, Integer::sum) - 1;
            if (dup > 0) name = name + "." + dup; // pandas mangles repeated column names
            names.add(name.length() == 1 && name.charAt(0) >= 'A' && name.charAt(0) <= 'Z' ? name : name.toLowerCase(java.util.Locale.ROOT));
        }
        int n = table.size() - 1;
        while (n > 0 && table.get(n).stream().allMatch(v -> v == null || "".equals(v))) n--; // pandas drops trailing empty rows
        List<Map<String, String>> rows = new ArrayList<>();
        for (int r = 0; r < n; r++) rows.add(new LinkedHashMap<>());
        for (int c = 0; c < width; c++) {
            List<Object> col = new ArrayList<>(n);
            for (int r = 1; r <= n; r++) {
                List<Object> row = table.get(r);
                col.add(c < row.size() ? row.get(c) : null);
            }
            List<String> strs = column(col);
            for (int r = 0; r < n; r++) rows.get(r).put(names.get(c), strs.get(r));
        }
        return new PandasFrame(names, rows);
    }

    /** One column typed as pandas types it, then printed with Python's str(); missing values are null. */
    static List<String> column(List<Object> values) {
        List<Object> v = new ArrayList<>(values.size());
        boolean missing = false, numeric = true, integral = true, bool = true;
        int present = 0;
        for (Object o : values) {
            Object x = o instanceof String s && NA_STRINGS.contains(s) ? null : o;
            v.add(x);
            if (x == null) { missing = true; continue; }
            present++;
            if (x instanceof Long) { bool = false; continue; }
            if (x instanceof Double) { bool = false; integral = false; continue; }
            if (x instanceof Boolean) { numeric = false; continue; }
            String s = (String) x;
            bool &= TRUE.contains(s) || FALSE.contains(s);
            if (INT.matcher(s).matches()) continue;
            if (FLOAT.matcher(s).matches()) { integral = false; continue; }
            numeric = false;
        }
        List<String> out = new ArrayList<>(v.size());
        if (present > 0 && numeric) {
            boolean asFloat = missing || !integral;
            for (Object x : v) {
                if (x == null) out.add(null);
                else if (asFloat) out.add(repr(toDouble(x)));
                else out.add(x instanceof Long l ? Long.toString(l) : Long.toString(Long.parseLong(((String) x).strip().replace("+", ""))));
            }
            return out;
        }
        if (present > 0 && bool) {
            for (Object x : v) out.add(x == null ? null : x instanceof Boolean b ? (b ? "True" : "False") : TRUE.contains((String) x) ? "True" : "False");
            return out;
        }
        for (Object x : v) out.add(x == null ? null : str(x));
        return out;
    }

    private static double toDouble(Object x) {
        if (x instanceof Long l) return l;
        if (x instanceof Double d) return d;
        String s = ((String) x).strip();
        String low = s.toLowerCase(java.util.Locale.ROOT);
        if (low.endsWith("inf") || low.endsWith("infinity")) return s.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        return Double.parseDouble(s);
    }

    /** Python's str() of one value. */
    static String str(Object x) {
        if (x == null) return "nan";
        if (x instanceof Double d) return repr(d);
        if (x instanceof Boolean b) return b ? "True" : "False";
        return x.toString();
    }

    /**
     * Python's {@code repr(float)}: the shortest digits that read back as the same double, fixed notation
     * for exponents -5 &lt; e &lt; 16 (with ".0" when integral), else "1e-05" / "1e+16".
     */
    public static String repr(double d) {
        if (Double.isNaN(d)) return "nan";
        if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
        if (d == 0) return (1 / d < 0) ? "-0.0" : "0.0";
        BigDecimal exact = new BigDecimal(d);
        BigDecimal shortest = exact;
        for (int p = 1; p <= 17; p++) {
            BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (r.doubleValue() == d) { shortest = r; break; }
        }
        shortest = shortest.stripTrailingZeros();
        String digits = shortest.unscaledValue().abs().toString();
        int decpt = digits.length() - shortest.scale(); // value = 0.DIGITS × 10^decpt
        StringBuilder sb = new StringBuilder(d < 0 ? "-" : "");
        if (decpt > -4 && decpt <= 16) {
            if (decpt <= 0) sb.append("0.").append("0".repeat(-decpt)).append(digits);
            else if (decpt >= digits.length()) sb.append(digits).append("0".repeat(decpt - digits.length())).append(".0");
            else sb.append(digits, 0, decpt).append('.').append(digits.substring(decpt));
            return sb.toString();
        }
        sb.append(digits.charAt(0));
        if (digits.length() > 1) sb.append('.').append(digits.substring(1));
        int exp = decpt - 1;
        sb.append('e').append(exp < 0 ? '-' : '+');
        String e = Integer.toString(Math.abs(exp));
        return sb.append(e.length() < 2 ? "0" + e : e).toString();
    }
}
