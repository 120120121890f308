package dev.gamagent.eval.grade;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.data.VlmEvalKitTable;
import dev.gamagent.eval.format.PythonList;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * VLMEvalKit's rule-based scores for open answers (e8e78f05, {@code vlmeval/dataset/utils/vqa_eval.py} {@code process_line}
 * and {@code hit_calculate}, and the evaluate() of the classes named below), one score in [0, 1] per question; the
 * benchmark's figure is their mean × 100, as VLMEvalKit's {@code np.mean(hit) * 100}.
 *
 * <ul>
 *   <li>{@code vqa-score} (TextVQA): the answers and the reply normalised by {@code process_answer}; for each answer,
 *       min(1, how many of the other answers equal the reply / 3); the mean over the answers.</li>
 *   <li>{@code vqa-match} (ImageVQADataset's default): the share of the answers equal to the reply, both normalised.</li>
 *   <li>{@code anls} (DocVQA, InfoVQA): 1 − the smallest normalised Levenshtein distance to an answer; 0 below 0.5.</li>
 *   <li>{@code relaxed} (ChartQA, PlotQA): 1 when some answer is within 5 % of the reply as numbers (percentages read
 *       as fractions), or equal ignoring case when either is not a number.</li>
 *   <li>{@code exact} (GQA): the share of the answers equal to the reply, stripped and lower-cased; {@code exact-max}
 *       (OCRVQA): 1 when one of them is; {@code exact-text} (ERQA): the answer cell as it is (no list read), the same way.</li>
 *   <li>{@code contains} (CountBenchQA): 1 when the answer occurs in the reply as it is.</li>
 *   <li>{@code mtvqa} (MTVQA): 1 when the answer occurs in the reply, both stripped, lower-cased and without dots.</li>
 *   <li>{@code ocrbench} (OCRBench): 1 when one of the answers occurs in the reply, lower-cased and stripped (for the
 *       category Handwritten Mathematical Expression Recognition: without any spaces, case kept).</li>
 *   <li>{@code tallyqa} (TallyQA, {@code utils/tallyqa.py}): the first count 0–20 in the lower-cased reply (digits or
 *       a number word) equals the answer as a whole number.</li>
 *   <li>{@code zerobench} (ZEROBench): the answer, stripped and lower-cased, occurs in the last {@code {…}} of the
 *       lower-cased reply (none: the empty text).</li>
 * </ul>
 *
 * An answer cell that is a Python list ({@code ['two', '2']}) is the list of answers, as VLMEvalKit's {@code eval}
 * reads it; any other cell is one answer. The word tables of {@code process_answer} are read from the committed
 * VLMEvalKit table ({@link VlmEvalKitTable#normalisation()}), extracted from the same commit; its punctuation list is
 * the one {@link VlmEvalKitYesNo} keeps (a test checks they agree).
 */
public final class VlmEvalKitVqa {
    /** The {@code eval.open_answers} values this class grades. */
    public static final Set<String> RULES = Set.of("vqa-score", "vqa-match", "anls", "relaxed", "exact", "exact-max", "contains", "mtvqa",
            "ocrbench", "tallyqa", "zerobench", "exact-text");
    /** OCRBench's category whose answers are compared without spaces. */
    static final String OCRBENCH_HME = "Handwritten Mathematical Expression Recognition";
    private static final double ANLS_THRESHOLD = 0.5;
    private static final double RELAXED_CHANGE = 0.05;
    private static final Pattern PY_FLOAT = Pattern.compile("[+-]?(?:(?:\\d(?:_?\\d)*)?\\.?\\d(?:_?\\d)*(?:[eE][+-]?\\d(?:_?\\d)*)?"
            + "|\\d(?:_?\\d)*\\.|(?:inf|infinity|nan))", Pattern.CASE_INSENSITIVE);

    private final Set<String> articles;
    private final Map<String, String> numberWords = new HashMap<>();
    private final Map<String, String> contractions = new HashMap<>();

    private static final VlmEvalKitVqa BUILT_IN = new VlmEvalKitVqa(VlmEvalKitTable.builtIn().normalisation());

    VlmEvalKitVqa(JsonNode tables) {
        List<String> a = new ArrayList<>();
        tables.path("articles").forEach(p -> a.add(p.asText()));
        articles = Set.copyOf(a);
        tables.path("number_words").fields().forEachRemaining(e -> numberWords.put(e.getKey(), e.getValue().asText()));
        tables.path("contractions").fields().forEachRemaining(e -> contractions.put(e.getKey(), e.getValue().asText()));
        if (articles.isEmpty() || numberWords.isEmpty() || contractions.isEmpty()) {
            throw new IllegalStateException("the VLMEvalKit table has no complete vqa_normalisation (articles, number_words, contractions)");
        }
    }

    /** The instance built from the committed VLMEvalKit table. */
    public static VlmEvalKitVqa builtIn() { return BUILT_IN; }

    /**
     * The score in [0, 1] of {@code prediction} against the answer cell {@code answer} by {@code rule} (one of {@link #RULES});
     * {@code category} is the row's category (OCRBench reads it), may be null.
     */
    public double score(String rule, String answer, String prediction, String category) {
        String pred = prediction == null ? "" : prediction;
        List<String> answers = answers(answer);
        return switch (rule) {
            case "vqa-score" -> vqaScore(answers, pred);
            case "vqa-match" -> {
                String p = processAnswer(pred);
                yield mean(answers.stream().mapToDouble(g -> processAnswer(g).equals(p) ? 1 : 0).toArray());
            }
            case "anls" -> anls(answers, pred);
            case "relaxed" -> answers.stream().anyMatch(g -> relaxedCorrect(g, pred.strip())) ? 1 : 0;
            case "exact" -> mean(answers.stream().mapToDouble(g -> exactMatch(g, pred) ? 1 : 0).toArray());
            case "exact-text" -> exactMatch(answer == null ? "" : answer, pred) ? 1 : 0;
            case "exact-max" -> answers.stream().anyMatch(g -> exactMatch(g, pred)) ? 1 : 0;
            case "contains" -> pred.contains(answer == null ? "" : answer) ? 1 : 0;
            case "mtvqa" -> mtvqaKey(pred).contains(mtvqaKey(answer == null ? "" : answer)) ? 1 : 0;
            case "ocrbench" -> ocrBench(answers, pred, category) ? 1 : 0;
            case "tallyqa" -> tallyCorrect(answer, pred) ? 1 : 0;
            case "zerobench" -> lastBraced(pred.strip().toLowerCase(Locale.ROOT)).contains((answer == null ? "" : answer).strip().toLowerCase(Locale.ROOT)) ? 1 : 0;
            default -> throw new IllegalArgumentException("'" + rule + "' is not a VLMEvalKit VQA rule; use one of " + RULES);
        };
    }

    /**
     * The grade of a reply with score {@code score}: {@code correct} only with the full score (1), else {@code wrong}; the
     * rule is {@code <rule>:<score>} (the score as Java writes a double, exactly), which {@link #scoreOf} reads back so the
     * benchmark's mean score is VLMEvalKit's figure ({@code benchmark_score} in summary.json).
     */
    public static Grade grade(String rule, double score, String reply) {
        return new Grade(score >= 1.0 ? Outcome.CORRECT : Outcome.WRONG, reply.strip(), rule + ":" + score);
    }

    /** The score a record's rule carries ({@code anls:0.875}), or null when the rule is not one of {@link #RULES} with a score. */
    public static Double scoreOf(String recordRule) {
        if (recordRule == null) return null;
        int colon = recordRule.indexOf(':');
        if (colon < 0 || !RULES.contains(recordRule.substring(0, colon))) return null;
        try {
            return Double.valueOf(recordRule.substring(colon + 1));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The answers of a cell: a Python list of strings as its strings, anything else as itself. */
    static List<String> answers(String cell) {
        if (cell == null) return List.of("");
        List<String> list = PythonList.strings(cell);
        return list.isEmpty() ? List.of(cell) : list;
    }

    private double vqaScore(List<String> answers, String prediction) {
        List<String> gt = answers.stream().map(this::processAnswer).toList();
        String pred = processAnswer(prediction);
        double[] acc = new double[gt.size()];
        for (int i = 0; i < gt.size(); i++) {
            int matching = 0;
            for (int j = 0; j < gt.size(); j++) if (j != i && gt.get(j).equals(pred)) matching++;
            acc[i] = Math.min(1.0, matching / 3.0);
        }
        return mean(acc);
    }

    private static double anls(List<String> answers, String prediction) {
        double min = Double.MAX_VALUE;
        for (String g : answers) min = Math.min(min, anlsDistance(g, prediction));
        double score = 1 - min;
        return score < ANLS_THRESHOLD ? 0.0 : score;
    }

    /** vqa_eval.py's {@code anls_compute}: the Levenshtein distance of the whitespace-collapsed, lower-cased texts over the longer raw length. */
    static double anlsDistance(String groundTruth, String prediction) {
        int dist = dev.gamagent.util.EditDistance.betweenCodePoints(collapse(groundTruth), collapse(prediction));
        int length = Math.max(codePoints(groundTruth.toUpperCase(Locale.ROOT)), codePoints(prediction.toUpperCase(Locale.ROOT)));
        return length == 0 ? 0.0 : (double) dist / length;
    }

    private static String collapse(String s) {
        return String.join(" ", pySplit(s.strip().toLowerCase(Locale.ROOT)));
    }

    private static int codePoints(String s) { return s.codePointCount(0, s.length()); }

    /** vqa_eval.py's {@code relaxed_correctness}: within 5 % as numbers (when the target is a non-zero number), else equal ignoring case. */
    static boolean relaxedCorrect(String target, String prediction) {
        Double p = pyFloat(prediction);
        Double t = pyFloat(target);
        if (p != null && t != null && t != 0.0) {
            return Math.abs(p - t) / Math.abs(t) <= RELAXED_CHANGE;
        }
        return prediction.toLowerCase(Locale.ROOT).equals(target.toLowerCase(Locale.ROOT));
    }

    /** {@code _to_float}: Python's {@code float()} of the text, a trailing % read as a fraction; null when it is not a number. */
    static Double pyFloat(String text) {
        if (text.endsWith("%")) {
            Double v = parsePython(text.replaceAll("%+$", ""));
            return v == null ? null : v / 100.0;
        }
        return parsePython(text);
    }

    private static Double parsePython(String s) {
        String t = s.strip();
        if (!PY_FLOAT.matcher(t).matches()) return null;
        String l = t.toLowerCase(Locale.ROOT);
        String sign = l.startsWith("-") ? "-" : "";
        String body = l.replaceFirst("^[+-]", "");
        if (body.equals("inf") || body.equals("infinity")) return sign.isEmpty() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        if (body.equals("nan")) return Double.NaN;
        return Double.parseDouble(sign + body.replace("_", ""));
    }

    private static boolean exactMatch(String answer, String prediction) {
        return answer.strip().toLowerCase(Locale.ROOT).equals(prediction.strip().toLowerCase(Locale.ROOT));
    }

    private static String mtvqaKey(String s) { return s.strip().toLowerCase(Locale.ROOT).replace(".", ""); }

    private static boolean ocrBench(List<String> answers, String prediction, String category) {
        boolean hme = OCRBENCH_HME.equals(category);
        String predict = hme ? prediction.strip().replace("\n", " ").replace(" ", "")
                : prediction.toLowerCase(Locale.ROOT).strip().replace("\n", " ");
        for (String a : answers) {
            String answer = hme ? a.strip().replace("\n", " ").replace(" ", "") : a.toLowerCase(Locale.ROOT).strip().replace("\n", " ");
            if (predict.contains(answer)) return true;
        }
        return false;
    }

    private static final List<String> COUNT_WORDS = List.of("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty");
    private static final Pattern COUNT = Pattern.compile("(\\b([0-9]|1[0-9]|20)\\b|\\b(" + String.join("|", COUNT_WORDS) + ")\\b)",
            Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern BRACED = Pattern.compile("\\{(.*?)\\}");

    /** utils/tallyqa.py's {@code text_to_int}: the first count 0–20 of the lower-cased text, or null. */
    static Integer count(String text) {
        Matcher m = COUNT.matcher(text.toLowerCase(Locale.ROOT));
        if (!m.find()) return null;
        String found = m.group();
        return found.chars().allMatch(Character::isDigit) ? Integer.valueOf(found) : Integer.valueOf(COUNT_WORDS.indexOf(found));
    }

    private static boolean tallyCorrect(String answer, String prediction) {
        Integer p = count(prediction);
        if (p == null || answer == null) return false;
        try {
            return p == Integer.parseInt(answer.strip());
        } catch (NumberFormatException e) {
            return false;  // pandas' astype(int) fails on such a file; VLMEvalKit grades nothing then
        }
    }

    private static String lastBraced(String s) {
        Matcher m = BRACED.matcher(s);
        String last = "";
        while (m.find()) last = m.group(1);
        return last;
    }

    /** vqa_eval.py's {@code process_answer}: newlines and tabs to spaces, stripped, punctuation, then numbers, articles and contractions. */
    public String processAnswer(String answer) {
        String a = answer.replace('\n', ' ').replace('\t', ' ').strip();
        return digitArticle(punctuation(a));
    }

    /** smp's {@code process_punctuation} ({@link VlmEvalKitYesNo#processPunctuation}: the yes/no rule reads it too). */
    String punctuation(String in) { return VlmEvalKitYesNo.processPunctuation(in); }

    private String digitArticle(String in) {
        List<String> out = new ArrayList<>();
        for (String word : pySplit(in.toLowerCase(Locale.ROOT))) {
            String w = numberWords.getOrDefault(word, word);
            if (!articles.contains(w)) out.add(w);
        }
        out.replaceAll(w -> contractions.getOrDefault(w, w));
        return String.join(" ", out);
    }

    /** Python's {@code str.split()}: runs of whitespace separate, none at the ends. */
    static List<String> pySplit(String s) {
        List<String> out = new ArrayList<>();
        int i = 0, n = s.length();
        while (i < n) {
            while (i < n && isPySpace(s.charAt(i))) i++;
            int start = i;
            while (i < n && !isPySpace(s.charAt(i))) i++;
            if (i > start) out.add(s.substring(start, i));
        }
        return out;
    }

    private static boolean isPySpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\u001c' || c == '\u001d' || c == '\u001e' || c == '\u001f'
                || c == '\u0085';
    }

    private static double mean(double[] xs) {
        if (xs.length == 0) return 0;
        double s = 0;
        for (double x : xs) s += x;
        return s / xs.length;
    }
}
