package dev.gamagent.local;

import dev.gamagent.local.QuestionFamily.ChartKind;
import dev.gamagent.local.QuestionWords.Word;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.gamagent.local.QuestionWords.CHART_CUES;
import static dev.gamagent.local.QuestionWords.COMPARE_DOWN;
import static dev.gamagent.local.QuestionWords.COMPARE_UP;
import static dev.gamagent.local.QuestionWords.SUPERLATIVE_DOWN;
import static dev.gamagent.local.QuestionWords.SUPERLATIVE_UP;
import static dev.gamagent.local.QuestionWords.TEXT_CUES;
import static dev.gamagent.local.QuestionWords.VALUE_CUES;
import static dev.gamagent.local.QuestionWords.any;
import static dev.gamagent.local.QuestionWords.known;

/**
 * Reads a question about a bar chart: which bars it compares ("is apple or pear larger"), whether it asks for the
 * tallest or shortest bar, and which bar's value it asks for (quoted, after "labeled", or the one run of words that
 * are not question words).
 */
final class ChartQuestionReader {
    private static final Pattern QUOTED = Pattern.compile("[\"“”'‘’]([^\"“”'‘’]{1,40})[\"“”'‘’]");
    private static final Pattern NAMED = Pattern.compile("(?:labell?ed|named|called|marked|titled)\\s+[\"“'‘]?([\\p{L}\\p{N}][\\p{L}\\p{N} _-]{0,30}?)[\"”'’]?\\s*(?:[?.,:;!]|$|\\s(?:bar|and|or|in|on|have|has|show|reach))",
            Pattern.CASE_INSENSITIVE);

    private ChartQuestionReader() { }

    /** "Is apple or pear larger": two words joined by "or" that name no colour, shape or direction. */
    static boolean comparesLabels(List<Word> words, List<String> options) {
        if (!(any(words, COMPARE_UP) || any(words, COMPARE_DOWN) || any(words, SUPERLATIVE_UP) || any(words, SUPERLATIVE_DOWN))) return false;
        List<String> labels = optionLabelsInQuestion(words, options);
        if (labels.size() >= 2) return true;
        return options.isEmpty() && orPair(words) != null;
    }

    private static List<String> optionLabelsInQuestion(List<Word> words, List<String> options) {
        List<String> out = new ArrayList<>();
        String joined = " " + String.join(" ", words.stream().map(Word::text).toList()) + " ";
        Map<Integer, String> at = new java.util.TreeMap<>();
        for (String o : options) {
            String n = o.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
            if (n.isEmpty() || OptionKind.of(o) != OptionKind.WORD) continue;
            int i = joined.indexOf(" " + n + " ");
            if (i >= 0) at.put(i, o.strip());
        }
        out.addAll(at.values());
        return out; // in the question's order
    }

    /** The unknown words on either side of "or" / "and" ("apple or pear"), or null. */
    private static String[] orPair(List<Word> words) {
        for (int i = 1; i + 1 < words.size(); i++) {
            Word w = words.get(i);
            if (!(w.text().equals("or") || w.text().equals("and") || w.text().equals("vs") || w.text().equals("versus"))) continue;
            Word a = words.get(i - 1), b = words.get(i + 1);
            if (label(a) && label(b)) return new String[]{a.raw(), b.raw()};
        }
        return null;
    }

    private static boolean label(Word w) {
        return !known(w) && !w.is(CHART_CUES) && !w.is(TEXT_CUES) && !w.is(VALUE_CUES) || w.text().matches("[a-z]?\\d+[a-z]?") && w.text().length() <= 4;
    }

    static QuestionFamily chart(String q, List<Word> words, List<String> options, OptionKind kind) {
        boolean up = any(words, COMPARE_UP), down = any(words, COMPARE_DOWN);
        boolean supUp = any(words, SUPERLATIVE_UP), supDown = any(words, SUPERLATIVE_DOWN);
        List<String> labels = optionLabelsInQuestion(words, options);
        String[] pair = labels.size() >= 2 ? new String[]{labels.get(0), labels.get(1)} : orPair(words);
        if (pair == null && labels.isEmpty() && options.isEmpty()) pair = twoLabels(words);
        if (kind != OptionKind.NUMBER && pair != null && (up || down || supUp || supDown)) {
            boolean smaller = (down || supDown) && !(up || supUp);
            return new QuestionFamily.Chart(smaller ? ChartKind.SMALLER : ChartKind.LARGER, pair[0], pair[1]);
        }
        if (kind != OptionKind.NUMBER && (supUp || supDown)) {
            return new QuestionFamily.Chart(supDown && !supUp ? ChartKind.SHORTEST : ChartKind.TALLEST, null, null);
        }
        if (kind == OptionKind.NUMBER || kind == OptionKind.NONE && any(words, VALUE_CUES)) {
            String label = valueLabel(q, words);
            if (label != null) return new QuestionFamily.Chart(ChartKind.VALUE, label, null);
        }
        return null;
    }

    /** Two separate runs of unknown words ("between apple and pear"), for an open comparison. */
    private static String[] twoLabels(List<Word> words) {
        List<String> runs = labelRuns(words);
        return runs.size() == 2 ? new String[]{runs.get(0), runs.get(1)} : null;
    }

    private static List<String> labelRuns(List<Word> words) {
        List<String> runs = new ArrayList<>();
        StringBuilder cur = null;
        for (Word w : words) {
            if (label(w)) {
                if (cur == null) cur = new StringBuilder(w.raw());
                else cur.append(' ').append(w.raw());
            } else if (cur != null) {
                runs.add(cur.toString());
                cur = null;
            }
        }
        if (cur != null) runs.add(cur.toString());
        return runs;
    }

    /** The bar a value question names: quoted, after "labeled"/"named", else the one run of words that are not question words. */
    private static String valueLabel(String q, List<Word> words) {
        Matcher m = QUOTED.matcher(q);
        if (m.find()) return m.group(1).strip();
        Matcher n = NAMED.matcher(q);
        if (n.find()) return n.group(1).strip();
        List<String> runs = labelRuns(words);
        return runs.isEmpty() ? null : runs.get(0);
    }
}
