package dev.gamagent.eval.grade;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.config.Config;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Replays real MathVista testmini replies (lupantech/MathVista {@code results/<model>/output_<model>.json}: each
 * entry's query, response, the recorded judge extraction and MathVista's verdict {@code true_false}) through our
 * grading: (a) the judge path with a scripted judge that answers VLMEvalKit's prompt with the recorded extraction of
 * that reply, (b) the rule-only fallback (VLMEvalKit's prefetch; and {@link OpenAnswerMatcher}) — each against the
 * recorded verdict. Every disagreement is put in a class (why our grading and MathVista's own scoring differ).
 * {@code bench/mathvista-judge.sh} prints the figures for the whole folder; {@code MathVistaReplayTest} checks a fixture.
 */
final class MathVistaReplay {
    /** One recorded reply. */
    record Entry(String model, String pid, KeyedQuestion question, String response, String extraction, boolean recorded,
                 String questionType, String answerType, String answer, List<String> choices) { }

    /** One reply graded our ways. */
    record Row(Entry entry, Grade judged, Grade prefetch, Grade matcher, int judgeCalls) {
        /** VLMEvalKit's post_check on the recorded extraction alone (as if the prefetch had decided nothing). */
        boolean postCheckAgrees() {
            Entry e = entry;
            boolean right = e.questionType().equals("multi_choice")
                    ? e.question().groundTruth() != null && e.question().groundTruth().equals(
                            VlmEvalKitMatcher.infer(e.extraction(), e.question().options(), VlmEvalKitMatcher.Rules.V2026).letter())
                    : VlmEvalKitMathVista.postCheck(e.extraction(), e.answer(), VlmEvalKitMathVista.answerType(e.question().text(), e.answer()));
            return right == e.recorded();
        }

        boolean judgedAgrees() { return (judged.outcome() == Outcome.CORRECT) == entry.recorded(); }
    }

    private MathVistaReplay() { }

    /** The entries of one {@code output_<model>.json}, by pid order. */
    static List<Entry> load(Path file) throws IOException {
        String model = file.getFileName().toString().replaceFirst("^output_", "").replaceFirst("\\.jsonl?$", "");
        JsonNode root = Json.MAPPER.readTree(file.toFile());
        List<Entry> out = new ArrayList<>();
        TreeMap<Integer, JsonNode> byPid = new TreeMap<>();
        root.fields().forEachRemaining(e -> byPid.put(Integer.parseInt(e.getKey()), e.getValue()));
        for (var e : byPid.entrySet()) {
            JsonNode n = e.getValue();
            List<String> choices = new ArrayList<>();
            if (n.path("choices").isArray()) n.get("choices").forEach(c -> choices.add(c.asText()));
            String answer = n.path("answer").asText();
            String type = n.path("question_type").asText();
            Map<String, String> options = new LinkedHashMap<>();
            String truth = answer;
            if (type.equals("multi_choice")) {
                // VLMEvalKit's MathVista_MINI: options from 'choices', the answer's letter (answer_option)
                for (int i = 0; i < choices.size(); i++) options.put(String.valueOf((char) ('A' + i)), choices.get(i));
                truth = null;
                for (var o : options.entrySet()) if (o.getValue().equals(answer) && truth == null) truth = o.getKey();
            }
            Question q = new Question(String.valueOf(e.getKey()), List.of(), n.path("query").asText(), null, options);
            out.add(new Entry(model, String.valueOf(e.getKey()), new KeyedQuestion(q, truth, null, null), n.path("response").asText(""),
                    n.path("extraction").isNull() ? "" : n.path("extraction").asText(""), n.path("true_false").asBoolean(),
                    type, n.path("answer_type").asText(), answer, choices));
        }
        return out;
    }

    /** Grades every entry: judge path (scripted judge returning the recorded extraction), prefetch alone, our matcher. */
    static List<Row> grade(List<Entry> entries) {
        Map<String, String> extraction = new HashMap<>();
        for (Entry en : entries) extraction.put(en.question().text() + "\n" + HarnessPrompt.MATHVISTA.responseLabel() + en.response(), en.extraction());
        int[] calls = {0};
        ScriptedBackend judge = ScriptedBackend.text(r -> {
            calls[0]++;
            return extractionFor(r, extraction);
        });
        Config base = Config.defaults().with(Grader.OPEN_ANSWERS_KEY, VlmEvalKitMathVista.RULE);
        Grader judged = new Grader(base, judge);
        Grader prefetch = new Grader(base, null);
        Grader matcher = new Grader(Config.defaults(), null);
        List<Row> rows = new ArrayList<>();
        for (Entry en : entries) {
            Answer a = new Answer(en.response(), null, 0.5, 0.5, 0, Termination.SINGLE, TokenCount.ZERO, 1, 1, null);
            int before = calls[0];
            Grade j = judged.grade(en.question(), a);
            rows.add(new Row(en, j, prefetch.grade(en.question(), a), matcher.grade(en.question(), a), calls[0] - before));
        }
        return rows;
    }

    /** The scripted judge: the prompt must be VLMEvalKit's, for a reply it knows; it answers with that reply's recorded extraction. */
    private static String extractionFor(ChatRequest r, Map<String, String> extraction) {
        String p = r.messages().get(0).text();
        HarnessPrompt h = HarnessPrompt.MATHVISTA;
        if (!p.startsWith(h.taskDescription() + h.examples().get(0)) || !p.endsWith(h.answerLabel())) {
            throw new IllegalStateException("not VLMEvalKit's MathVista prompt: " + p.substring(0, Math.min(80, p.length())));
        }
        String key = p.substring(p.lastIndexOf(h.examples().get(h.examples().size() - 1) + "\n") + h.examples().get(h.examples().size() - 1).length() + 1,
                p.length() - h.answerLabel().length());
        String x = extraction.get(key);
        if (x == null) throw new IllegalStateException("the scripted judge was asked about a reply it has no recorded extraction for");
        return x;
    }

    /** Why the judge path's verdict differs from MathVista's recorded one (see docs/metrics.md). */
    static String disagreement(Row row) {
        Entry e = row.entry();
        String x = e.extraction().strip();
        boolean ours = row.judged().outcome() == Outcome.CORRECT;
        if (e.questionType().equals("multi_choice")) {
            if (row.judged().rule().endsWith(":refusal")) {
                return "multi_choice: can_infer reads the reply as a refusal (Z, wrong) without asking the judge; MathVista maps the "
                        + "extraction to the most similar choice, here the answer";
            }
            if (row.judged().rule().startsWith("vlmevalkit")) {
                return "multi_choice: can_infer reads an option letter in the reply itself (VLMEvalKit's prefetch, no judge); "
                        + "the recorded extraction names another option";
            }
            if (x.matches("[A-Z]") && !e.question().options().containsKey(x)) {
                return "multi_choice: the extraction is a letter beyond the options (the reply's own '(E) …'); can_infer finds no option, "
                        + "MathVista maps it to the most similar choice, here the answer";
            }
            if (e.question().options().containsKey(x) && e.question().options().get(x).equals(e.answer())) {
                return "multi_choice: two choices have the answer's text; the extraction names the second, MathVista compares the text, the answer's letter here is the first";
            }
            if (x.matches("\\([a-z]\\)")) {
                return "multi_choice: the extraction '(b)' is a choice's own text; MathVista reads '(x)' as the letter X";
            }
            if (!x.matches("[A-Z]")) return "multi_choice: the extraction is no option letter; MathVista maps it to the most similar choice text, can_infer "
                    + (row.judged().predicted() == null ? "finds no option" : "reads another option");
            return "multi_choice: other";
        }
        if (row.judged().rule().endsWith(":prefetch")) return e.answerType() + ": VLMEvalKit's prefetch decided from the reply itself; MathVista's extraction read it otherwise";
        if (e.answerType().equals("list")) return "list: VLMEvalKit's post_check never counts a list answer right (it compares str(None)); MathVista compares the list";
        if (e.answerType().equals("float")) {
            try {
                double v = Double.parseDouble(x);
                return new java.math.BigDecimal(x).scale() > Integer.parseInt(precisionOf(e.answer()))
                        ? "float: the extraction has more decimals than the answer; MathVista rounds it to the answer's precision, VLMEvalKit compares float() exactly"
                        : "float: other (" + v + ")";
            } catch (NumberFormatException ex) {
                return "float: float() cannot read the extraction; MathVista reads int(float(x))";
            }
        }
        if (e.answerType().equals("integer")) {
            if (x.matches("[+-]?\\d+\\.0*")) return "integer: the extraction is written as a decimal ('14.0'); MathVista reads int(float(x)), VLMEvalKit's int() raises";
            return "integer: int() cannot read the extraction ('" + (x.length() > 20 ? x.substring(0, 20) + "…" : x) + "'); MathVista reads int(float(x))";
        }
        return e.answerType() + ": other";
    }

    private static String precisionOf(String answer) {
        int dot = answer.indexOf('.');
        return Integer.toString(dot < 0 ? 0 : answer.length() - dot - 1);
    }

    /** Prints the figures for every output_*.json in the folders given. */
    public static void main(String[] args) throws IOException {
        List<Entry> all = new ArrayList<>();
        for (String a : args) {
            try (Stream<Path> files = Files.list(Path.of(a))) {
                for (Path f : files.filter(p -> p.getFileName().toString().matches("output_.*\\.json")).sorted().toList()) all.addAll(load(f));
            }
        }
        if (all.isEmpty()) throw new IllegalArgumentException("no output_*.json in " + String.join(", ", args));
        System.out.print(report(grade(all)));
    }

    /** The figures: per model and in total, with every disagreement class counted. */
    static String report(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        Map<String, int[]> perModel = new TreeMap<>();
        Map<String, Integer> classes = new TreeMap<>();
        int post = 0;
        for (Row r : rows) if (r.postCheckAgrees()) post++;
        int agree = 0, calls = 0, fpAgree = 0, fpDecided = 0, fpUndecided = 0, mAgree = 0, free = 0, fpFreeDecided = 0, fpFreeAgree = 0;
        for (Row r : rows) {
            int[] m = perModel.computeIfAbsent(r.entry().model(), k -> new int[6]);
            if (r.entry().recorded()) m[3]++;
            if (r.judged().outcome() == Outcome.CORRECT) m[4]++;
            if (r.prefetch().outcome() == Outcome.CORRECT) m[5]++;
            m[0]++;
            if (r.judgedAgrees()) { agree++; m[1]++; } else classes.merge(disagreement(r), 1, Integer::sum);
            calls += r.judgeCalls();
            // a refusal is decided (VLMEvalKit's can_infer reads it as Z, wrong); a reply left for the judge is not
            boolean decided = r.prefetch().outcome() != Outcome.UNMATCHED || r.prefetch().rule().endsWith(":refusal");
            if (decided) {
                fpDecided++;
                if ((r.prefetch().outcome() == Outcome.CORRECT) == r.entry().recorded()) fpAgree++;
            } else fpUndecided++;
            if ((r.prefetch().outcome() == Outcome.CORRECT) == r.entry().recorded()) m[2]++;
            if (!r.entry().questionType().equals("multi_choice")) {
                free++;
                if ((r.matcher().outcome() == Outcome.CORRECT) == r.entry().recorded()) mAgree++;
                if (decided) {
                    fpFreeDecided++;
                    if ((r.prefetch().outcome() == Outcome.CORRECT) == r.entry().recorded()) fpFreeAgree++;
                }
            }
        }
        int n = rows.size();
        sb.append(String.format(Locale.ROOT, "%d recorded replies (%d models); judge path with the recorded extraction as the judge's reply: "
                + "%d agree with MathVista's true_false (%.1f %%), %d judge calls%n", n, perModel.size(), agree, 100.0 * agree / n, calls));
        sb.append(String.format(Locale.ROOT, "post_check alone on every recorded extraction (no prefetch): %d of %d agree (%.1f %%)%n",
                post, n, 100.0 * post / n));
        sb.append(String.format(Locale.ROOT, "%-26s %7s %9s %9s %13s %9s %15s%n", "model", "replies", "recorded", "judge",
                "judge agrees", "rules", "rules agree"));
        for (var e : perModel.entrySet()) {
            int[] m = e.getValue();
            sb.append(String.format(Locale.ROOT, "%-26s %7d %8.1f%% %8.1f%% %6d %5.1f%% %8.1f%% %8d %5.1f%%%n", e.getKey(), m[0], 100.0 * m[3] / m[0],
                    100.0 * m[4] / m[0], m[1], 100.0 * m[1] / m[0], 100.0 * m[5] / m[0], m[2], 100.0 * m[2] / m[0]));
        }
        sb.append("(recorded: MathVista's accuracy; judge: ours with the recorded extraction as the judge's reply; rules: ours without a judge, "
                + "undecided counted wrong)\n");
        sb.append("disagreements of the judge path, by class:\n");
        for (var e : classes.entrySet()) sb.append(String.format(Locale.ROOT, "%6d  %s%n", e.getValue(), e.getKey()));
        sb.append(String.format(Locale.ROOT, "rule-only fallback (no judge): decides %d of %d (%.1f %%), of which %d agree with the record (%.1f %%); "
                + "%d undecided (counted wrong); counted as graded, %d of %d agree (%.1f %%)%n", fpDecided, n, 100.0 * fpDecided / n, fpAgree,
                100.0 * fpAgree / Math.max(1, fpDecided), fpUndecided, perModel.values().stream().mapToInt(m -> m[2]).sum(), n,
                100.0 * perModel.values().stream().mapToInt(m -> m[2]).sum() / n));
        sb.append(String.format(Locale.ROOT, "free-form only (%d): prefetch decides %d, %d of them agree; OpenAnswerMatcher (eval.open_answers=matcher) agrees on %d (%.1f %%)%n",
                free, fpFreeDecided, fpFreeAgree, mAgree, 100.0 * mAgree / Math.max(1, free)));
        return sb.toString();
    }
}
