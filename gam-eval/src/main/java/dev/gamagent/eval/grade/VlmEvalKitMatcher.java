package dev.gamagent.eval.grade;

import dev.gamagent.engine.AnswerExtractor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * VLMEvalKit's rule-based answer matcher, {@code can_infer} in {@code vlmeval/utils/matching_util.py},
 * reimplemented rule for rule, quirks included, in each of the versions VLMEvalKit has shipped (see
 * {@link Rules}). {@code can_infer_option}: unless the reply contains "Failed to obtain answer via API",
 * a reply containing one of four refusal phrases is "Z"; otherwise {@code .()[],:;!*#{}} become spaces,
 * the reply is split on whitespace, and if exactly one option letter is a token that letter is the answer
 * (so the article in "A flag is a piece of cloth" is option A); no option letter but a "Z" token is "Z".
 * {@code can_infer_text}: exactly one option text occurs in the lower-cased reply. Python's notions are
 * kept: whitespace is {@code str.isspace}, lengths count code points.
 */
public final class VlmEvalKitMatcher {
    /** A rule set: VLMEvalKit's matcher as it was between two of its commits. */
    public enum Rules {
        /** From commit bc4b28be (2024-01-08) until c3371551 (2025-08-04): the letter may stand anywhere; no length limit. */
        V2024("vlmevalkit-2024", "VLMEvalKit can_infer from 2024-01 (bc4b28be) to 2025-08 (before c3371551)"),
        /** Commit c3371551 (2025-08-04): the letter must be among the last four tokens; text matching skips replies longer than twice the options. */
        V2025("vlmevalkit-2025", "VLMEvalKit can_infer from 2025-08 (c3371551) to 2026-06 (before a67ace50)"),
        /** Commit a67ace50 (2026-06-17): as 2025, plus "(correct) answer is X" (X in A-D) when the token rules find nothing. */
        V2026("vlmevalkit-2026", "VLMEvalKit can_infer from 2026-06 (a67ace50), current at e8e78f05");

        private final String label;
        private final String description;

        Rules(String label, String description) {
            this.label = label;
            this.description = description;
        }

        public String label() { return label; }

        public String description() { return description; }

        /** The newest rule set: what VLMEvalKit does today. */
        public static Rules latest() { return V2026; }

        /** By label ({@code vlmevalkit-2024}) or year ({@code 2024}); {@code vlmevalkit} is the latest. */
        public static Rules of(String name) {
            String n = name.strip().toLowerCase(Locale.ROOT);
            if (n.equals("vlmevalkit")) return latest();
            for (Rules r : values()) if (r.label.equals(n) || r.label.endsWith("-" + n)) return r;
            throw new IllegalArgumentException("unknown VLMEvalKit rule set '" + name + "'; use vlmevalkit (the latest), "
                    + "vlmevalkit-2024, vlmevalkit-2025 or vlmevalkit-2026");
        }
    }

    /** Which step decided. */
    public enum Step {
        /** One option letter among the tokens. */
        OPTION,
        /** A refusal phrase from VLMEvalKit's list: the answer is Z. */
        REFUSAL,
        /** No option letter but a "Z" token: the answer is Z. */
        Z,
        /** 2026 rules: "the answer is X". */
        ANSWER_IS,
        /** Exactly one option text in the reply. */
        TEXT,
        /** Nothing matched: VLMEvalKit would ask its LLM judge, or (exact matching) count it wrong. */
        NONE
    }

    /** The matched letter ("Z" for a refusal; null when nothing matched) and the step that decided. */
    public record Match(String letter, Step step) {
        public boolean matched() { return letter != null; }
    }

    private static final String SEPARATORS = ".()[],:;!*#{}";
    /** Python's {@code \s} in a str pattern: the characters {@code str.isspace} accepts. */
    private static final String PY_SPACE = "[\\t\\n\\x0B\\f\\r\\x1C-\\x1F \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]";
    private static final Pattern ANSWER_IS = Pattern.compile(
            "(?iu)(?:correct" + PY_SPACE + "+)?answer" + PY_SPACE + "+is" + PY_SPACE + "+\\**([ABCD])\\**");

    private VlmEvalKitMatcher() { }

    /**
     * {@code can_infer(prediction, choices)}: {@code choices} maps option letters (A..Z, in that order)
     * to the option texts as Python's {@code str()} would print them.
     */
    public static Match infer(String prediction, Map<String, String> choices, Rules rules) {
        String answer = prediction == null ? "None" : prediction;
        Match byOption = inferOption(answer, choices, rules);
        if (byOption.matched()) return byOption;
        String byText = inferText(answer, choices, rules);
        return byText != null ? new Match(byText, Step.TEXT) : new Match(null, Step.NONE);
    }

    /** {@code can_infer_option}; a non-match has step NONE. */
    static Match inferOption(String answer, Map<String, String> choices, Rules rules) {
        // VLMEvalKit's failed-API marker and reject_to_answer list are ours too: one home, AnswerExtractor
        if (AnswerExtractor.isApiFailure(answer)) return new Match(null, Step.NONE);
        if (AnswerExtractor.refusalIn(answer) != null) return new Match("Z", Step.REFUSAL);
        StringBuilder mod = new StringBuilder(answer.length());
        for (int i = 0; i < answer.length(); i++) {
            char c = answer.charAt(i);
            mod.append(SEPARATORS.indexOf(c) >= 0 ? ' ' : c);
        }
        List<String> splits = pySplit(mod.toString());
        int count = 0;
        for (String ch : choices.keySet()) if (splits.contains(ch)) count++;
        if (count == 1) {
            for (String ch : choices.keySet()) {
                if (!splits.contains(ch)) continue;
                // 2025 on: a letter early in a long reply (an article, a label in a list) is not the answer
                if (rules == Rules.V2024 || splits.indexOf(ch) > splits.size() - 5) return new Match(ch, Step.OPTION);
            }
        } else if (count == 0 && splits.contains("Z")) {
            return new Match("Z", Step.Z);
        }
        if (rules == Rules.V2026) {
            Matcher m = ANSWER_IS.matcher(answer);
            if (m.find()) {
                String l = m.group(1).toUpperCase(Locale.ROOT);
                if (choices.containsKey(l)) return new Match(l, Step.ANSWER_IS);
            }
        }
        return new Match(null, Step.NONE);
    }

    /** {@code can_infer_text}: the letter whose text alone occurs in the lower-cased reply, else null. */
    static String inferText(String answer, Map<String, String> choices, Rules rules) {
        String lower = answer.toLowerCase(Locale.ROOT);
        if (rules != Rules.V2024) {
            long total = 0;
            for (String v : choices.values()) total += v.codePointCount(0, v.length());
            if (lower.codePointCount(0, lower.length()) > 2 * total) return null;
        }
        String hit = null;
        int hits = 0;
        for (var e : choices.entrySet()) {
            if (lower.contains(e.getValue().toLowerCase(Locale.ROOT))) {
                hits++;
                hit = e.getKey();
            }
        }
        return hits == 1 ? hit : null;
    }

    /** Python's {@code str.split()}: runs of whitespace ({@code str.isspace}) separate, empty tokens dropped. */
    static List<String> pySplit(String s) {
        List<String> out = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < s.length(); i++) {
            if (isPySpace(s.charAt(i))) {
                if (start >= 0) out.add(s.substring(start, i));
                start = -1;
            } else if (start < 0) {
                start = i;
            }
        }
        if (start >= 0) out.add(s.substring(start));
        return out;
    }

    /** {@code str.isspace} for one character (every such character is in the BMP). */
    static boolean isPySpace(char c) {
        return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\u001C' && c <= '\u001F') || c == '\u0085' || c == '\u00A0'
                || c == '\u1680' || (c >= '\u2000' && c <= '\u200A') || c == '\u2028' || c == '\u2029' || c == '\u202F'
                || c == '\u205F' || c == '\u3000';
    }
}
