package dev.gamagent.local;

import dev.gamagent.image.Region;

import java.util.ArrayList;
import java.util.List;

import static dev.gamagent.local.Judgement.lowInformation;
import static dev.gamagent.local.Scores.argmax;

/**
 * Answers a recognised question from perception results: hands it to its family's reasoner ({@link TextReasoner},
 * {@link CountReasoner}, {@link ObjectReasoner}, {@link ChartReasoner}, {@link VideoReasoner}), mixes the answers of
 * several views, and answers "cannot determine" where nothing was perceived. Every answer is a distribution derived from
 * the perception's own scores: colour and shape class scores, count ambiguity, OCR character
 * distributions, bar heights against the axis ticks. Candidates are the option texts (in option order);
 * an empty candidate list means an open question, answered over the values the model considered.
 */
public final class FamilyReasoner {
    /**
     * Judges one question as a role with expertise {@code e} reads it with its greedy look ({@link Look#of}), over one
     * or more images (e.g. DREAM's several scales); see {@link #judge(QuestionFamily, List, List, Expertise, Look, Region, boolean)}.
     */
    public Judgement judge(QuestionFamily family, List<Sight> sights, List<String> candidates, Expertise e, Calibration c) {
        return judge(family, sights, candidates, e, Look.of(e, c), null, true);
    }

    /**
     * Judges one question seeing with {@code look} ({@code sights} are already at its scale): each reader (for a
     * question whose answer is read from text: text, chart) or each segmentation (the others) that the look gives
     * weight is a reading of its own, and the readings are pooled by those weights ({@link #pool}). With
     * {@code attend}, the reading attends to that region of the image (its objects and text lines; a peer or claim
     * named it), the pixels as read. A role whose instruments say nothing about the family declares itself NOT
     * APPLICABLE when the reply has room to say so ({@code canDecline}); asked for a bare letter, it reads the question
     * like anyone else.
     */
    public Judgement judge(QuestionFamily family, List<Sight> sights, List<String> candidates, Expertise e, Look look,
                           Region attend, boolean canDecline) {
        if (sights.isEmpty()) return lowInformation(family, candidates, true, "no image was given", Region.FULL);
        if (family instanceof QuestionFamily.Unknown) {
            return lowInformation(family, candidates, false, "the question is outside what this model can perceive", Region.FULL);
        }
        if (canDecline && !e.examines(family)) {
            // The role does not examine what the answer depends on: it says so (DESIGN §5: U = 1),
            // rather than writing a guessed letter whose format tokens would look confident.
            return lowInformation(family, candidates, true, e.abstention(family), Region.FULL);
        }
        boolean text = family instanceof QuestionFamily.Text || family instanceof QuestionFamily.Chart;
        List<Judgement> parts = new ArrayList<>();
        List<Double> weights = new ArrayList<>();
        if (text) {
            // the chart's axes and bars always come from the classical analyser; objects do not enter a text answer
            Sight.Segmentation seg = look.weight(Sight.Segmentation.CLASSICAL) >= 0.5 ? Sight.Segmentation.CLASSICAL : Sight.Segmentation.CORES;
            for (Sight.Reader r : Sight.Reader.values()) {
                if (look.weight(r) <= 0) continue;
                parts.add(combine(family, sights.stream().map(s -> s.view(r, seg, look.threshold(), true).attend(attend)).toList(), candidates));
                weights.add(look.weight(r));
            }
        } else {
            for (Sight.Segmentation g : Sight.Segmentation.values()) {
                if (look.weight(g) <= 0) continue;
                parts.add(combine(family, sights.stream().map(s -> s.view(Sight.Reader.V4, g, look.threshold(), false).attend(attend)).toList(), candidates));
                weights.add(look.weight(g));
            }
        }
        return pool(parts, weights.stream().mapToDouble(Double::doubleValue).toArray(), candidates);
    }

    /**
     * Readings of one question with different instruments, pooled by their weights: over options, the weighted mixture
     * of the readings that found something to answer from (the model's answer marginalised over how it read the image;
     * a sampled look draws one of them), with the findings of the heaviest reading that favours the pooled answer; an
     * open answer is the most decided reading's.
     */
    static Judgement pool(List<Judgement> parts, double[] w, List<String> candidates) {
        if (parts.size() == 1) return parts.get(0);
        List<Integer> used = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) if (parts.get(i).applicable()) used.add(i);
        if (used.isEmpty()) return parts.get(argmax(w));
        if (used.size() == 1) return parts.get(used.get(0));
        if (candidates.isEmpty()) {
            int best = used.get(0);
            for (int i : used) if (w[i] * (1.05 - parts.get(i).uncertainty()) > w[best] * (1.05 - parts.get(best).uncertainty())) best = i;
            return parts.get(best);
        }
        double[] uw = new double[used.size()];
        List<Distribution> ds = new ArrayList<>();
        for (int j = 0; j < used.size(); j++) { uw[j] = w[used.get(j)]; ds.add(parts.get(used.get(j)).answer()); }
        Distribution mix = Distribution.mixture(ds, uw);
        int from = -1;
        for (int j = 0; j < used.size(); j++) {
            Judgement p = parts.get(used.get(j));
            if (p.answer().best().equals(mix.best()) && (from < 0 || uw[j] > uw[from])) from = j;
        }
        if (from < 0) from = argmax(uw);
        Judgement top = parts.get(used.get(from));
        return new Judgement(top.family(), true, false, mix, null, top.findings(), top.note());
    }

    /**
     * Judges over perceptions already made, one per image; several are mixed, each weighted by how decided it is
     * (e.g. DREAM's scales), except for a question about time, whose images are a clip's frames in order: they
     * are read together ({@link VideoReasoner}).
     */
    Judgement combine(QuestionFamily family, List<Perception> views, List<String> candidates) {
        if (family instanceof QuestionFamily.Video v && !views.isEmpty()) return VideoReasoner.judge(v, views, candidates);
        return mixed(family, views, candidates);
    }

    /** Judges over perceptions already made (one per image); several are mixed, each weighted by how decided it is. */
    private Judgement mixed(QuestionFamily family, List<Perception> views, List<String> candidates) {
        if (views.isEmpty()) return lowInformation(family, candidates, true, "no image was given", Region.FULL);
        List<Judgement> per = new ArrayList<>();
        for (Perception v : views) per.add(judgeOne(family, v, candidates));
        if (per.size() == 1) return per.get(0);
        int best = 0;
        double[] w = new double[per.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = 1.05 - per.get(i).uncertainty();
            if (per.get(i).uncertainty() < per.get(best).uncertainty()) best = i;
        }
        Judgement top = per.get(best);
        if (candidates.isEmpty()) return top;
        Distribution mix = Distribution.mixture(per.stream().map(Judgement::answer).toList(), w);
        return new Judgement(family, top.applicable(), false, mix, null, top.findings(), top.note() + " (" + per.size() + " views combined)");
    }

    Judgement judgeOne(QuestionFamily family, Perception v, List<String> candidates) {
        if (family instanceof QuestionFamily.Text t) return TextReasoner.text(t, v, candidates);
        if (family instanceof QuestionFamily.Count c) return CountReasoner.count(c, v, candidates);
        if (family instanceof QuestionFamily.Color c) return ObjectReasoner.colour(c, v, candidates);
        if (family instanceof QuestionFamily.Shape s) return ObjectReasoner.shape(s, v, candidates);
        if (family instanceof QuestionFamily.Spatial s) return ObjectReasoner.spatial(s, v, candidates);
        if (family instanceof QuestionFamily.Chart c) return ChartReasoner.chart(c, v, candidates);
        return lowInformation(family, candidates, false, "the question is outside what this model can perceive", Region.FULL);
    }
}
