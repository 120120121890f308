package dev.gamagent.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
    public static final String DEFAULT = "vlmevalkit";

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
