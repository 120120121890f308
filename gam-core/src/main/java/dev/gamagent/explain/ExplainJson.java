package dev.gamagent.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.util.Json;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The JSON and number helpers every part of the explanation shares (no state). */
final class ExplainJson {
    /** Values closer than this are the same number (the trace stores doubles as JSON, which round-trips exactly). */
    static final double SAME = 1e-9;

    private ExplainJson() {}

    /** One configuration row: the setting's symbol, its key, its recorded value and what it does. */
    static void put(ArrayNode config, String symbol, String key, JsonNode value, String meaning) {
        ObjectNode o = config.addObject();
        o.put("symbol", symbol);
        o.put("key", key);
        if (value == null || value.isMissingNode()) o.put("value", "not recorded"); else o.set("value", value);
        o.put("meaning", meaning);
    }

    /** An agent's turn as a round table row. */
    static ObjectNode agent(JsonNode a) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("id", a.path("id").asText());
        if (a.hasNonNull("error")) { o.put("error", a.path("error").asText()); return o; }
        o.put("answer", text(a, "answer"));
        o.put("option", text(a, "option"));
        o.put("u", a.path("uncertainty").asDouble());
        o.put("u_signal", a.path("signal").asText(""));
        if (a.hasNonNull("weight")) o.put("weight", a.path("weight").asDouble());
        return o;
    }

    /** Whether a turn is a judge's or moderator's (not a voter). */
    static boolean isJudge(JsonNode a) {
        String role = a.path("role").asText("");
        return role.equals("judge") || role.equals("moderator");
    }

    /** {@code winner}, the best other key of {@code scores}, and the difference. */
    static void margin(ObjectNode d, String winner, Map<String, Double> scores) {
        String runner = null;
        for (var e : scores.entrySet()) {
            if (e.getKey().equals(winner)) continue;
            if (runner == null || e.getValue() > scores.get(runner)) runner = e.getKey();
        }
        d.put("winner", winner);
        d.put("winner_value", scores.getOrDefault(winner, 0.0));
        if (runner != null && scores.get(runner) > 0) {
            d.put("runner_up", runner);
            d.put("runner_up_value", scores.get(runner));
            d.put("margin", scores.getOrDefault(winner, 0.0) - scores.get(runner));
        } else {
            d.put("margin", scores.getOrDefault(winner, 0.0));
        }
    }

    static Map<String, Double> doubles(JsonNode n) {
        if (n == null || !n.isObject()) return null;
        Map<String, Double> m = new LinkedHashMap<>();
        n.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asDouble()));
        return m;
    }

    static String text(JsonNode n, String field) { return n.hasNonNull(field) ? n.get(field).asText() : null; }

    static String label(JsonNode fin) {
        String o = text(fin, "option"), a = text(fin, "answer");
        return o != null && a != null && !o.equals(a) ? o + ". " + a : o != null ? o : a == null ? "no answer" : a;
    }

    /** A change with its sign, 3 decimals, never "-0.000". */
    static String signed(double x) {
        String s = String.format(Locale.ROOT, "%+.3f", x);
        return s.equals("-0.000") ? "+0.000" : s;
    }

    /** A number in at most 3 decimals, without trailing zeros (1, 0.5, 0.333). */
    static String fmt(double x) {
        if (Double.isNaN(x)) return "–";
        String s = String.format(Locale.ROOT, "%.3f", x);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    /**
     * The decimals (at least 3) at which {@code x} reads on the correct side of {@code against}: u 0.0021 beside τ 0.0020
     * is never shown as 0.002 for both.
     */
    static int digitsNeeded(double x, double against) {
        for (int d = 3; d <= 17; d++) {
            double rx = Double.parseDouble(sig(x, d)), ra = Double.parseDouble(sig(against, d));
            if (Integer.signum(Double.compare(rx, ra)) == Integer.signum(Double.compare(x, against))) return d;
        }
        return 17;
    }

    /** {@code x} with {@link #digitsNeeded} decimals against {@code against}. */
    static String digits(double x, double against) { return sig(x, digitsNeeded(x, against)); }

    /** {@code x} with {@code decimals} decimals (half up). */
    static String sig(double x, int decimals) {
        if (Double.isInfinite(x) || Double.isNaN(x)) return Double.toString(x);
        return new java.math.BigDecimal(x).setScale(decimals, java.math.RoundingMode.HALF_UP).toPlainString();
    }
}
