package dev.gamagent.engine;

import dev.gamagent.api.Question;
import dev.gamagent.influence.Consensus;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the answer out of a reply in the project's line format ({@code ANSWER: X}, docs/CONTRACTS.md §1),
 * falling back to VLMEvalKit-style letter extraction for multiple choice and to the first line for open answers.
 */
public final class ReplyParser {
    private static final Pattern ANSWER_LINE = Pattern.compile(
            "(?im)^[\\s*#>]*(?:final\\s+)?answer\\s*\\**\\s*[:=]\\s*\\**\\s*(.+?)\\s*$");
    private static final Pattern CONTROL_LINE = Pattern.compile(
            "(?im)^[\\s*#>]*(?:final\\s+answer|answer|confidence|decision)\\s*\\**\\s*[:=].*$");

    /**
     * "the answer is c." / "answer: (b)": a lower-case letter counts only when bracketed or followed by
     * punctuation or the end, so "the answer is a blue square" is not option A.
     */
    private static final Pattern LOWER_EXPLICIT = Pattern.compile(
            "(?im)(?:final\\s+answer|answer|option|choice)\\s*(?:is|:|=)?\\s*(?:option\\s*)?"
                    + "(?:[(\\[]([a-z])[)\\]]|([a-z])(?=\\s*(?:[.,;!]|$)))");

    private ReplyParser() { }

    /** {@code "answer": "C"} in a JSON reply, fenced or not. */
    private static final Pattern JSON_ANSWER = Pattern.compile("(?i)\"answer\"\\s*:\\s*\"([^\"]*)\"");
    /** A reply that opens with its letter: "B. The triangle is blue ...", "(C) because ...". */
    private static final Pattern LEADING = Pattern.compile("^\\(?([A-Z])(?:[.):]|\\s*$)");

    /**
     * The option letter a reply chose: the JSON "answer" field when there is one, then
     * {@link AnswerExtractor#option} (VLMEvalKit's rules; it does not read the article in "the answer is
     * a blue square" as option A), then a lower-case letter after an answer marker ("The answer is c."), then a leading
     * letter ("B. A blue triangle ..." names two capitals, which VLMEvalKit leaves unmatched).
     */
    public static String option(String text, Map<String, String> options) {
        if (text == null) return null;
        Matcher jm = JSON_ANSWER.matcher(text);
        String fromJson = null;
        while (jm.find()) fromJson = jm.group(1);
        if (fromJson != null) {
            String o = plainOption(fromJson, options);
            if (o != null) return o;
        }
        return plainOption(text, options);
    }

    private static String plainOption(String text, Map<String, String> options) {
        String opt = AnswerExtractor.option(text, options);
        if (opt != null) return opt;
        Matcher m = LOWER_EXPLICIT.matcher(text);
        String last = null;
        while (m.find()) {
            String l = (m.group(1) != null ? m.group(1) : m.group(2)).toUpperCase(Locale.ROOT);
            if (options.containsKey(l)) last = l;
        }
        if (last != null) return last;
        Matcher lm = LEADING.matcher(text.strip());
        return lm.find() && options.containsKey(lm.group(1)) ? lm.group(1) : null;
    }

    /** What a reply answered: the text to show, the option letter (or null) and how it was found. */
    public record Parsed(String answer, String option, String how) { }

    public static Parsed parse(String reply, Question q) {
        String text = reply == null ? "" : reply.strip();
        String stated = statedAnswer(text);
        if (q.isMultipleChoice()) {
            String opt = stated != null ? option(stated, q.options()) : null;
            String how = "answer-line";
            if (opt == null) {
                opt = option(text, q.options());
                how = "extracted";
            }
            if (opt != null) return new Parsed(q.options().get(opt), opt, how);
            return new Parsed(stated != null ? stated : firstLine(text), null, "unmatched");
        }
        if (stated != null) return new Parsed(clean(stated), null, "answer-line");
        return new Parsed(clean(firstLine(text)), null, "first-line");
    }

    /** The content of the last {@code ANSWER:} line, or null. */
    public static String statedAnswer(String text) {
        Matcher m = ANSWER_LINE.matcher(text);
        String last = null;
        while (m.find()) last = m.group(1);
        return last == null || last.isBlank() ? null : last.strip();
    }

    /** The reply without its ANSWER / CONFIDENCE / DECISION lines: the reasoning shown to peers. */
    public static String reasoning(String text) {
        if (text == null) return "";
        return CONTROL_LINE.matcher(text).replaceAll("").replaceAll("\\n{3,}", "\n\n").strip();
    }

    /** The key two answers share when they agree: the option letter, else the normalised text ({@link Consensus#key}). */
    public static String key(String answer, String option) { return Consensus.key(answer, option); }

    private static String firstLine(String text) {
        for (String line : text.split("\\R")) if (!line.isBlank()) return line.strip();
        return "";
    }

    private static String clean(String s) {
        String t = s.strip();
        while (t.endsWith(".") || t.endsWith("*")) t = t.substring(0, t.length() - 1).strip();
        return t;
    }
}
