package dev.gamagent.eval.data.m3mad;

import java.util.List;
import java.util.Map;

/**
 * Python's {@code json.dump(obj, f, indent=4)} (with its default {@code ensure_ascii=True}) for the values an M3MAD
 * record holds, so a built file is byte for byte what the script writes but for the image paths; and Python's
 * {@code str()} of a value read from a source.
 */
final class PythonJson {
    private PythonJson() { }

    static String dump(Object o) {
        StringBuilder b = new StringBuilder();
        write(b, o, 0);
        return b.toString();
    }

    private static void write(StringBuilder b, Object o, int depth) {
        if (o == null) {
            b.append("null");
        } else if (o instanceof String s) {
            string(b, s);
        } else if (o instanceof Boolean v) {
            b.append(v ? "true" : "false");
        } else if (o instanceof Long || o instanceof Integer) {
            b.append(o);
        } else if (o instanceof Double d) {
            b.append(Double.isNaN(d) ? "NaN" : Double.isInfinite(d) ? (d > 0 ? "Infinity" : "-Infinity") : PandasTsv.pythonFloat(d));
        } else if (o instanceof List<?> l) {
            if (l.isEmpty()) {
                b.append("[]");
                return;
            }
            b.append('[');
            for (int i = 0; i < l.size(); i++) {
                b.append(i == 0 ? "" : ",").append('\n').append(" ".repeat(4 * (depth + 1)));
                write(b, l.get(i), depth + 1);
            }
            b.append('\n').append(" ".repeat(4 * depth)).append(']');
        } else if (o instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                b.append("{}");
                return;
            }
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                b.append(first ? "" : ",").append('\n').append(" ".repeat(4 * (depth + 1)));
                first = false;
                string(b, String.valueOf(e.getKey()));
                b.append(": ");
                write(b, e.getValue(), depth + 1);
            }
            b.append('\n').append(" ".repeat(4 * depth)).append('}');
        } else {
            throw new IllegalArgumentException("no JSON for a " + o.getClass().getSimpleName());
        }
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> {
                    if (c < 0x20 || c > 0x7e) b.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        b.append('"');
    }

    /** Python's {@code str(value)} (and {@code f"{value}"}) for a value read from Parquet. */
    static String str(Object v) {
        if (v == null) return "None";
        if (v instanceof Boolean b) return b ? "True" : "False";
        if (v instanceof Double d) return PandasTsv.pythonFloat(d);
        if (v instanceof List<?> l) {
            StringBuilder b = new StringBuilder("[");
            for (int i = 0; i < l.size(); i++) b.append(i == 0 ? "" : ", ").append(l.get(i) instanceof String s ? "'" + s + "'" : str(l.get(i)));
            return b.append(']').toString();
        }
        if (v instanceof byte[] bytes) return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        return v.toString();
    }
}
