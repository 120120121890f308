package dev.gamagent.eval;

import dev.gamagent.api.Question;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * MMBench circular evaluation (Liu et al., MMBench, section 3.1): a multiple-choice question with n
 * options is asked n times, the option texts rotated by one position each time; the question counts as
 * right only if every rotation is answered right. Open questions are left as they are.
 */
public final class CircularExpansion {
    private CircularExpansion() { }

    /** On by default for files whose name contains "mmbench" (case-insensitive). */
    public static boolean defaultFor(String fileName) {
        return fileName != null && fileName.toLowerCase(Locale.ROOT).contains("mmbench");
    }

    public static List<EvalQuestion> expand(List<EvalQuestion> questions) {
        List<EvalQuestion> out = new ArrayList<>();
        for (EvalQuestion eq : questions) {
            out.add(eq);
            Question q = eq.shell();
            int n = q.options().size();
            if (n < 2) continue;
            for (int r = 1; r < n; r++) out.add(new EvalQuestion(rotate(q, r), eq.images(), eq.group(), r, eq.split()));
        }
        return out;
    }

    /**
     * Rotation r: the option at letter position i is the original option at position (i + r) mod n, so
     * the texts move r places towards A; the ground-truth letter moves with its text.
     */
    static Question rotate(Question q, int r) {
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
        Question moved = q.withOptions(rotated, gt);
        return new Question(q.id() + "#r" + r, moved.images(), moved.text(), moved.hint(), moved.options(),
                moved.groundTruth(), moved.category(), moved.l2Category());
    }
}
