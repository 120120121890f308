package dev.gamagent.local;

import dev.gamagent.image.Region;

import java.util.ArrayList;
import java.util.List;

/**
 * The local model's reading of one question: a distribution over the answers (the option texts, in
 * option order, or for an open question the values it considered), the findings behind it, and whether
 * its role could look at this kind of question at all.
 *
 * @param applicable false when the role has nothing to look at (e.g. no text for the OCR expert)
 * @param openAnswer pieces of the answer to an open question (OCR characters keep their own distributions)
 * @param declared   true when the agent declares itself NOT APPLICABLE (no input of its kind at all)
 */
public record Judgement(QuestionFamily family, boolean applicable, boolean declared, Distribution answer,
                        List<Piece> openAnswer, List<Finding> findings, String note) {
    /** What the model answers when it cannot tell. */
    static final String CANNOT = "cannot determine";

    public Judgement {
        findings = List.copyOf(findings);
        openAnswer = openAnswer == null || openAnswer.isEmpty() ? List.of(Piece.best("", answer)) : List.copyOf(openAnswer);
    }

    /**
     * This judgement for a question read only partly ({@code clarity < 1}, see {@code QuestionReader.Reading}):
     * the answer mixed with the uniform distribution by 1 − clarity, the unread words named in the note.
     */
    public Judgement unsure(double clarity, List<String> unread) {
        if (clarity >= 1 || answer.size() < 2 || unread.isEmpty()) return this;
        Distribution mixed = Distribution.mixture(List.of(answer, Distribution.uniform(answer.values())), new double[]{clarity, 1 - clarity});
        String why = "the question has words this model does not read (" + String.join(", ", unread) + ")";
        return new Judgement(family, applicable, declared, mixed, openAnswer.size() == 1 && openAnswer.get(0).scored() ? null : openAnswer,
                findings, note == null || note.isEmpty() ? why : note + "; " + why);
    }

    /** A uniform answer: the honest "cannot determine", optionally declared NOT APPLICABLE. */
    static Judgement lowInformation(QuestionFamily family, List<String> candidates, boolean declare, String why, Region region) {
        Distribution d = candidates.isEmpty() ? cannotDetermine() : Distribution.uniform(candidates);
        // A role that abstains makes no claim for critics to examine; one that looked and found nothing says so.
        if (declare) return new Judgement(family, false, true, d, null, List.of(), why);
        Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("Cannot determine the answer: " + why)), 0.1, why, region);
        return new Judgement(family, false, false, d, null, List.of(f), why);
    }

    /** Answers an open question may have, for "cannot determine": as many as a top-20 log-prob list shows. */
    static final int OPEN_ALTERNATIVES = 20;

    /**
     * "cannot determine" as one of {@link #OPEN_ALTERNATIVES} equally likely answers (the others unnamed):
     * an open question the model cannot answer is near-uniform over what the answer might be, so the
     * refusal is written with probability 1/20 (U ≈ 0.95), never as a certain reply.
     */
    static Distribution cannotDetermine() {
        List<String> values = new ArrayList<>(java.util.Collections.nCopies(OPEN_ALTERNATIVES, ScoredText.OTHER));
        values.set(0, CANNOT);
        return Distribution.uniform(values);
    }

    /** The normalised entropy of the answer distribution (0 certain, 1 uniform). */
    public double uncertainty() { return answer.normalisedEntropy(); }

    /**
     * One claim with its evidence: text pieces (some scored), a confidence and the image region it rests on;
     * {@code frame} is the 1-based image of the request the region is on (a video's frame), null for a single image.
     */
    public record Finding(List<Piece> text, double confidence, String evidence, Region region, Integer frame) {
        public Finding { text = List.copyOf(text); }

        public Finding(List<Piece> text, double confidence, String evidence, Region region) { this(text, confidence, evidence, region, null); }

        public String plainText() { return Piece.join(text); }
    }
}
