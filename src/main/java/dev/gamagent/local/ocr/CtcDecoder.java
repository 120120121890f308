package dev.gamagent.local.ocr;

import dev.gamagent.local.ocr.TextLine.Candidate;
import dev.gamagent.local.ocr.TextLine.CharDistribution;

import java.util.ArrayList;
import java.util.List;

/**
 * Greedy CTC decoding (Graves et al. 2006, best path) that keeps, for every emitted character, the
 * recogniser's top-k distribution at the frame where that character was most probable.
 *
 * <p>With an allowed-class mask (ASCII-only decoding) the argmax runs over allowed classes and each
 * frame's probabilities are renormalised over them, blank included, so a character's candidates sum to
 * at most 1 and the gap to the blank stays visible.
 */
final class CtcDecoder {
    private final CharDictionary dictionary;
    private final boolean[] allowed;
    private final int topK;
    private final int space;
    private final double spaceThreshold;

    /**
     * @param allowed classes that may be emitted, or null for all
     * @param spaceThreshold a run of blanks between two characters becomes a space when some frame in it
     *        gives the space at least this probability and more than any other character
     */
    CtcDecoder(CharDictionary dictionary, boolean[] allowed, int topK, double spaceThreshold) {
        if (topK < 1) throw new IllegalArgumentException("topK must be ≥ 1, got " + topK);
        if (allowed != null && allowed.length != dictionary.size())
            throw new IllegalArgumentException("mask has " + allowed.length + " classes, dictionary " + dictionary.size());
        this.dictionary = dictionary;
        this.allowed = allowed;
        this.topK = topK;
        this.space = dictionary.size() - 1;
        this.spaceThreshold = spaceThreshold;
    }

    record Decoded(String text, List<CharDistribution> chars) { }

    /**
     * Decodes one line from a row-major [frames × classes] probability block starting at {@code offset}.
     */
    Decoded decode(float[] probs, int offset, int frames, int classes) {
        if (classes != dictionary.size())
            throw new IllegalArgumentException("recogniser emits " + classes + " classes but the dictionary has "
                    + dictionary.size() + "; the keys file does not match the recognition model");
        List<Integer> emitted = new ArrayList<>();
        List<Integer> bestFrame = new ArrayList<>();
        int prev = CharDictionary.BLANK;
        // The released models were trained mostly on Chinese and under-predict spaces: a word gap often
        // decodes as blanks with the space clearly second. Keep the best such frame of each blank run.
        int gapFrame = -1;
        for (int t = 0; t < frames; t++) {
            int base = offset + t * classes;
            int arg = argmax(probs, base, classes);
            if (arg == CharDictionary.BLANK) {
                if (!emitted.isEmpty() && emitted.get(emitted.size() - 1) != space && spaceLeads(probs, base, classes)
                        && (gapFrame < 0 || probs[base + space] > probs[offset + gapFrame * classes + space])) gapFrame = t;
            } else {
                if (gapFrame >= 0 && arg != space) {
                    emitted.add(space);
                    bestFrame.add(gapFrame);
                }
                gapFrame = -1;
                if (arg != prev) {
                    emitted.add(arg);
                    bestFrame.add(t);
                } else {
                    // Repeated frames of one character: describe it by its most confident frame.
                    int last = bestFrame.size() - 1;
                    if (probs[base + arg] > probs[offset + bestFrame.get(last) * classes + arg]) bestFrame.set(last, t);
                }
            }
            prev = arg;
        }
        int from = 0, to = emitted.size();
        String space = " ";
        while (from < to && dictionary.symbol(emitted.get(from)).equals(space)) from++;
        while (to > from && dictionary.symbol(emitted.get(to - 1)).equals(space)) to--;
        StringBuilder text = new StringBuilder();
        List<CharDistribution> chars = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            text.append(dictionary.symbol(emitted.get(i)));
            chars.add(distribution(probs, offset + bestFrame.get(i) * classes, classes));
        }
        return new Decoded(text.toString(), chars);
    }

    /** Whether the space is the most probable character (blank aside) and reaches the threshold. */
    private boolean spaceLeads(float[] p, int base, int classes) {
        if (allowed != null && !allowed[space]) return false;
        float sp = p[base + space];
        if (sp < spaceThreshold) return false;
        for (int c = 1; c < space; c++) if ((allowed == null || allowed[c]) && p[base + c] >= sp) return false;
        return true;
    }

    private int argmax(float[] p, int base, int classes) {
        int best = -1;
        float bestP = Float.NEGATIVE_INFINITY;
        for (int c = 0; c < classes; c++) {
            if (allowed != null && !allowed[c]) continue;
            if (p[base + c] > bestP) { bestP = p[base + c]; best = c; }
        }
        return best;
    }

    private CharDistribution distribution(float[] p, int base, int classes) {
        double norm = 0;
        for (int c = 0; c < classes; c++) if (allowed == null || allowed[c]) norm += p[base + c];
        if (!(norm > 0)) norm = 1;
        int k = Math.min(topK, classes - 1);
        int[] idx = new int[k];
        float[] val = new float[k];
        int n = 0;
        for (int c = 1; c < classes; c++) {
            if (allowed != null && !allowed[c]) continue;
            float v = p[base + c];
            if (n == k && v <= val[k - 1]) continue;
            int pos = n < k ? n++ : k - 1;
            while (pos > 0 && val[pos - 1] < v) { val[pos] = val[pos - 1]; idx[pos] = idx[pos - 1]; pos--; }
            val[pos] = v;
            idx[pos] = c;
        }
        List<Candidate> top = new ArrayList<>(n);
        for (int i = 0; i < n; i++) top.add(new Candidate(dictionary.symbol(idx[i]), Math.min(1.0, val[i] / norm)));
        return new CharDistribution(top);
    }
}
