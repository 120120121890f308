package dev.gamagent.eval.grade;

import dev.gamagent.eval.format.PandasFrame;
import dev.gamagent.eval.format.PandasQuoting;
import dev.gamagent.eval.load.CircularExpansion;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * VLMEvalKit's multiple-choice evaluation of a prediction file without its LLM judge (its
 * {@code exact_matching} policy), reimplemented from {@code vlmeval/dataset/utils/multiple_choice.py}:
 * {@code eval_vanilla} grades each row by {@code can_infer} and counts a reply it cannot read as "Z"
 * (wrong); on MMBench and CCBench ({@code mcq_circular_eval}) the rows whose index is the same modulo
 * 10⁶ are one question asked with rotated options, right only when every rotation is read as its answer
 * ({@code prefetch_circular_group}); {@code report_acc} (or {@code report_acc_MMT} for MMT-Bench) gives
 * the accuracy per split, overall, per l2-category and per category, in VLMEvalKit's column order and names.
 */
public final class VlmEvalKitGrading {
    private static final long CIRCULAR_STRIDE = 1_000_000L;
    private static final String JUDGE_LOG = "Failed in Prefetch, no GPT-based answer matching under `exact_matching` policy.";
    /** VLMEvalKit's MMB_abbrs: column names for MMBench's l2-categories. */
    private static final Map<String, String> MMB_ABBRS = Map.of(
            "coarse_perception", "CP", "finegrained_perception (instance-level)", "FP-S",
            "finegrained_perception (cross-instance)", "FP-C", "logic_reasoning", "LR", "relation_reasoning", "RR",
            "attribute_reasoning", "AR");
    /** VLMEvalKit's MMT_abbrs, in its order (the column order of report_acc_MMT). */
    private static final Map<String, String> MMT_ABBRS = mmtAbbrs();

    private static Map<String, String> mmtAbbrs() {
        Map<String, String> m = new LinkedHashMap<>();
        String[] pairs = {"visual_recognition", "VR", "localization", "Loc", "ocr", "OCR", "counting", "Count",
                "hallucination", "HLN", "image_retrieval", "IR", "threed", "3D", "visual_captioning", "VC",
                "visual_grounding", "VG", "doc_understanding", "DU", "action_recognition", "AR",
                "pixel_level_perception", "PLP", "image-to-image_translation", "I2IT", "relation_reasoning", "RR",
                "intelligence_quotient_test", "IQT", "emotion", "Emo", "visual_illusion", "VI", "meme_understanding", "MemU",
                "visual_prompt_understanding", "VPU", "anomaly_detection", "AND", "keypoint_detection", "KD",
                "visual_commonsense_reasoning", "VCR", "image_evaluation_judgement", "IEJ", "multiple_image_analysis", "MIA",
                "cross_image_matching", "CIM", "temporal_understanding", "TU", "visual_code", "VP",
                "medical_understanding", "MedU", "autonomous_driving", "AUD", "discipline_knowledge_reasoning", "DKR",
                "embodied_ai", "EA", "gui_navigation", "GN"};
        for (int i = 0; i < pairs.length; i += 2) m.put(pairs[i], pairs[i + 1]);
        return Collections.unmodifiableMap(m);
    }

    private VlmEvalKitGrading() { }

    /**
     * One row's verdict. {@code extracted} is what the grading mode read ("Z" for a refusal, null when
     * nothing; VLMEvalKit's exact matching then grades "Z"), {@code step} which rule read it (lower case:
     * option, text, refusal, z, answer-is, none; the extended mode's own names), {@code hit} this row's
     * own verdict.
     */
    public record Row(String index, String group, int rotation, String split, String category, String l2Category,
                      String answer, String prediction, String extracted, String step, boolean hit) { }

    /** What a VLMEvalKit result file recorded for one question: its {@code hit} and {@code log}. */
    public record Recorded(Integer hit, String log) { }

    /**
     * A question's verdict (for vanilla evaluation its row's, for circular evaluation all its rotations'),
     * with VLMEvalKit's log for it and what a result file recorded (null when nothing was).
     */
    public record Question(String index, String split, String category, String l2Category, boolean hit,
                           boolean needsJudge, String log, Recorded recorded) {
        public Integer recordedHit() { return recorded == null ? null : recorded.hit(); }
    }

    /** report_acc's table: column name → one value per row label (the splits, plus "ALL" for MMT); NaN when empty. */
    public record AccTable(List<String> rowLabels, Map<String, List<Double>> columns) {
        /** As VLMEvalKit's {@code dump(acc, '*_acc.csv')} writes it: every field quoted, floats as Python prints them, NaN empty. */
        public String toCsv() {
            StringBuilder sb = new StringBuilder(PandasQuoting.quoted("split"));
            for (String c : columns.keySet()) sb.append(',').append(PandasQuoting.quoted(c));
            sb.append('\n');
            for (int i = 0; i < rowLabels.size(); i++) {
                sb.append(PandasQuoting.quoted(rowLabels.get(i)));
                for (List<Double> v : columns.values()) {
                    Double d = i < v.size() ? v.get(i) : null;
                    sb.append(',').append(PandasQuoting.quoted(d == null || d.isNaN() ? "" : PandasFrame.repr(d)));
                }
                sb.append('\n');
            }
            return sb.toString();
        }

        /** A figure as VLMEvalKit's CSV prints it (Python's repr of the float; empty for NaN). */
        public static String format(double v) { return Double.isNaN(v) ? "" : PandasFrame.repr(v); }
    }

    /**
     * Everything one grading produced. {@code needsJudge} counts questions VLMEvalKit would have sent to
     * its LLM judge; {@code repeatedIndices} the index values that occur on more than one row.
     */
    public record Result(String dataset, GradingMode mode, boolean circular, List<Row> rows, List<Question> questions,
                         AccTable acc, int needsJudge, int repeatedIndices) {
        public boolean hasRecordedVerdicts() { return questions.stream().anyMatch(q -> q.recordedHit() != null); }

        /** Questions whose recorded verdict differs from ours (those without one are not counted). */
        public List<Question> disagreements() {
            return questions.stream().filter(q -> q.recordedHit() != null && (q.recordedHit() == 1) != q.hit()).toList();
        }

        /** Questions with a recorded log that differs from ours. */
        public List<Question> logDisagreements() {
            return questions.stream().filter(q -> q.recorded() != null && q.recorded().log() != null && !q.recorded().log().equals(q.log())).toList();
        }

        /** The questions whose index no other row repeats: where VLMEvalKit's by-index verdicts are well defined. */
        public List<Question> withUniqueIndex() {
            Map<String, Integer> n = new java.util.HashMap<>();
            for (Row r : rows) n.merge(r.index(), 1, Integer::sum);
            return questions.stream().filter(q -> n.getOrDefault(q.index(), 0) == 1).toList();
        }

        /** The same verdicts compared with what another file recorded, by question index. */
        public Result withRecorded(Map<String, Recorded> byIndex) {
            List<Question> qs = questions.stream().map(q -> new Question(q.index(), q.split(), q.category(), q.l2Category(),
                    q.hit(), q.needsJudge(), q.log(), byIndex.get(q.index()))).toList();
            return new Result(dataset, mode, circular, rows, qs, acc, needsJudge, repeatedIndices);
        }
    }

    /** VLMEvalKit evaluates MMBench and CCBench circularly: its rule on the dataset name. */
    public static boolean circularFor(String dataset) { return CircularExpansion.circularFor(dataset); }

    /**
     * @param dataset the dataset name VLMEvalKit would have (decides MMMU's preprocessing and MMT's report);
     *                a file name holding it will do
     */
    public static Result grade(PredictionFile file, GradingMode mode, String dataset, boolean circular) {
        for (String col : List.of("prediction", "answer")) {
            if (!file.has(col)) {
                throw new IllegalArgumentException(file.path() + ": no '" + col + "' column; a VLMEvalKit prediction file has "
                        + "index, question, A, B, ..., answer, prediction (columns found: " + file.columns() + ")");
            }
        }
        boolean mmmu = dataset.contains("MMMU");
        List<Row> rows = new ArrayList<>();
        List<Recorded> recorded = new ArrayList<>();
        Map<String, Integer> seen = new java.util.HashMap<>();
        for (int i = 0; i < file.rows().size(); i++) {
            Map<String, String> r = file.rows().get(i);
            Row row = row(file, r, i, mode, mmmu, circular);
            rows.add(row);
            recorded.add(file.has("hit") || file.has("log") ? new Recorded(recordedHit(file, r, row.index()), r.get("log")) : null);
            seen.merge(row.index(), 1, Integer::sum);
        }
        int repeated = (int) seen.values().stream().filter(n -> n > 1).count();
        List<Question> questions = circular ? circularQuestions(file, rows, recorded) : vanillaQuestions(rows, recorded);
        int judge = (int) questions.stream().filter(Question::needsJudge).count();
        AccTable acc = dataset.contains("MMT") ? reportAccMmt(questions) : reportAcc(questions, file.has("l2-category"), file.has("category"));
        return new Result(dataset, mode, circular, rows, questions, acc, judge, repeated);
    }

    private static Row row(PredictionFile file, Map<String, String> r, int position, GradingMode mode, boolean mmmu, boolean circular) {
        String index = r.get("index") != null ? r.get("index") : Integer.toString(position);
        String answer = r.get("answer") == null ? "nan" : r.get("answer");
        Map<String, String> choices = new LinkedHashMap<>();
        for (char c = 'A'; c <= 'Z'; c++) {
            String v = r.get(String.valueOf(c));
            if (v != null) choices.put(String.valueOf(c), v);
        }
        String gt = answer;
        if (mmmu) {
            // MMMU_preproc: an open question becomes "A = the answer, B = Other Answers"; a non-letter answer grades as A
            if (r.get("A") == null) {
                choices.put("A", answer);
                choices.put("B", "Other Answers");
            }
            if (!(answer.length() == 1 && answer.charAt(0) >= 'A' && answer.charAt(0) <= 'Z')) gt = "A";
        }
        String prediction = r.get("prediction") == null ? "nan" : r.get("prediction");
        GradingMode.Reading m = mode.read(prediction, choices);
        String graded = m.letter() != null ? m.letter() : "Z";
        String group = index;
        int rotation = 0;
        if (circular) {
            long idx = integerIndex(file, index);
            long g = r.get("g_index") != null ? integerIndex(file, r.get("g_index")) : Math.floorMod(idx, CIRCULAR_STRIDE);
            group = Long.toString(g);
            rotation = (int) ((idx - g) / CIRCULAR_STRIDE);
        }
        return new Row(index, group, rotation, r.get("split"), r.get("category"), r.get("l2-category"), gt, prediction,
                m.letter(), m.step(), graded.equals(gt));
    }

    private static long integerIndex(PredictionFile file, String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(file.path() + ": index '" + v + "' is not an integer; circular evaluation "
                    + "groups rows by index modulo 1000000 (use --no-circular for a file that is not MMBench-style)");
        }
    }

    private static Integer recordedHit(PredictionFile file, Map<String, String> r, String index) {
        String h = r.get("hit");
        if (h == null) return null;
        return switch (h) {
            case "1", "1.0", "True" -> 1;
            case "0", "0.0", "False" -> 0;
            default -> throw new IllegalArgumentException(file.path() + ": row " + index + " has hit '" + h + "'; expected 0 or 1");
        };
    }

    private static List<Question> vanillaQuestions(List<Row> rows, List<Recorded> recorded) {
        List<Question> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            boolean none = r.extracted() == null;
            out.add(new Question(r.index(), r.split(), r.category(), r.l2Category(), r.hit(), none,
                    "Match Log: " + (none ? JUDGE_LOG : r.prediction()) + ". ", recorded.get(i)));
        }
        return out;
    }

    /** mcq_circular_eval: the groups of the main rows (index equal to its group), each judged by prefetch_circular_group. */
    private static List<Question> circularQuestions(PredictionFile file, List<Row> rows, List<Recorded> recorded) {
        Map<String, List<Row>> byGroup = new LinkedHashMap<>();
        for (Row r : rows) byGroup.computeIfAbsent(r.group(), k -> new ArrayList<>()).add(r);
        List<Question> out = new ArrayList<>();
        if (!rows.isEmpty() && rows.stream().allMatch(r -> r.rotation() == 0)) {
            throw new IllegalArgumentException(file.path() + ": no rotated rows (index 1000000 and above), so the circular "
                    + "groups cannot be re-graded; a VLMEvalKit *_result file of MMBench/CCBench keeps only each group's first row. "
                    + "Grade the prediction file (<model>_<dataset>.xlsx), or pass --no-circular to grade these rows one by one");
        }
        for (int k = 0; k < rows.size(); k++) {
            Row main = rows.get(k);
            if (!main.index().equals(main.group())) continue;
            String log = null;
            boolean all = true;
            List<Row> members = byGroup.get(main.group());
            for (int i = 0; i < members.size() && log == null; i++) {
                Row r = members.get(i);
                if (r.extracted() != null && !r.extracted().equals(r.answer())) {
                    log = "Failed in Prefetching Rolling " + i + ": Answer is " + r.answer() + ", Prediction is "
                            + r.prediction() + ", Pre-fetched is " + r.extracted() + ". ";
                }
                all &= r.answer().equals(r.extracted());
            }
            boolean hit = log == null && all;
            boolean judge = log == null && !all;
            if (log == null) log = hit ? "Succeed During Pre-fetching" : JUDGE_LOG;
            out.add(new Question(main.index(), main.split(), main.category(), main.l2Category(), hit, judge, log, recorded.get(k)));
        }
        if (out.isEmpty() && !rows.isEmpty()) {
            throw new IllegalArgumentException(file.path() + ": circular evaluation found no main rows (index below 1000000); "
                    + "use --no-circular if this file is not MMBench-style");
        }
        return out;
    }

    /** report_acc: Overall, then each l2-category (MMBench's get short names), then each category, per split. */
    static AccTable reportAcc(List<Question> qs, boolean hasL2, boolean hasCategory) {
        List<String> splits = splits(qs);
        Map<String, List<Double>> cols = new LinkedHashMap<>();
        cols.put("Overall", perSplit(qs, splits, q -> true));
        if (hasL2) {
            for (String ab : abilities(qs, true)) cols.put(MMB_ABBRS.getOrDefault(ab, ab), perSplit(qs, splits, q -> ab.equals(q.l2Category())));
        }
        if (hasCategory) {
            for (String ab : abilities(qs, false)) cols.put(MMB_ABBRS.getOrDefault(ab, ab), perSplit(qs, splits, q -> ab.equals(q.category())));
        }
        return new AccTable(splits, cols);
    }

    /**
     * report_acc_MMT: the 32 l2-category abbreviations first (each the plain mean of its categories'
     * accuracies), the categories after them, and an extra "ALL" row over every split.
     */
    static AccTable reportAccMmt(List<Question> qs) {
        List<String> splits = splits(qs);
        Map<String, List<Double>> cols = new LinkedHashMap<>();
        cols.put("Overall", withAll(perSplit(qs, splits, q -> true), qs));
        for (String abbr : MMT_ABBRS.values()) cols.put(abbr, new ArrayList<>());
        for (String ab : abilities(qs, false)) {
            List<Question> sub = qs.stream().filter(q -> ab.equals(q.category())).toList();
            cols.put(ab, withAll(perSplit(sub, splits, q -> true), sub));
        }
        for (String ab : abilities(qs, true)) {
            LinkedHashSet<String> cats = new LinkedHashSet<>();
            for (Question q : qs) if (ab.equals(q.l2Category())) cats.add(q.category());
            List<Double> vals = new ArrayList<>();
            for (int s = 0; s <= splits.size(); s++) {
                double sum = 0;
                for (String c : cats) {
                    List<Question> sub = qs.stream().filter(q -> java.util.Objects.equals(c, q.category())).toList();
                    sum += s < splits.size() ? perSplit(sub, splits, q -> true).get(s) : mean(sub);
                }
                vals.add(sum / cats.size());
            }
            cols.put(MMT_ABBRS.getOrDefault(ab, ab), vals);
        }
        List<String> labels = new ArrayList<>(splits);
        labels.add("ALL");
        return new AccTable(labels, cols);
    }

    private static List<Double> withAll(List<Double> perSplit, List<Question> qs) {
        List<Double> out = new ArrayList<>(perSplit);
        out.add(mean(qs));
        return out;
    }

    /** The split values in order of first appearance ("none" when the file has no split column). */
    private static List<String> splits(List<Question> qs) {
        LinkedHashSet<String> s = new LinkedHashSet<>();
        for (Question q : qs) if (q.split() != null) s.add(q.split());
        if (qs.stream().allMatch(q -> q.split() == null)) return List.of("none");
        return List.copyOf(s);
    }

    private static List<Double> perSplit(List<Question> qs, List<String> splits, java.util.function.Predicate<Question> in) {
        boolean noSplitColumn = splits.equals(List.of("none")) && qs.stream().allMatch(q -> q.split() == null);
        List<Double> out = new ArrayList<>();
        for (String sp : splits) {
            out.add(mean(qs.stream().filter(in).filter(q -> noSplitColumn || sp.equals(q.split())).toList()));
        }
        return out;
    }

    /** np.mean of the hits: NaN for none. */
    private static double mean(List<Question> qs) {
        if (qs.isEmpty()) return Double.NaN;
        long hits = qs.stream().filter(Question::hit).count();
        return (double) hits / qs.size();
    }

    /** sorted(set(values)) in Python's order (by code point); missing values are left out. */
    private static List<String> abilities(List<Question> qs, boolean l2) {
        TreeSet<String> s = new TreeSet<>(VlmEvalKitGrading::byCodePoint);
        for (Question q : qs) {
            String v = l2 ? q.l2Category() : q.category();
            if (v != null) s.add(v);
        }
        return List.copyOf(s);
    }

    static int byCodePoint(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i), cb = b.codePointAt(j);
            if (ca != cb) return Integer.compare(ca, cb);
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
