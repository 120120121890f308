package dev.gamagent.eval.load;

import dev.gamagent.api.Question;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * MMBench circular evaluation (Liu et al., MMBench, section 3.1): a multiple-choice question with n
 * options is asked n times, the option texts rotated by one position each time; the question counts as
 * right only if every rotation is answered right. Open questions are left as they are. VLMEvalKit's own
 * MMBench and CCBench TSVs already hold the rotations, as rows whose index is the original's plus k·10⁶;
 * such a file is not rotated again, its rows are grouped by index modulo 10⁶ as VLMEvalKit groups them.
 */
public final class CircularExpansion {
    private CircularExpansion() { }

    /** On by default for files whose name contains "mmbench", "ccbench", "circular" or "mmcr" (case-insensitive), as VLMEvalKit decides. */
    public static boolean defaultFor(String fileName) {
        return fileName != null && circularFor(fileName);
    }

    /**
     * VLMEvalKit's rule for a dataset (or a file name holding it): MMBench, CCBench, MMCR and the {@code *_circular} sets
     * (BLINK_circular, LEGO_circular, …) are evaluated circularly ({@code ImageMCQDataset.evaluate_heuristic}, e8e78f05).
     */
    public static boolean circularFor(String dataset) {
        String d = dataset.toLowerCase(java.util.Locale.ROOT);
        return d.contains("mmbench") || d.contains("ccbench") || d.contains("circular") || d.contains("mmcr");
    }

    /** Each question followed by its rotations (made lazily: each reads its row when it runs). */
    public static List<EvalQuestion> expand(List<EvalQuestion> questions) {
        if (holdsRotations(questions)) return regroup(questions);
        List<EvalQuestion> out = new ArrayList<>();
        for (EvalQuestion eq : questions) {
            out.add(eq);
            int n = eq.optionCount();
            // the rotations are read from the question's source when they run, not held here
            for (int r = 1; r < n; r++) {
                int turn = r;
                out.add(eq.rotated(r, q -> rotate(q, turn)));
            }
        }
        return out;
    }

    private static final long STRIDE = 1_000_000L;

    /** True when some row's index is another row's index plus a multiple of 10⁶ (VLMEvalKit's pre-rotated copies). */
    static boolean holdsRotations(List<EvalQuestion> questions) {
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (EvalQuestion q : questions) ids.add(q.id());
        for (EvalQuestion q : questions) {
            Long idx = index(q.id());
            if (idx != null && idx >= STRIDE && ids.contains(Long.toString(idx % STRIDE))) return true;
        }
        return false;
    }

    /** Each row joins the group of its index modulo 10⁶, as rotation index / 10⁶. */
    private static List<EvalQuestion> regroup(List<EvalQuestion> questions) {
        List<EvalQuestion> out = new ArrayList<>();
        for (EvalQuestion q : questions) {
            Long idx = index(q.id());
            if (idx == null || idx < 0) out.add(q);
            else out.add(q.regrouped(Long.toString(idx % STRIDE), (int) (idx / STRIDE)));
        }
        return out;
    }

    private static Long index(String id) {
        try {
            return Long.parseLong(id.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Rotation r: the option at letter position i is the original option at position (i + r) mod n, so
     * the texts move r places towards A; the ground-truth letter moves with its text.
     */
    public static KeyedQuestion rotate(KeyedQuestion q, int r) {
        List<String> letters = new ArrayList<>(q.options().keySet());
        List<String> texts = new ArrayList<>(q.options().values());
        int n = letters.size();
        Map<String, String> rotated = new LinkedHashMap<>();
        String gt = null;
        for (int i = 0; i < n; i++) {
            int src = (i + r) % n;
            rotated.put(letters.get(i), texts.get(src));
            if (letters.get(src).equals(q.groundTruth())) gt = letters.get(i);
        }
        KeyedQuestion moved = q.withOptions(rotated, gt);
        return new KeyedQuestion(moved.question().withId(q.id() + "#r" + r), moved.groundTruth(), moved.category(), moved.l2Category());
    }
}
