package dev.gamagent.eval.grade;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.eval.load.KeyedQuestion;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * MVBench graded as VLMEvalKit grades it without a judge (its {@code exact_matching} policy, which it also
 * falls back to when the judge's API does not answer): {@code MVBench.evaluate} in
 * vlmeval/dataset/mvbench.py and {@code check_ans_with_model} in vlmeval/dataset/utils/mvbench.py at
 * e8e78f05. A prediction is right when its first space-separated word, lower-cased and without dots, is a
 * substring of the answer's "(x)" (so "C", "c.", "C) sitting" and "(c" are right for "(C) sitting"), or
 * "(x)" is a substring of that word, or else {@code can_infer} reads the answer's letter in it
 * ({@link VlmEvalKitMatcher}, the current rules). {@code get_dimension_rating} gives the accuracy per task
 * and overall.
 *
 * <p>One deliberate difference: an empty prediction (or one that is only dots) is wrong here. VLMEvalKit
 * counts it right, because the empty string is a substring of every "(x)"; a method that failed to answer
 * must not score.
 */
public final class MvBenchGrading {
    /** The rule name recorded with each verdict. */
    public static final String RULE = "mvbench";

    private MvBenchGrading() { }

    /**
     * One question's verdict: the method's own option letter when it gave one (what a VLMEvalKit model wrapper
     * around the method would return), else its answer text, read by MVBench's rule.
     */
    public static Grade grade(KeyedQuestion q, Answer a) {
        String letter = a.option() != null && q.options().containsKey(a.option()) ? a.option() : null;
        String prediction = letter != null ? letter : a.answer() == null ? "" : a.answer();
        Verdict v = verdict(prediction, q.options(), q.groundTruth());
        Outcome o = v.hit() ? Outcome.CORRECT : v.read() == null ? Outcome.UNMATCHED : Outcome.WRONG;
        return new Grade(o, v.read(), RULE + ":" + (letter != null ? "method" : v.step()));
    }

    /** Whether the prediction is right, the letter read from it (null when none), and which step decided. */
    public record Verdict(boolean hit, String read, String step) { }

    /** The verdict on {@code prediction} for the question with these options and answer letter. */
    public static Verdict verdict(String prediction, Map<String, String> options, String answerLetter) {
        String content = options.get(answerLetter);
        if (content == null) throw new IllegalArgumentException("answer " + answerLetter + " is not one of the options " + options.keySet());
        if (checkAns(prediction, "(" + answerLetter + ") " + content)) return new Verdict(true, answerLetter, "option");
        VlmEvalKitMatcher.Match m = VlmEvalKitMatcher.infer(prediction, options, VlmEvalKitMatcher.Rules.latest());
        String read = m.matched() && options.containsKey(m.letter()) ? m.letter() : null;
        return new Verdict(answerLetter.equals(read), read, m.step().name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }

    /**
     * {@code check_ans(pred, gt)} with {@code gt} = "(x) content": the first word of each (split on single spaces,
     * after lower-casing and stripping), the prediction's without dots, either inside the other.
     */
    static boolean checkAns(String pred, String gt) {
        String predOption = firstWord(pred).replace(".", "");
        String gtOption = firstWord(gt);
        if (predOption.isEmpty()) return false; // VLMEvalKit: '' in '(x)' is True; see the class comment
        return gtOption.contains(predOption) || predOption.contains(gtOption);
    }

    private static String firstWord(String s) {
        String t = pyStrip(s == null ? "" : s.toLowerCase(Locale.ROOT));
        int sp = t.indexOf(' ');
        return sp < 0 ? t : t.substring(0, sp);
    }

    private static String pyStrip(String s) {
        int a = 0, b = s.length();
        while (a < b && VlmEvalKitMatcher.isPySpace(s.charAt(a))) a++;
        while (b > a && VlmEvalKitMatcher.isPySpace(s.charAt(b - 1))) b--;
        return s.substring(a, b);
    }

    /** One graded row for the rating: its task ({@code task_type}) and whether it was right. */
    public record Scored(String task, boolean hit) { }

    /** A task's line of the rating: right, total, and VLMEvalKit's percentage text ("62.50%"). */
    public record Line(int correct, int total) {
        public String percent() { return String.format(Locale.ROOT, "%.2f%%", 100.0 * correct / total); }

        /** As VLMEvalKit's {@code _rating.json} writes it: {@code [correct, total, "xx.xx%"]}. */
        public List<Object> asList() { return List.of(correct, total, percent()); }
    }

    /** {@code get_dimension_rating}: each task in order of first appearance, then "overall". */
    public static Map<String, Line> rating(List<Scored> rows) {
        Map<String, int[]> board = new LinkedHashMap<>();
        for (Scored s : rows) {
            int[] c = board.computeIfAbsent(s.task(), k -> new int[2]);
            c[1]++;
            if (s.hit()) c[0]++;
        }
        Map<String, Line> out = new LinkedHashMap<>();
        int correct = 0, total = 0;
        for (var e : board.entrySet()) {
            out.put(e.getKey(), new Line(e.getValue()[0], e.getValue()[1]));
            correct += e.getValue()[0];
            total += e.getValue()[1];
        }
        if (total > 0) out.put("overall", new Line(correct, total));
        return out;
    }

    /** The rating as VLMEvalKit's {@code _rating.json} holds it. */
    public static Map<String, List<Object>> ratingJson(List<Scored> rows) {
        Map<String, List<Object>> out = new LinkedHashMap<>();
        rating(rows).forEach((k, v) -> out.put(k, new ArrayList<>(v.asList())));
        return out;
    }
}
