package dev.gamagent.influence;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Sim(R_i, R_j) ∈ [0,1], symmetric (docs/design.md §4). Multiple choice: Bhattacharyya coefficient of the
 * agents' option distributions. Open answers: cosine of sentence embeddings clipped at 0, or token-set
 * Jaccard when no embedding model is configured ({@code embedder} null).
 */
public final class Similarity {
    /** Distinct answers remembered per instance; a question's debate repeats a handful of them. */
    private static final int MAX_REMEMBERED = 512;

    private final SentenceEmbedder embedder;
    /** Each answer is embedded once: a round compares every answer with every other and with the consensus. */
    private final Map<String, float[]> vectors = new java.util.concurrent.ConcurrentHashMap<>();

    public Similarity(SentenceEmbedder embedder) { this.embedder = embedder; }

    /** Similarity without an embedding model: Jaccard for open answers. */
    public static Similarity lexical() { return new Similarity(null); }

    public boolean usesEmbeddings() { return embedder != null; }

    /** Σ_k sqrt(p(k)·q(k)) over the union of letters; 1 for identical distributions. */
    public static double bhattacharyya(Map<String, Double> p, Map<String, Double> q) {
        double s = 0;
        for (var e : p.entrySet()) {
            Double qk = q.get(e.getKey());
            if (qk != null && qk > 0 && e.getValue() > 0) s += Math.sqrt(e.getValue() * qk);
        }
        return clamp(s);
    }

    /** Cosine of two vectors, clipped at 0 (opposed meanings are simply dissimilar). */
    public static double cosine(float[] a, float[] b) {
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        if (na == 0 || nb == 0) return 0;
        return clamp(dot / Math.sqrt(na * nb));
    }

    /** |A ∩ B| / |A ∪ B| over lower-cased word tokens; two empty answers are identical. */
    public static double jaccard(String a, String b) {
        Set<String> x = words(a), y = words(b);
        if (x.isEmpty() && y.isEmpty()) return 1;
        Set<String> inter = new HashSet<>(x);
        inter.retainAll(y);
        Set<String> union = new HashSet<>(x);
        union.addAll(y);
        return (double) inter.size() / union.size();
    }

    /** The N×N matrix for multiple-choice answers (diagonal 1). */
    public double[][] multipleChoice(List<Map<String, Double>> dists) {
        int n = dists.size();
        double[][] m = new double[n][n];
        for (int i = 0; i < n; i++) {
            m[i][i] = 1;
            for (int j = i + 1; j < n; j++) m[i][j] = m[j][i] = bhattacharyya(dists.get(i), dists.get(j));
        }
        return m;
    }

    /** The N×N matrix for open answers; each answer is embedded once. */
    public double[][] open(List<String> answers) {
        int n = answers.size();
        double[][] m = new double[n][n];
        List<float[]> vec = new ArrayList<>(n);
        if (embedder != null) for (String a : answers) vec.add(embed(a));
        for (int i = 0; i < n; i++) {
            m[i][i] = 1;
            for (int j = i + 1; j < n; j++) {
                double s = embedder != null ? cosine(vec.get(i), vec.get(j)) : jaccard(answers.get(i), answers.get(j));
                m[i][j] = m[j][i] = s;
            }
        }
        return m;
    }

    /** Similarity of two open answers. */
    public double open(String a, String b) {
        return embedder != null ? cosine(embed(a), embed(b)) : jaccard(a, b);
    }

    /** An empty answer (an expert with none) embeds as the zero vector: similarity 0 to everything, as docs/design.md §5 leaves it. */
    private float[] embed(String text) {
        if (text == null || text.isBlank()) return new float[0];
        String key = text;
        float[] v = vectors.get(key);
        if (v != null) return v;
        v = embedder.embed(text);
        if (vectors.size() >= MAX_REMEMBERED) vectors.clear(); // an instance lives for one question; this bound is a safeguard
        vectors.put(key, v);
        return v;
    }

    private static Set<String> words(String s) {
        Set<String> out = new HashSet<>();
        if (s == null) return out;
        for (String w : s.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) if (!w.isEmpty()) out.add(w);
        return out;
    }

    private static double clamp(double v) { return Double.isNaN(v) ? 0 : Math.max(0, Math.min(1, v)); }
}
