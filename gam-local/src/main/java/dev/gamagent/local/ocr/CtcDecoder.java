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
    /** Ink gap (fraction of line height) that alone makes a word space; see {@link InkGaps}. */
    static final double WORD_GAP = 0.35;

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

    /** Pixel evidence for word gaps, from the line image the probabilities were computed on. */
    interface InkGaps {
        /**
         * The widest run of ink-free columns between two frames, as a fraction of the line height;
         * a proportional font's word space is about a third of its line height, letter gaps far less.
         */
        double widest(int fromFrame, int toFrame);
    }

    /** Decodes without pixel evidence: spaces come from the probabilities alone. */
    Decoded decode(float[] probs, int offset, int frames, int classes) {
        return decode(probs, offset, frames, classes, null);
    }

    /**
     * Decodes one line from a row-major [frames × classes] probability block starting at {@code offset}.
     *
     * <p>The released models were trained mostly on Chinese and under-predict spaces: a word gap often
     * decodes as a run of blanks. Such a run becomes a space when the ink gap under it is word-sized
     * (≥ {@link #WORD_GAP} of the line height, or ≥ 0.7 of that and 2.5× the line's median letter gap,
     * which separates proportional fonts' word spaces from monospaced fonts' wide letter gaps), or when
     * the space leads the non-blank classes in it (≥ {@code spaceThreshold}) and the ink gap is at least
     * 0.6 of a word gap. A space found from ink alone counts the blank's mass in its distribution: at a
     * gap, blank and space both mean "no glyph here".
     */
    Decoded decode(float[] probs, int offset, int frames, int classes, InkGaps ink) {
        if (classes != dictionary.size())
            throw new IllegalArgumentException("recogniser emits " + classes + " classes but the dictionary has "
                    + dictionary.size() + "; the keys file does not match the recognition model");
        List<Integer> emitted = new ArrayList<>();
        List<Integer> bestFrame = new ArrayList<>();
        List<Boolean> blankAsSpace = new ArrayList<>();
        // Blank runs between two characters: {index to insert at, gap frame, lead frame}, and their ink gaps.
        List<int[]> runs = new ArrayList<>();
        List<Double> runInk = new ArrayList<>();
        List<Double> letterGaps = new ArrayList<>();
        int prev = CharDictionary.BLANK;
        int lastEnd = -1;
        int leadFrame = -1;
        int gapFrame = -1;
        for (int t = 0; t < frames; t++) {
            int base = offset + t * classes;
            int arg = argmax(probs, base, classes);
            if (arg == CharDictionary.BLANK) {
                if (!emitted.isEmpty() && emitted.get(emitted.size() - 1) != space) {
                    float sp = probs[base + space];
                    if (gapFrame < 0 || sp > probs[offset + gapFrame * classes + space]) gapFrame = t;
                    if (spaceLeads(probs, base, classes)
                            && (leadFrame < 0 || sp > probs[offset + leadFrame * classes + space])) leadFrame = t;
                }
            } else {
                if (arg != space && arg != prev && !emitted.isEmpty() && emitted.get(emitted.size() - 1) != space) {
                    double gap = ink == null ? Double.NaN : ink.widest(lastEnd, t);
                    letterGaps.add(gap);
                    if (gapFrame >= 0) {
                        runs.add(new int[]{emitted.size(), gapFrame, leadFrame});
                        runInk.add(gap);
                    }
                }
                gapFrame = -1;
                leadFrame = -1;
                if (arg != prev) {
                    emitted.add(arg);
                    bestFrame.add(t);
                    blankAsSpace.add(false);
                } else {
                    // Repeated frames of one character: describe it by its most confident frame.
                    int last = bestFrame.size() - 1;
                    if (probs[base + arg] > probs[offset + bestFrame.get(last) * classes + arg]) bestFrame.set(last, t);
                }
                lastEnd = t;
            }
            prev = arg;
        }
        double median = median(letterGaps);
        for (int r = runs.size() - 1; r >= 0; r--) {
            int[] run = runs.get(r);
            double gap = runInk.get(r);
            boolean byInk = gap >= WORD_GAP || (gap >= 0.7 * WORD_GAP && gap >= 2.5 * median);
            boolean byModel = run[2] >= 0 && (ink == null || gap >= 0.6 * WORD_GAP);
            if (byInk || byModel) {
                emitted.add(run[0], space);
                bestFrame.add(run[0], byModel ? run[2] : run[1]);
                blankAsSpace.add(run[0], !byModel);
            }
        }
        int from = 0, to = emitted.size();
        while (from < to && emitted.get(from) == space) from++;
        while (to > from && emitted.get(to - 1) == space) to--;
        StringBuilder text = new StringBuilder();
        List<CharDistribution> chars = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            text.append(dictionary.symbol(emitted.get(i)));
            chars.add(distribution(probs, offset + bestFrame.get(i) * classes, classes, blankAsSpace.get(i)));
        }
        return new Decoded(text.toString(), chars);
    }

    private static double median(List<Double> xs) {
        if (xs.isEmpty() || Double.isNaN(xs.get(0))) return Double.NaN;
        List<Double> sorted = new ArrayList<>(xs);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
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

    private CharDistribution distribution(float[] p, int base, int classes, boolean blankAsSpace) {
        double norm = 0;
        for (int c = 0; c < classes; c++) if (allowed == null || allowed[c]) norm += p[base + c];
        if (!(norm > 0)) norm = 1;
        int k = Math.min(topK, classes - 1);
        int[] idx = new int[k];
        float[] val = new float[k];
        int n = 0;
        for (int c = 1; c < classes; c++) {
            if (allowed != null && !allowed[c]) continue;
            float v = blankAsSpace && c == space ? p[base + c] + p[base] : p[base + c];
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
