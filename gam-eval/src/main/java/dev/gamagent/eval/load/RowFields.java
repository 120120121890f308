package dev.gamagent.eval.load;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Question;
import dev.gamagent.eval.format.PythonList;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A benchmark row's text fields read as a question: every format's row as TSV-style fields (a TSV row is so already;
 * a JSONL object and an M3MAD record are turned into them), its options, and the question with its checks, the same
 * for the three formats. A row that cannot be a question throws {@link BadRowException}.
 */
final class RowFields {
    private static final Pattern OPTION_LINE = Pattern.compile("^\\s*\\(?([A-Z])[.):]\\s+(.+?)\\s*$");
    /** An answer that is an option letter ("B", "(b)", "B."); compiled once, as every row is read with it. */
    private static final Pattern LETTER = Pattern.compile("\\(?[A-Za-z][.)]?");

    private RowFields() { }

    /** The row's options A..Z that are set. */
    static Map<String, String> options(Map<String, String> r) {
        Map<String, String> options = new LinkedHashMap<>();
        for (char c = 'A'; c <= 'Z'; c++) {
            String v = blankToNull(r.get(String.valueOf(c)));
            if (v != null) options.put(String.valueOf(c), v.strip());
        }
        if (options.isEmpty()) {
            // MathVista_MINI keeps its options as a Python list in 'choices' (VLMEvalKit's post_check evals it)
            List<String> choices = PythonList.strings(blankToNull(r.get("choices")));
            for (int i = 0; i < choices.size() && i < 26; i++) options.put(String.valueOf((char) ('A' + i)), choices.get(i).strip());
        }
        return options;
    }

    /**
     * The row's question without images. A row without options whose answer is an option letter, in a
     * file where other rows have options (or whose {@code question_type} says multiple choice), lost its
     * options: it is refused rather than graded as an open question. Open questions mixed into a
     * multiple-choice file (MMMU, MathVista, M3MAD) have other answers, or say {@code question_type: open}.
     */
    static KeyedQuestion toQuestion(String idx, Map<String, String> r, boolean multipleChoiceFile) {
        String text = blankToNull(r.get("question"));
        if (text == null) throw new BadRowException(r.containsKey("question") ? "empty 'question'" : "missing column 'question'");
        Map<String, String> options = options(r);
        // VizWiz and ZEROBench name the column 'answers' (VLMEvalKit reads it there)
        String answer = blankToNull(r.containsKey("answer") ? r.get("answer") : r.get("answers"));
        if (answer == null && !options.isEmpty() && withoutPublicAnswer(r)) {
            // a test split without public answers (MMBench_TEST_*): asked, answered, kept for the submission file, never graded
            return new KeyedQuestion(new Question(idx, List.of(), text, blankToNull(r.get("hint")), options), null,
                    blankToNull(r.get("category")), blankToNull(r.getOrDefault("l2-category", r.get("l2_category"))));
        }
        if (answer == null) throw new BadRowException(r.containsKey("answer") ? "empty 'answer'" : "missing column 'answer'");
        answer = answer.strip();
        String type = blankToNull(r.get("question_type"));
        String kind = type == null ? "" : type.strip().toLowerCase(Locale.ROOT);
        boolean declaredChoice = kind.contains("choice");
        boolean declaredOpen = !kind.isEmpty() && !declaredChoice;
        boolean letterAnswer = LETTER.matcher(answer).matches();
        if (options.isEmpty() && (declaredChoice || multipleChoiceFile && letterAnswer && !declaredOpen)) {
            throw new BadRowException("no options (columns A, B, ... are empty) but "
                    + (declaredChoice ? "question_type is '" + type.strip() + "'" : "the answer '" + answer + "' names an option "
                    + "and other rows of the file have options")
                    + "; fill in the options, or set question_type to 'open' if it is a free-form question");
        }
        if (!options.isEmpty() && letterAnswer) {
            // "(B)" and "B." name option B (M3MAD-Bench writes every option answer as "(B)")
            String l = answer.replaceAll("[^A-Za-z]", "").toUpperCase(Locale.ROOT);
            if (options.containsKey(l)) answer = l;
        }
        if (!options.isEmpty() && !options.containsKey(answer.toUpperCase(Locale.ROOT))) {
            // M3MAD and some TSVs give the option text instead of the letter
            String letter = null;
            for (var e : options.entrySet()) if (e.getValue().equalsIgnoreCase(answer)) letter = e.getKey();
            if (letter == null) throw new BadRowException("answer '" + answer + "' is neither an option letter nor an option's text");
            answer = letter;
        } else if (!options.isEmpty()) answer = answer.toUpperCase(Locale.ROOT);
        String l2 = blankToNull(r.getOrDefault("l2-category", r.get("l2_category")));
        return new KeyedQuestion(new Question(idx, List.of(), text, blankToNull(r.get("hint")), options), answer,
                blankToNull(r.get("category")), l2);
    }

    /**
     * A multiple-choice row of a test split without public answers: the file has no {@code answer} column at all, or
     * the row's {@code split} says {@code test} (VLMEvalKit's MMBench test files). An empty answer elsewhere is a broken row.
     */
    static boolean withoutPublicAnswer(Map<String, String> r) {
        String split = blankToNull(r.get("split"));
        return !r.containsKey("answer") && !r.containsKey("answers") || split != null && split.strip().equalsIgnoreCase("test");
    }

    /** A JSONL line's object as TSV-style fields: text as it is, null as empty, anything else as its JSON. */
    static Map<String, String> jsonlFields(JsonNode node) {
        Map<String, String> m = new LinkedHashMap<>();
        node.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText()
                : e.getValue().isNull() ? "" : e.getValue().toString()));
        return m;
    }

    /** An M3MAD record as TSV-style fields: options out of the query's "A. text" lines, tag as category, source as l2-category. */
    static Map<String, String> m3madFields(JsonNode o, String idx) {
        if (!o.isObject()) throw new BadRowException("not a JSON object");
        if (!o.hasNonNull("query")) throw new BadRowException("missing field 'query'");
        Map<String, String> m = new LinkedHashMap<>();
        m.put("index", idx);
        StringBuilder q = new StringBuilder();
        for (String line : o.get("query").asText().split("\r?\n")) {
            Matcher om = OPTION_LINE.matcher(line);
            if (om.matches() && !m.containsKey(om.group(1))) m.put(om.group(1), om.group(2));
            else if (!line.isBlank()) q.append(q.length() > 0 ? "\n" : "").append(line.strip());
        }
        m.put("question", q.toString());
        // M3MAD records say nothing of their type: one without "(A) text" lines has its options in the image, or none
        // ("Choose the correct answer from the image."); it is asked as it is, its gt ("(E)") the answer, not refused
        if (m.keySet().stream().noneMatch(k -> k.length() == 1)) m.put("question_type", "open");
        JsonNode ip = o.get("image_path");
        m.put("image_path", ip == null || ip.isNull() ? "" : ip.isTextual() ? ip.asText() : ip.toString());
        m.put("answer", o.hasNonNull("gt") ? o.get("gt").asText().strip() : "");
        m.put("category", o.hasNonNull("tag") ? o.get("tag").asText() : "");
        m.put("l2-category", o.hasNonNull("source") ? o.get("source").asText() : "");
        return m;
    }

    /** An M3MAD record's index: its {@code id}, else its {@code index}, else its position in the list. */
    static String m3madIndex(JsonNode o, int position) {
        return o.hasNonNull("id") ? o.get("id").asText() : o.hasNonNull("index") ? o.get("index").asText() : Integer.toString(position);
    }

    static String blankToNull(String s) {
        if (s == null) return null;
        String t = s.strip();
        return t.isEmpty() || t.equals("nan") || t.equals("NaN") ? null : s;
    }
}
