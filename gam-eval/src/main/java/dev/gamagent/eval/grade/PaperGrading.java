package dev.gamagent.eval.grade;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.gamagent.backend.Backend;
import dev.gamagent.config.Config;
import dev.gamagent.eval.data.DatasetEntry;
import dev.gamagent.eval.store.ResultRecord;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether a run was graded as the benchmark's paper harness grades it, written into summary.json as
 * {@value #COMPARABLE} (boolean) and {@value #WHY} (one line), which paper tables read to mark a column. MathVista and
 * MathVision are comparable only with a judge (VLMEvalKit extracts their answers with one); the other open-answer
 * benchmarks (MME-Reasoning, PathVQA) are graded by VLMEvalKit with judge prompts gam does not run, and M3MAD-Bench
 * publishes no evaluation code, so those never are; multiple choice, yes/no and MVBench are VLMEvalKit's own rules
 * when {@code eval.grading} is one of its rule sets.
 */
public final class PaperGrading {
    public static final String COMPARABLE = "grading_comparable";
    public static final String WHY = "grading_comparability";
    /** The commit of VLMEvalKit whose grading is reproduced. */
    static final String VLMEVALKIT = "VLMEvalKit e8e78f05";

    private PaperGrading() { }

    /** The open-answer rule for a catalogue entry that VLMEvalKit grades with its MathVision prompt, else null. */
    public static String openRuleFor(DatasetEntry e) {
        return e != null && e.grading().equals("open") && e.name().startsWith("MathVision") ? VlmEvalKitMathVision.RULE : null;
    }

    /** The two summary fields of a verdict. */
    public static Map<String, JsonNode> fields(Verdict v) {
        Map<String, JsonNode> m = new LinkedHashMap<>();
        m.put(COMPARABLE, BooleanNode.valueOf(v.comparable()));
        m.put(WHY, TextNode.valueOf(v.why()));
        return m;
    }

    /** Comparable or not, and why in one line. */
    public record Verdict(boolean comparable, String why) { }

    /** The verdict for a run of {@code entry} (null: a file the catalogue does not name) graded with {@code config}. */
    public static Verdict of(DatasetEntry entry, Config config, Backend judge, List<ResultRecord> records) {
        if (entry == null) return new Verdict(false, "a file the catalogue does not name: no paper grading is known to compare with");
        String name = entry.name();
        String open = config.string(Grader.OPEN_ANSWERS_KEY);
        GradingMode mode = GradingMode.of(config.string(GradingMode.CONFIG_KEY));
        String judgeName = judge == null ? null : judge.name();
        if (open.equals(VlmEvalKitMathVista.RULE) || open.equals(VlmEvalKitMathVision.RULE)) {
            String prompt = open.equals(VlmEvalKitMathVista.RULE) ? "MathVista" : "MathVision";
            if (judgeName != null) {
                return new Verdict(true, name + " graded as " + VLMEVALKIT + " grades it: its rules, then its " + prompt
                        + " extraction prompt to the judge " + judgeName + " and its post_check");
            }
            long left = records.stream().filter(r -> r.grade().rule() != null && r.grade().rule().endsWith(":needs-judge")).count();
            return new Verdict(false, VLMEVALKIT + " grades " + name + " with a judge's extraction and no judge was configured "
                    + "(--judge-backend): its rules alone decided, " + left + " of " + records.size() + " answers left undecided (counted wrong)");
        }
        return switch (entry.grading()) {
            case "m3mad" -> new Verdict(false, "M3MAD-Bench (liaolea/M3MAD-Bench, every commit to 2fda509) publishes no evaluation code: "
                    + name + " is graded by gam's rules (" + mode.label() + ", open answers by " + open + "), not the paper's");
            case "open" -> new Verdict(false, VLMEVALKIT + " grades " + name + " with a judge model and prompts gam does not run; "
                    + "graded here by gam's open-answer " + open);
            default -> mode.isVlmEvalKit()
                    ? new Verdict(true, name + " graded by " + VLMEVALKIT + "'s rules (" + mode.label() + ", " + entry.grading() + ")"
                            + (judgeName == null ? "; replies they cannot read count wrong, as VLMEvalKit's exact matching counts them"
                                    : "; replies they cannot read go to the judge " + judgeName + " with gam's eval_match prompt"))
                    : new Verdict(false, name + " graded with --grading " + mode.label().toLowerCase(Locale.ROOT)
                            + ", not VLMEvalKit's rules");
        };
    }
}
