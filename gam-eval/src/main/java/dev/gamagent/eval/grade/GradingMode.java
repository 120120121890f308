package dev.gamagent.eval.grade;

import dev.gamagent.engine.AnswerExtractor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a multiple-choice answer is read when it is graded. {@code vlmevalkit[-YEAR]} is VLMEvalKit's own
 * rule-based matcher ({@link VlmEvalKitMatcher}), so accuracies compare with published leaderboards;
 * {@code extended} is the project's {@link dev.gamagent.engine.AnswerExtractor} (VLMEvalKit's rules
 * plus the {@code ANSWER:} line our prompts ask for, "the answer is X" and a lone lower-case letter),
 * which credits some replies VLMEvalKit counts wrong and is therefore never the default.
 *
 * @param rules the VLMEvalKit rule set, or null for {@code extended}
 */
public record GradingMode(String label, VlmEvalKitMatcher.Rules rules) {
    /** The config key ({@code --grading} sets it) and its default. */
    public static final String CONFIG_KEY = "eval.grading";
    public static final String DEFAULT = dev.gamagent.config.Config.defaults().string(CONFIG_KEY);

    public static final GradingMode EXTENDED = new GradingMode("extended", null);

    public static GradingMode vlmEvalKit(VlmEvalKitMatcher.Rules rules) { return new GradingMode(rules.label(), rules); }

    /** {@code vlmevalkit} (the latest rules), {@code vlmevalkit-2024|2025|2026} or {@code extended}. */
    public static GradingMode of(String name) {
        if (name == null || name.isBlank()) return of(DEFAULT);
        String n = name.strip().toLowerCase(Locale.ROOT);
        if (n.equals("extended")) return EXTENDED;
        if (!n.startsWith("vlmevalkit")) {
            throw new IllegalArgumentException("unknown grading mode '" + name + "'; use vlmevalkit (VLMEvalKit's current rules), "
                    + "vlmevalkit-2024, vlmevalkit-2025, vlmevalkit-2026 or extended (ours: also reads ANSWER: lines)");
        }
        return vlmEvalKit(VlmEvalKitMatcher.Rules.of(n));
    }

    public boolean isVlmEvalKit() { return rules != null; }

    /**
     * One reading of a reply by a grading mode, in VLMEvalKit's vocabulary: {@code letter} is the option read ("Z" for a
     * refusal or a lone Z; null when nothing was read), {@code step} the rule that read it, lower case ({@code option},
     * {@code text}, {@code refusal}, {@code z}, {@code answer-is}, {@code none}; the extended mode's {@code explicit},
     * {@code option}, {@code letter}, {@code text}, {@code refusal}, {@code none}), {@code declined} whether the reply
     * names no option of the question because the model declined (VLMEvalKit: a "Z" that is not an option; extended:
     * any refusal).
     *
     * <p>Two outputs name the steps: {@code gam grade}'s per-row table and records ({@link VlmEvalKitGrading}) use them as
     * they are; a run's results.jsonl ({@link Grader}'s {@code rule}) names them through {@link #resultStep}, as it has
     * since before the two shared this reading.
     */
    public record Reading(String letter, String step, boolean declined) {
        /** Nothing was read. */
        public boolean none() { return letter == null && !declined; }

        /**
         * The step as a run's results.jsonl names it: {@code unmatched} for nothing read, {@code refused} for the extended
         * mode's refusal; otherwise {@link #step}.
         */
        String resultStep(GradingMode mode) {
            if (none()) return "unmatched";
            return declined && !mode.isVlmEvalKit() ? "refused" : step;
        }
    }

    /** How this mode reads {@code text} against {@code options} (keys A..Z): the one home of reading a graded reply. */
    public Reading read(String text, Map<String, String> options) {
        if (isVlmEvalKit()) {
            VlmEvalKitMatcher.Match m = VlmEvalKitMatcher.infer(text, options, rules);
            String step = m.step().name().toLowerCase(Locale.ROOT).replace('_', '-');
            // "Z" (a refusal phrase or a Z token): VLMEvalKit's "none of the options", never a letter to grade
            return new Reading(m.letter(), step, "Z".equals(m.letter()) && !options.containsKey("Z"));
        }
        AnswerExtractor.Extraction x = AnswerExtractor.extract(text, options);
        if (x instanceof AnswerExtractor.Matched m) return new Reading(m.letter(), m.rule(), false);
        if (x instanceof AnswerExtractor.Refused) return new Reading("Z", "refusal", true);
        return new Reading(null, "none", false);
    }

    /** A summary's grading field ("vlmevalkit-2024" or several, comma-separated) described; null means not recorded. */
    public static String describeLabels(String labels) {
        if (labels == null || labels.isBlank()) return "not recorded (a run from before grading modes were recorded)";
        List<String> out = new ArrayList<>();
        for (String l : labels.split(",\\s*")) {
            try {
                out.add(of(l).describe());
            } catch (IllegalArgumentException e) {
                out.add(l);
            }
        }
        return (out.size() > 1 ? "mixed: " : "") + String.join("; ", out);
    }

    /** One line for tables and reports. */
    public String describe() {
        return isVlmEvalKit() ? label + " (" + rules.description() + ")"
                : "extended (VLMEvalKit's rules plus our ANSWER: line, 'the answer is X' and lone-letter readings; not comparable with leaderboards)";
    }
}
