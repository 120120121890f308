package dev.gamagent.gam;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Trace;
import dev.gamagent.engine.ReplyParser;
import dev.gamagent.image.Region;
import dev.gamagent.uncertainty.SemanticUncertainty;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads expert replies into answer, claims, confidence and evidence (GAM-Agent §3.2, the claim parser
 * 𝒫) and critic replies into per-claim assessments. Tries JSON, then the line format of
 * docs/CONTRACTS.md, then free prose. Never throws: an unreadable reply gives no claims and parse "none".
 */
public final class ClaimParser {
    private static final Pattern ANSWER = Pattern.compile("(?im)^[\\s*#>-]*(?:final\\s+)?answer[\\s*]*[:：]\\s*(.*)$");
    private static final Pattern CLAIM = Pattern.compile("(?im)^[\\s*#>-]*claim\\s*(\\d+)\\s*(?:\\[[^\\]]*])?\\s*[:：]\\s*(.*)$");
    private static final Pattern OVERALL = Pattern.compile("(?im)^[\\s*#>-]*(?:overall\\s+)?confidence[\\s*]*[:：]\\s*([0-9]*\\.?[0-9]+)\\s*(%)?");
    private static final Pattern NUMBER = Pattern.compile("([0-9]*\\.?[0-9]+)\\s*(%)?");
    private static final Pattern NOT_APPLICABLE = Pattern.compile(
            "(?i)\\bnot applicable\\b|\\bn/a\\b|\\bno (?:visible |readable |legible )?text\\b|\\bthere is no text\\b|\\bcontains no text\\b");
    private static final Pattern SENTENCE = Pattern.compile("(?<=[.!?])\\s+");
    private static final int MAX_PROSE_CLAIMS = 5;

    private ClaimParser() { }

    /** Parses an expert's reply; {@code options} (may be empty) helps find a letter in prose. */
    public static ParsedResponse parseAnswer(String text, Map<String, String> options) {
        if (text == null || text.isBlank()) return ParsedResponse.none();
        ParsedResponse r = json(text);
        if (r == null) r = lines(text);
        if (r == null) r = prose(text, options);
        if (r.answer() == null || r.answer().isBlank()) {
            // claims without any answer cannot vote: the reply counts as unreadable
            return r.notApplicable() ? r : ParsedResponse.none();
        }
        return r;
    }

    /** Parses a critic's reply about {@code claimCount} numbered claims; an unreadable reply gives none. */
    public static List<Assessment> parseCritique(String text, int claimCount) {
        if (text == null || text.isBlank()) return List.of();
        List<Assessment> out = critiqueJson(text);
        if (out == null) out = critiqueLines(text);
        if (out.isEmpty()) {
            // prose: one verdict about all claims when the text states one
            String a = assessmentWord(text);
            if (a != null) {
                Double c = SemanticUncertainty.reportedConfidence(text);
                out = List.of(new Assessment(0, a, clip(text.strip(), 500), null, c == null ? 0.5 : c));
            }
        }
        List<Assessment> kept = new ArrayList<>();
        for (Assessment x : out) if (x.claim() >= 0 && x.claim() <= claimCount) kept.add(x);
        return kept;
    }

    /** Which path {@link #parseCritique} took, for the trace. */
    public static String critiquePath(String text) {
        if (text == null || text.isBlank()) return "none";
        if (critiqueJson(text) != null) return "json";
        if (!critiqueLines(text).isEmpty()) return "lines";
        return assessmentWord(text) != null ? "prose" : "none";
    }

    /**
     * The character ranges of an expert reply's content, for Φ_gen's {@code content} scoring (docs/design.md §3): the
     * answer, claim texts and evidence, read the way {@link #parseAnswer} reads the reply (JSON, then the line
     * format). Keys, quotes, braces, labels ("ANSWER:", "CLAIM 1:", "CONFIDENCE:"), confidences and regions are
     * scaffolding. Null for prose (free text is all content) and for an unreadable reply.
     */
    public static List<int[]> contentSpans(String text) {
        if (text == null || text.isBlank()) return null;
        List<int[]> spans = jsonContent(text);
        if (spans == null && lines(text) != null) spans = lineContent(text);
        return spans;
    }

    /** Content ranges of a JSON reply: the string values of answer, claims[] (or claims[].text/claim) and claims[].evidence. */
    private static List<int[]> jsonContent(String text) {
        int a = text.indexOf('{'), b = text.lastIndexOf('}');
        if (a < 0 || b <= a) return null;
        String obj = text.substring(a, b + 1);
        List<int[]> out = new ArrayList<>();
        boolean answer = false;
        try (JsonParser p = Json.MAPPER.getFactory().createParser(obj)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                if (field.equals("answer")) {
                    answer = true;
                    if (v == JsonToken.VALUE_STRING) addString(out, obj, p, a);
                } else if (field.equals("claims") && v == JsonToken.START_ARRAY) {
                    for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                        if (e == JsonToken.VALUE_STRING) {
                            addString(out, obj, p, a);
                        } else if (e == JsonToken.START_OBJECT) {
                            while (p.nextToken() == JsonToken.FIELD_NAME) {
                                String f = p.currentName();
                                JsonToken cv = p.nextToken();
                                if (cv == JsonToken.VALUE_STRING && (f.equals("text") || f.equals("claim") || f.equals("evidence"))) {
                                    addString(out, obj, p, a);
                                } else {
                                    p.skipChildren();
                                }
                            }
                        } else {
                            p.skipChildren();
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (Exception e) {
            return null; // not JSON: the caller tries the line format
        }
        return answer ? out : null;
    }

    /** Adds the inside of the string value the parser is on (between its quotes, trimmed), offset by {@code base}. */
    private static void addString(List<int[]> out, String obj, JsonParser p, int base) {
        int open = (int) p.currentTokenLocation().getCharOffset();
        if (open < 0 || open >= obj.length() || obj.charAt(open) != '"') return;
        int i = open + 1;
        while (i < obj.length() && obj.charAt(i) != '"') i += obj.charAt(i) == '\\' ? 2 : 1;
        addTrimmed(out, obj, open + 1, Math.min(i, obj.length()), base);
    }

    /** Content ranges of a line-format reply: the ANSWER value, each claim's text and its EVIDENCE value. */
    private static List<int[]> lineContent(String text) {
        List<int[]> out = new ArrayList<>();
        Matcher am = ANSWER.matcher(text);
        while (am.find()) addTrimmed(out, text, am.start(1), am.end(1), 0);
        Matcher cm = CLAIM.matcher(text);
        while (cm.find()) {
            int start = cm.start(2), end = cm.end(2);
            boolean first = true;
            for (int i = start; i <= end; i++) {
                if (i < end && text.charAt(i) != '|') continue;
                if (first) {
                    addTrimmed(out, text, start, i, 0);
                    first = false;
                } else {
                    int colon = text.indexOf(':', start);
                    if (colon >= 0 && colon < i && text.substring(start, colon).strip().equalsIgnoreCase("EVIDENCE")) {
                        addTrimmed(out, text, colon + 1, i, 0);
                    }
                }
                start = i + 1;
            }
        }
        return out;
    }

    private static void addTrimmed(List<int[]> out, String s, int from, int to, int base) {
        while (from < to && (Character.isWhitespace(s.charAt(from)) || s.charAt(from) == '*')) from++;
        while (to > from && (Character.isWhitespace(s.charAt(to - 1)) || s.charAt(to - 1) == '*')) to--;
        if (to > from) out.add(new int[] {base + from, base + to});
    }

    // ---- expert replies ----

    private static ParsedResponse json(String text) {
        JsonNode n = jsonObject(text);
        if (n == null || !n.has("answer")) return null;
        String answer = n.get("answer").isNull() ? null : n.get("answer").asText().strip();
        List<Trace.Claim> claims = new ArrayList<>();
        JsonNode cs = n.path("claims");
        if (cs.isArray()) {
            int i = 0;
            for (JsonNode c : cs) {
                i++;
                String t = c.isTextual() ? c.asText() : c.path("text").asText(c.path("claim").asText(""));
                if (t.isBlank()) continue;
                claims.add(new Trace.Claim(i, t.strip(), confidence(c.path("confidence"), 0.5),
                        textOrNull(c.path("evidence")), region(c.path("region")), frame(c.path("frame"))));
            }
        }
        Double conf = n.has("confidence") ? confidence(n.get("confidence"), Double.NaN) : null;
        if (conf != null && conf.isNaN()) conf = null;
        return new ParsedResponse(answer, claims, conf, answer != null && notApplicable(answer), "json");
    }

    private static ParsedResponse lines(String text) {
        String answer = null;
        Matcher am = ANSWER.matcher(text);
        while (am.find()) answer = am.group(1).strip(); // the last ANSWER line wins (models restate)
        List<Trace.Claim> claims = new ArrayList<>();
        Matcher cm = CLAIM.matcher(text);
        while (cm.find()) {
            String[] parts = cm.group(2).split("\\s*\\|\\s*", -1); // -1: "CLAIM 2: |" gives ["", ""], not [] (found by fuzzing)
            String claimText = parts[0].strip();
            double conf = 0.5;
            String evidence = null;
            Region region = null;
            Integer frame = null;
            for (int i = 1; i < parts.length; i++) {
                String p = parts[i];
                int colon = p.indexOf(':');
                if (colon < 0) continue;
                String key = p.substring(0, colon).strip().toUpperCase(Locale.ROOT);
                String value = p.substring(colon + 1).strip();
                switch (key) {
                    case "CONFIDENCE" -> conf = confidenceText(value, 0.5);
                    case "EVIDENCE" -> evidence = value.isEmpty() ? null : value;
                    case "REGION" -> region = regionText(value);
                    case "FRAME" -> frame = frameText(value);
                    default -> { }
                }
            }
            if (!claimText.isEmpty()) claims.add(new Trace.Claim(number(cm.group(1)), claimText, conf, evidence, region, frame));
        }
        if (answer == null && claims.isEmpty()) return null;
        Double overall = null;
        Matcher om = OVERALL.matcher(text);
        while (om.find()) overall = confidenceText(om.group(1) + (om.group(2) == null ? "" : "%"), Double.NaN);
        if (overall != null && overall.isNaN()) overall = null;
        // "**Stop sign.**" → "Stop sign": markdown and one closing full stop are formatting, not the answer
        if (answer != null) answer = answer.replaceAll("^[*\\s]+|[*\\s]+$", "").replaceAll("(?<!\\.)\\.$", "").strip();
        return new ParsedResponse(answer, claims, overall, answer != null && notApplicable(answer), "lines");
    }

    private static ParsedResponse prose(String text, Map<String, String> options) {
        String t = text.strip();
        String first = t.lines().filter(l -> !l.isBlank()).findFirst().orElse("").strip();
        boolean na = notApplicable(first);
        String answer;
        if (options != null && !options.isEmpty()) {
            answer = ReplyParser.option(t, options);
        } else {
            answer = first.replaceFirst("(?i)^(the\\s+)?(final\\s+)?answer\\s+is\\s*[:：]?\\s*", "").replaceAll("[.\\s]+$", "");
            answer = clip(answer, 200);
        }
        if (na && answer == null) answer = first;
        Double conf = SemanticUncertainty.reportedConfidence(t);
        List<Trace.Claim> claims = new ArrayList<>();
        int n = 0;
        for (String s : SENTENCE.split(t)) {
            String st = s.strip();
            if (st.isEmpty() || st.toLowerCase(Locale.ROOT).startsWith("confidence")) continue;
            claims.add(new Trace.Claim(++n, clip(st, 300), conf == null ? 0.5 : conf, null, null));
            if (n == MAX_PROSE_CLAIMS) break;
        }
        return new ParsedResponse(answer, claims, conf, na, "prose");
    }

    // ---- critic replies ----

    private static List<Assessment> critiqueJson(String text) {
        JsonNode n = jsonObject(text);
        JsonNode list = n == null ? null : n.get("assessments");
        if (list == null || !list.isArray()) return null;
        List<Assessment> out = new ArrayList<>();
        for (JsonNode a : list) {
            int claim = a.path("claim").isInt() ? a.get("claim").asInt() : parseIntOr(a.path("claim").asText(""), 0);
            String verdict = normaliseAssessment(a.path("assessment").asText(""));
            if (verdict == null) continue;
            out.add(new Assessment(claim, verdict, textOrNull(a.path("reason")), textOrNull(a.path("correction")),
                    confidence(a.path("confidence"), 0.5)));
        }
        return out;
    }

    private static List<Assessment> critiqueLines(String text) {
        List<Assessment> out = new ArrayList<>();
        Matcher cm = CLAIM.matcher(text);
        while (cm.find()) {
            String[] parts = cm.group(2).split("\\s*\\|\\s*", -1);
            String verdict = normaliseAssessment(parts[0]);
            if (verdict == null) continue;
            String reason = null, correction = null;
            double conf = 0.5;
            for (int i = 1; i < parts.length; i++) {
                int colon = parts[i].indexOf(':');
                if (colon < 0) continue;
                String key = parts[i].substring(0, colon).strip().toUpperCase(Locale.ROOT);
                String value = parts[i].substring(colon + 1).strip();
                switch (key) {
                    case "REASON" -> reason = value.isEmpty() ? null : value;
                    case "CORRECTION" -> correction = value.isEmpty() || value.equalsIgnoreCase("none") ? null : value;
                    case "CONFIDENCE" -> conf = confidenceText(value, 0.5);
                    default -> { }
                }
            }
            out.add(new Assessment(number(cm.group(1)), verdict, reason, correction, conf));
        }
        return out;
    }

    /** "ACCURATE", "Partially accurate", "inaccurate" (any case, with stray punctuation) → canonical, else null. */
    static String normaliseAssessment(String s) {
        String v = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z ]", " ").replaceAll("\\s+", " ").strip();
        if (v.startsWith("partially accurate") || v.startsWith("partly accurate") || v.equals("partial")) return "partially accurate";
        if (v.startsWith("inaccurate") || v.startsWith("not accurate") || v.startsWith("incorrect") || v.startsWith("wrong")) return "inaccurate";
        if (v.startsWith("accurate") || v.startsWith("correct")) return "accurate";
        return null;
    }

    private static String assessmentWord(String text) {
        String v = text.toLowerCase(Locale.ROOT);
        if (v.contains("partially accurate")) return "partially accurate";
        if (v.contains("inaccurate") || v.contains("not accurate")) return "inaccurate";
        if (v.contains("accurate")) return "accurate";
        return null;
    }

    // ---- shared ----

    static boolean notApplicable(String answer) { return answer != null && NOT_APPLICABLE.matcher(answer).find(); }


    /** The first '{' … last '}' of the text as a JSON object (models wrap JSON in fences or prose), or null. */
    private static JsonNode jsonObject(String text) {
        int a = text.indexOf('{'), b = text.lastIndexOf('}');
        if (a < 0 || b <= a) return null;
        try {
            JsonNode n = Json.MAPPER.readTree(text.substring(a, b + 1));
            return n != null && n.isObject() ? n : null;
        } catch (Exception e) {
            return null;
        }
    }

    private static double confidence(JsonNode n, double fallback) {
        if (n == null || n.isMissingNode() || n.isNull()) return fallback;
        if (n.isNumber()) return scale(n.asDouble());
        return confidenceText(n.asText(""), fallback);
    }

    private static double confidenceText(String s, double fallback) {
        Matcher m = NUMBER.matcher(s);
        if (!m.find()) return fallback;
        double v = Double.parseDouble(m.group(1));
        return m.group(2) != null ? clamp01(v / 100) : scale(v);
    }

    /** 0.8 stays 0.8; 80 means 80 %. */
    private static double scale(double v) { return clamp01(v > 1 ? v / 100 : v); }

    private static double clamp01(double v) { return Double.isNaN(v) ? 0.5 : Math.max(0, Math.min(1, v)); }

    private static Region region(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) return null;
        if (n.isArray() && n.size() == 4) {
            return new Region(n.get(0).asDouble(), n.get(1).asDouble(), n.get(2).asDouble(), n.get(3).asDouble());
        }
        return n.isTextual() ? regionText(n.asText()) : null;
    }

    private static Region regionText(String s) {
        List<Double> v = new ArrayList<>();
        Matcher m = Pattern.compile("-?[0-9]*\\.?[0-9]+").matcher(s);
        while (m.find()) v.add(Double.parseDouble(m.group()));
        if (v.size() != 4) return null;
        Region r = new Region(v.get(0), v.get(1), v.get(2), v.get(3));
        return r.isEmpty() ? null : r;
    }

    /** A claim's {@code "frame": k} (a number or a numeric string), else null; the range is checked by the caller. */
    private static Integer frame(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) return null;
        if (n.isIntegralNumber()) return n.canConvertToInt() ? n.asInt() : null;
        if (n.isNumber()) return n.asDouble() == Math.rint(n.asDouble()) && Math.abs(n.asDouble()) < Integer.MAX_VALUE ? (int) n.asDouble() : null;
        return n.isTextual() ? frameText(n.asText()) : null;
    }

    /** "3", "frame 3", "#3", "3 of 8": the first number written when it is whole; none, a fraction or one too long names no frame. */
    private static Integer frameText(String s) {
        Matcher m = Pattern.compile("-?\\d+(?:\\.\\d+)?").matcher(s);
        if (!m.find()) return null;
        String first = m.group();
        if (first.contains(".")) return null;
        try {
            return Integer.parseInt(first);
        } catch (NumberFormatException tooLong) {
            return null;
        }
    }

    private static String textOrNull(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) return null;
        String s = n.asText("").strip();
        return s.isEmpty() ? null : s;
    }

    private static int parseIntOr(String s, int fallback) {
        Matcher m = Pattern.compile("\\d+").matcher(s);
        return m.find() ? number(m.group()) : fallback;
    }

    /** A claim number as written; one too long for an int ("CLAIM 99999999999") names no claim: 0. */
    private static int number(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException tooLong) {
            return 0;
        }
    }

    private static String clip(String s, int max) { return s.length() <= max ? s : s.substring(0, max); }
}
