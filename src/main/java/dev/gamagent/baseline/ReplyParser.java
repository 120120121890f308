package dev.gamagent.baseline;

import dev.gamagent.api.Question;
import dev.gamagent.engine.AnswerExtractor;

import java.util.Locale;
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

    private ReplyParser() { }

    /** What a reply answered: the text to show, the option letter (or null) and how it was found. */
    public record Parsed(String answer, String option, String how) { }

    public static Parsed parse(String reply, Question q) {
        String text = reply == null ? "" : reply.strip();
        String stated = statedAnswer(text);
        if (q.isMultipleChoice()) {
            String opt = stated != null ? AnswerExtractor.option(stated, q.options()) : null;
            String how = "answer-line";
            if (opt == null) {
                opt = AnswerExtractor.option(text, q.options());
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

    /** The key two answers share when they agree: the option letter, else the normalised text. */
    public static String key(String answer, String option) {
        if (option != null) return option;
        if (answer == null) return "";
        return answer.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
    }

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
