package dev.gamagent.eval.grade;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * VLMEvalKit's yes/no benchmarks (MME, POPE, HallusionBench: {@code vlmeval/dataset/image_yorn.py}) without
 * its judge: {@code YOrN_Extraction} reads "Yes", "No" or "Unknown" from a reply
 * ({@code vlmeval/dataset/utils/yorn.py}, after {@code process_punctuation} of {@code vlmeval/smp/misc.py},
 * quirks included), a row is right when the extracted word equals the answer, and {@code MME_rating}
 * scores MME: per category, accuracy × 100 plus acc+ × 100 (the share of images whose two questions are
 * both right), then perception and reasoning as the sums of their categories.
 */
public final class VlmEvalKitYesNo {
    public static final String YES = "Yes", NO = "No", UNKNOWN = "Unknown";
    static final List<String> PUNCT = List.of(";", "/", "[", "]", "\"", "{", "}", "(", ")", "=", "+", "\\", "_", "-", ">", "<", "@", "`",
            ",", "?", "!");
    private static final Pattern COMMA_STRIP = Pattern.compile("(?U)(\\d)(,)(\\d)");
    private static final Pattern PERIOD_STRIP = Pattern.compile("(?U)(?<!\\d)\\.(?!\\d)");
    /** VLMEvalKit passes re.UNICODE (32) where Pattern.sub takes its count: only the first 32 periods go. */
    private static final int PERIODS_REMOVED = 32;
    /** MME_rating's super-categories, in its order. */
    static final Map<String, List<String>> MME_SUPER = mmeSuper();

    private static Map<String, List<String>> mmeSuper() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("perception", List.of("OCR", "artwork", "celebrity", "color", "count", "existence", "landmark", "position", "posters", "scene"));
        m.put("reasoning", List.of("code_reasoning", "commonsense_reasoning", "numerical_calculation", "text_translation"));
        return Collections.unmodifiableMap(m);
    }

    private VlmEvalKitYesNo() { }

    /** YOrN_Extraction: "Yes" when the reply has the word yes and not no, "No" the other way, else "Unknown". */
    public static String extract(String reply) {
        List<String> words = VlmEvalKitMatcher.pySplit(processPunctuation((reply == null ? "nan" : reply).toLowerCase(Locale.ROOT)));
        boolean yes = words.contains("yes"), no = words.contains("no");
        if (yes && !no) return YES;
        if (no && !yes) return NO;
        return UNKNOWN;
    }

    /** process_punctuation: each mark is removed where it touches a space (or anywhere once a digit,digit appears), else becomes a space. */
    static String processPunctuation(String in) {
        String out = in;
        boolean commaNumber = COMMA_STRIP.matcher(in).find();
        for (String p : PUNCT) {
            if (in.contains(p + " ") || in.contains(" " + p) || commaNumber) out = out.replace(p, "");
            else out = out.replace(p, " ");
        }
        Matcher m = PERIOD_STRIP.matcher(out);
        StringBuilder sb = new StringBuilder();
        int n = 0;
        while (n < PERIODS_REMOVED && m.find()) {
            m.appendReplacement(sb, "");
            n++;
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** One graded row: its category, the image its pair shares ({@code image_path}), and whether it was right. */
    public record Scored(String category, String image, boolean right) { }

    /**
     * MME_rating: category → accuracy × 100 + acc+ × 100, with "perception" and "reasoning" (the sums of
     * their categories) first; categories in order of first appearance. A super-category is left out when
     * one of its categories is missing (a partial run), and acc+ counts only images with two rows.
     */
    public static Map<String, Double> mmeRating(List<Scored> rows) {
        Map<String, Map<String, List<Boolean>>> stats = new LinkedHashMap<>();
        for (Scored r : rows) {
            stats.computeIfAbsent(r.category(), k -> new LinkedHashMap<>()).computeIfAbsent(Objects.toString(r.image()), k -> new ArrayList<>())
                    .add(r.right());
        }
        Map<String, Double> scores = new LinkedHashMap<>();
        for (var e : stats.entrySet()) {
            long all = 0, right = 0, pairs = 0, pairsRight = 0;
            for (List<Boolean> v : e.getValue().values()) {
                for (boolean b : v) {
                    all++;
                    if (b) right++;
                }
                if (v.size() >= 2) {
                    pairs++;
                    if (v.get(0) && v.get(1)) pairsRight++;
                }
            }
            double acc = (double) right / all * 100;
            double plus = pairs == 0 ? 0 : (double) pairsRight / pairs * 100;
            scores.put(e.getKey(), acc + plus);
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (var sc : MME_SUPER.entrySet()) {
            if (!scores.keySet().containsAll(sc.getValue())) continue;
            double base = 0;
            for (String c : sc.getValue()) base += scores.get(c);
            out.put(sc.getKey(), base);
        }
        out.putAll(scores);
        return out;
    }

    /** A VLMEvalKit prediction file of a yes/no benchmark graded: each row's extracted word and verdict, and MME's rating when it is MME. */
    public record Result(List<String> extracted, List<Boolean> right, Map<String, Double> rating, int unknown) { }

    /** Grades a prediction file (columns index, category, image_path, answer, prediction) as ImageYORNDataset.evaluate does with exact matching. */
    public static Result grade(PredictionFile file, String dataset) {
        for (String col : List.of("prediction", "answer", "category")) {
            if (!file.has(col)) throw new IllegalArgumentException(file.path() + ": no '" + col + "' column (columns found: " + file.columns() + ")");
        }
        List<String> extracted = new ArrayList<>();
        List<Boolean> right = new ArrayList<>();
        List<Scored> scored = new ArrayList<>();
        int unknown = 0;
        for (Map<String, String> r : file.rows()) {
            String x = extract(r.get("prediction") == null ? "nan" : r.get("prediction"));
            if (x.equals(UNKNOWN)) unknown++;
            boolean ok = x.equals(r.get("answer"));
            extracted.add(x);
            right.add(ok);
            scored.add(new Scored(r.get("category"), r.get("image_path"), ok));
        }
        Map<String, Double> rating = dataset.contains("MME") ? mmeRating(scored) : Map.of();
        return new Result(extracted, right, rating, unknown);
    }
}
