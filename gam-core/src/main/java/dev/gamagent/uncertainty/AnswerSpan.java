package dev.gamagent.uncertainty;

import dev.gamagent.backend.TokenLogprob;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the tokens that spell the final answer inside a generated reply, for answer-span scoring
 * (docs/design.md §3). Works on the concatenated token strings, so it never depends on how a server
 * re-renders the text: the answer after {@code ANSWER:} (line format), after {@code "answer":} (JSON),
 * else its last occurrence as a whole word.
 */
public final class AnswerSpan {
    private static final Pattern LINE = Pattern.compile("(?im)^[\\s*#]*answer[\\s*]*[:：]\\s*");
    private static final Pattern JSON = Pattern.compile("(?i)\"answer\"\\s*:\\s*\"?");

    private AnswerSpan() { }

    /** Character range [start, end) of {@code answer} in {@code text}, or null when it does not occur. */
    public static int[] locate(String text, String answer) {
        if (text == null || answer == null || answer.isBlank()) return null;
        String hay = text.toLowerCase(Locale.ROOT);
        String needle = answer.strip().toLowerCase(Locale.ROOT);
        for (Pattern p : List.of(LINE, JSON)) {
            Matcher m = p.matcher(hay);
            int last = -1;
            while (m.find()) last = m.end();
            if (last >= 0) {
                int i = indexOfWord(hay, needle, last);
                // the answer must follow its marker closely, else the marker introduced something else
                if (i >= 0 && i - last <= 3) return new int[] {i, i + needle.length()};
            }
        }
        int i = -1;
        for (int j = indexOfWord(hay, needle, 0); j >= 0; j = indexOfWord(hay, needle, j + 1)) i = j;
        return i < 0 ? null : new int[] {i, i + needle.length()};
    }

    /**
     * The first occurrence of {@code needle} at or after {@code from} that is a whole word, or -1: a letter
     * answer "b" must not be found inside "because" or "blue".
     */
    private static int indexOfWord(String hay, String needle, int from) {
        boolean checkStart = Character.isLetterOrDigit(needle.charAt(0));
        boolean checkEnd = Character.isLetterOrDigit(needle.charAt(needle.length() - 1));
        for (int i = hay.indexOf(needle, from); i >= 0; i = hay.indexOf(needle, i + 1)) {
            int end = i + needle.length();
            boolean startOk = !checkStart || i == 0 || !Character.isLetterOrDigit(hay.charAt(i - 1));
            boolean endOk = !checkEnd || end == hay.length() || !Character.isLetterOrDigit(hay.charAt(end));
            if (startOk && endOk) return i;
        }
        return -1;
    }

    /** The tokens overlapping the answer's characters; empty when the answer is not found. */
    public static List<TokenLogprob> tokens(List<TokenLogprob> tokens, String answer) {
        StringBuilder joined = new StringBuilder();
        int[] starts = new int[tokens.size()];
        for (int t = 0; t < tokens.size(); t++) {
            starts[t] = joined.length();
            joined.append(tokens.get(t).token() == null ? "" : tokens.get(t).token());
        }
        int[] span = locate(joined.toString(), answer);
        if (span == null) return List.of();
        List<TokenLogprob> out = new ArrayList<>();
        for (int t = 0; t < tokens.size(); t++) {
            int s = starts[t];
            int e = t + 1 < tokens.size() ? starts[t + 1] : joined.length();
            if (e > span[0] && s < span[1]) out.add(tokens.get(t));
        }
        return out;
    }
}
