package dev.gamagent.eval.grade;

import dev.gamagent.api.Answer;
import dev.gamagent.eval.load.KeyedQuestion;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * VLMEvalKit's rule for its EASI spatial benchmarks (e8e78f05, {@code vlmeval/dataset/utils/spatial_bench/}:
 * {@code cal_scores.compute_mcq_score} with {@code matching_func.can_match_option}, the path taken without a judge):
 * the option letter is read from the reply and from the answer alike, and the question is right when the two readings
 * are equal as lower-cased text — so a reply and an answer that both read as nothing ({@code False}) are equal, as there.
 *
 * <p>The reading, in VLMEvalKit's order (letters A–F unless said): a letter opening an {@code <answer>} block (A–J);
 * a letter right before {@code </answer>} or {@code </think>} in the last 800 characters; in the last 6 non-blank lines
 * after the last think tag, then in those of the last 800 characters, from the last line up: a line that is one letter,
 * a line opening "A." / "B)", or a line whose stand-alone capitals are one letter; the first "final answer: B" style
 * phrase; the one stand-alone capital letter of the whole reply (lines opening "option A:" left out).
 */
public final class VlmEvalKitSpatialMcq {
    /** The {@code eval.open_answers} value. */
    public static final String RULE = "spatial-mcq";
    private static final int TAIL_LINES = 6;
    private static final int TAIL_WINDOW = 800;
    private static final String LETTERS = "ABCDEF";
    private static final int U = Pattern.UNICODE_CHARACTER_CLASS;
    private static final int I = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
    private static final Pattern ZERO_WIDTH = Pattern.compile("[\u200b\u200c\u200d\ufeff]");
    private static final Pattern ANSWER_BLOCK = Pattern.compile(
            "<\\s*answer\\b[^>]*>\\s*([A-Ja-j])(?:\\s*[\\.．:：\\)\\]】、])?.*?<\\s*/\\s*answer\\s*>", U | I | Pattern.DOTALL);
    private static final String OPEN = "[\\(\\[\\{（【]?\\s*";
    private static final String CLOSE = "\\s*[\\)\\]\\}）】]?";
    private static final Pattern BEFORE_ANSWER_END = Pattern.compile("(?<![A-Za-z])" + OPEN + "([" + LETTERS + "])" + CLOSE + "\\s*</\\s*answer\\s*>", U | I);
    private static final Pattern BEFORE_THINK_END = Pattern.compile("(?<![A-Za-z])" + OPEN + "([" + LETTERS + "])" + CLOSE + "\\s*</\\s*think\\s*>", U | I);
    private static final Pattern THINK_END = Pattern.compile("</\\s*think\\s*>", U | I);
    private static final Pattern THINK_START = Pattern.compile("<\\s*think\\s*>", U | I);
    private static final String TIGHT = "\\.,:;!?\\)\\]】》」』，。；、：）】》」』";
    private static final Pattern OPTION_LINE = Pattern.compile("^(?:[*_>\\-\\s]*)(?:option|选项)\\s+[A-J]\\s*[:：]", U | I);
    private static final Pattern ONE_LETTER_LINE = Pattern.compile("^\\s*[*_`>（）\\[\\]【】\\(\\)]*\\s*([A-Fa-f])\\s*[*_`（）\\[\\]【】\\(\\)]*\\s*$", U);
    private static final Pattern LABELED_LINE = Pattern.compile("^\\s*([A-F])\\s*[\\.．:：\\)\\]】、-]\\s+", U | I);
    private static final Pattern INLINE_TOKEN = Pattern.compile("(?<![A-Za-z])[*_`（\\[\\{\\(]*\\s*([A-F])\\s*[*_`）\\]\\}\\)]*(?=$|[\\s" + TIGHT + "])", U);
    private static final Pattern PHRASE = Pattern.compile("(?:final\\s*answer|the\\s*answer\\s*is|answer(?:\\s*is)?|correct\\s*answer|"
            + "答案|最终答案|结论|所以|因此|我选(?:择)?|选择|选)\\s*[:：>＝=]?\\s*" + OPEN + "([" + LETTERS + "])" + CLOSE + "(?:\\b|[.)、。])", U | I);
    private static final Pattern GLOBAL_TOKEN = Pattern.compile("(?<![A-Za-z])" + OPEN + "([" + LETTERS + "])" + CLOSE + "(?![A-Za-z])", U);

    private VlmEvalKitSpatialMcq() { }

    /**
     * The grade of {@code a}: the reply is the method's own option letter when it gave one (what a VLMEvalKit wrapper
     * around the method returns), else its answer text. The rule is {@code spatial-mcq:<letter read, or none>}.
     */
    public static Grade grade(KeyedQuestion q, Answer a) {
        String reply = a.option() != null ? a.option() : a.answer() == null ? "" : a.answer();
        String pred = read(reply);
        String gt = read(q.groundTruth() == null ? "" : q.groundTruth().strip());
        boolean hit = key(pred).equals(key(gt));
        return new Grade(hit ? Outcome.CORRECT : Outcome.WRONG, pred, RULE + ":" + (pred == null ? "none" : "letter"));
    }

    /** Python's {@code str(x).strip().lower()} of a reading: a letter, or {@code False} for none. */
    private static String key(String letter) { return letter == null ? "false" : letter.toLowerCase(Locale.ROOT); }

    /** {@code can_match_option}: the letter read from {@code answerText}, or null (VLMEvalKit's {@code False}). */
    public static String read(String answerText) {
        if (answerText == null) return null;
        String text = ZERO_WIDTH.matcher(answerText.strip()).replaceAll("");
        Matcher m = ANSWER_BLOCK.matcher(text);
        if (m.find()) return m.group(1).toUpperCase(Locale.ROOT);
        String tail = tail(text, TAIL_WINDOW);
        for (Pattern p : List.of(BEFORE_ANSWER_END, BEFORE_THINK_END)) {
            Matcher t = p.matcher(tail);
            if (t.find()) return t.group(1).toUpperCase(Locale.ROOT);
        }
        String segment = text;
        Matcher end = THINK_END.matcher(text);
        int after = -1;
        while (end.find()) after = end.end();
        if (after < 0) {
            Matcher start = THINK_START.matcher(text);
            while (start.find()) after = start.end();
        }
        if (after >= 0) segment = text.substring(after).strip();
        String pick = pickFromLines(last(splitLines(segment), TAIL_LINES));
        if (pick != null) return pick;
        pick = pickFromLines(last(splitLines(tail), TAIL_LINES));
        if (pick != null) return pick;
        Matcher phrase = PHRASE.matcher(text);
        if (phrase.find()) return phrase.group(1).toUpperCase(Locale.ROOT);
        List<String> kept = new ArrayList<>();
        for (String line : splitLines(text)) if (!OPTION_LINE.matcher(line).find()) kept.add(line);
        TreeSet<String> tokens = new TreeSet<>();
        Matcher g = GLOBAL_TOKEN.matcher(String.join("\n", kept));
        while (g.find()) tokens.add(g.group(1));
        return tokens.size() == 1 ? tokens.first() : null;
    }

    private static String pickFromLines(List<String> lines) {
        List<String> nonBlank = new ArrayList<>();
        for (String l : lines) if (!l.strip().isEmpty()) nonBlank.add(l.strip());
        for (int i = nonBlank.size() - 1; i >= 0; i--) {
            String line = nonBlank.get(i);
            if (OPTION_LINE.matcher(line).find()) continue;
            Matcher m = ONE_LETTER_LINE.matcher(line);
            if (m.matches()) return m.group(1).toUpperCase(Locale.ROOT);
            m = LABELED_LINE.matcher(line);
            if (m.lookingAt()) return m.group(1).toUpperCase(Locale.ROOT);
            TreeSet<String> tokens = new TreeSet<>();
            Matcher t = INLINE_TOKEN.matcher(line);
            while (t.find()) tokens.add(t.group(1).toUpperCase(Locale.ROOT));
            if (tokens.size() == 1) return tokens.first();
        }
        return null;
    }

    /** Python's {@code text[-n:]}, counted in code points. */
    private static String tail(String text, int n) {
        int count = text.codePointCount(0, text.length());
        return count <= n ? text : text.substring(text.offsetByCodePoints(0, count - n));
    }

    private static List<String> last(List<String> xs, int n) { return xs.subList(Math.max(0, xs.size() - n), xs.size()); }

    /** Python's {@code str.splitlines()}. */
    static List<String> splitLines(String s) {
        List<String> out = new ArrayList<>();
        int start = 0, i = 0, n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == '\r' && i + 1 < n && s.charAt(i + 1) == '\n') {
                out.add(s.substring(start, i));
                i += 2;
                start = i;
            } else if (c == '\n' || c == '\r' || c == '\u000b' || c == '\u000c' || c == '\u001c' || c == '\u001d' || c == '\u001e'
                    || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                out.add(s.substring(start, i));
                start = ++i;
            } else {
                i++;
            }
        }
        if (start < n) out.add(s.substring(start));
        return out;
    }
}
