package dev.gamagent.local;

import dev.gamagent.image.Region;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.Surfaces;

import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static dev.gamagent.local.Judgement.lowInformation;
import static dev.gamagent.local.Scores.argmax;

/**
 * Answers what a sign, label or small print reads: the OCR line the question is about (the largest or smallest text,
 * or the text on a bounded surface), matched to the options by its character distributions.
 */
final class TextReasoner {
    private TextReasoner() { }

    /** Weight of a text on the open background when the role looks for the sign, label or card a question is about. */
    static final double OPEN_TEXT_WEIGHT = 0.03;
    /** How much a role that looks for the surface trusts a reading when no text it found is on a surface. */
    static final double OPEN_TEXT_TRUST = 0.3;

    static Judgement text(QuestionFamily.Text q, Perception v, List<String> candidates) {
        List<TextLine> lines = v.lines().stream().filter(l -> !l.text().isBlank()).toList();
        if (lines.isEmpty()) return lowInformation(q, candidates, false, "no text was found", Region.FULL);
        boolean smallPrint = q.kind() == QuestionFamily.TextKind.SMALL_PRINT;
        double[] rel = new double[lines.size()];
        Surfaces.Surface[] on = new Surfaces.Surface[lines.size()];
        if (v.surface() == null) {
            // Without asking where a text is written: the largest text (the smallest for small print).
            for (int i = 0; i < rel.length; i++) {
                double h = Math.max(1, lines.get(i).box().getHeight());
                rel[i] = smallPrint ? 1 / (h * h) : h * h;
            }
        } else {
            // The text on a bounded surface (sign board, label, card) is what the question is about; a word on
            // the open background beside it is not. Small print: the smallest text on a surface.
            double smallest = Double.MAX_VALUE;
            for (int i = 0; i < rel.length; i++) {
                on[i] = v.surface().apply(lines.get(i).box());
                if (on[i].bounded()) smallest = Math.min(smallest, Math.max(1, lines.get(i).box().getHeight()));
            }
            for (int i = 0; i < rel.length; i++) {
                double h = Math.max(1, lines.get(i).box().getHeight());
                double size = smallPrint && smallest < Double.MAX_VALUE ? Math.pow(Math.min(1, smallest / h), 4) : 1;
                rel[i] = (on[i].bounded() ? 1 : OPEN_TEXT_WEIGHT) * size;
            }
        }
        int focus = argmax(rel);
        Distribution answer;
        if (candidates.isEmpty()) {
            List<String> texts = lines.stream().map(l -> l.text().strip()).toList();
            double[] w = new double[lines.size()];
            for (int i = 0; i < w.length; i++) w[i] = rel[i] * lines.get(i).meanConfidence();
            answer = Distribution.of(texts, w);
        } else {
            // Each line votes with its posterior over the options, weighted by relevance and by how well it fits any option.
            double[] mix = new double[candidates.size()];
            double[] weight = new double[lines.size()];
            List<Distribution> posts = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                double[] ll = new double[candidates.size()];
                double fit = Double.NEGATIVE_INFINITY;
                for (int c = 0; c < ll.length; c++) {
                    ll[c] = TextLikelihood.logLikelihood(lines.get(i), candidates.get(c));
                    fit = Math.max(fit, TextLikelihood.perCharacter(lines.get(i), candidates.get(c)));
                }
                posts.add(Distribution.fromLog(candidates, ll));
                weight[i] = rel[i] * Math.exp(fit);
            }
            double ws = 0;
            for (double w : weight) ws += w;
            for (int i = 0; i < lines.size(); i++) {
                for (int c = 0; c < mix.length; c++) mix[c] += (ws > 0 ? weight[i] / ws : 1.0 / lines.size()) * posts.get(i).p(c);
            }
            answer = Distribution.of(candidates, mix);
            focus = argmax(weight);
            boolean anyOnSurface = false;
            for (Surfaces.Surface o : on) anyOnSurface |= o != null && o.bounded();
            if (v.surface() != null && !on[focus].bounded() && (anyOnSurface || q.kind() != QuestionFamily.TextKind.SIGN)) {
                // The text that fits best is off every sign, label or card, while the image has text on one (or the
                // question names a label or small print): what was read may not be what the question asks about.
                answer = Distribution.mixture(List.of(answer, Distribution.uniform(candidates)), new double[]{OPEN_TEXT_TRUST, 1 - OPEN_TEXT_TRUST});
            }
        }
        TextLine line = lines.get(focus);
        List<Piece> read = charPieces(line);
        String thing = switch (q.kind()) { case SIGN -> "sign"; case LABEL -> "label"; case SMALL_PRINT -> "small print"; };
        List<Piece> claim = new ArrayList<>();
        claim.add(Piece.plain("The " + thing + " reads \""));
        // With options and a question about where the text is, the claim names the option the reading supports.
        if (v.surface() != null && !candidates.isEmpty()) claim.add(Piece.best("", answer));
        else claim.addAll(read);
        claim.add(Piece.plain("\""));
        Rectangle where = line.box();
        String evidence;
        if (v.surface() == null) {
            evidence = String.format(Locale.ROOT, "OCR line %d of %d, %d px high, mean character probability %.2f",
                    focus + 1, lines.size(), (int) line.box().getHeight(), line.meanConfidence());
        } else {
            if (on[focus].bounded()) where = on[focus].box();
            StringBuilder others = new StringBuilder();
            for (int i = 0; i < lines.size(); i++) {
                if (i == focus) continue;
                others.append(others.length() == 0 ? "; also read " : ", ").append('"').append(lines.get(i).text().strip()).append('"')
                        .append(on[i].bounded() ? " on a surface" : " on the open background");
            }
            evidence = String.format(Locale.ROOT, "OCR read \"%s\" (%d px high, mean character probability %.2f) %s at %s%s",
                    line.text().strip(), (int) line.box().getHeight(), line.meanConfidence(),
                    on[focus].bounded() ? "on a bounded surface" : "on the open background", box(where), others);
        }
        Judgement.Finding f = new Judgement.Finding(claim, line.meanConfidence(), evidence, v.region(where));
        return new Judgement(q, true, false, answer, candidates.isEmpty() ? read : null, List.of(f), evidence);
    }

    static String box(Rectangle r) { return "(" + r.x + "," + r.y + " " + r.width + "x" + r.height + ")"; }

    /** One scored piece per recognised character, alternatives from the recogniser's softmax. */
    static List<Piece> charPieces(TextLine line) {
        List<Piece> out = new ArrayList<>();
        for (TextLine.CharDistribution cd : line.chars()) {
            List<String> vals = new ArrayList<>();
            List<Double> ps = new ArrayList<>();
            double sum = 0;
            for (TextLine.Candidate c : cd.top()) {
                vals.add(c.character());
                ps.add(c.probability());
                sum += c.probability();
            }
            if (sum < 1) { vals.add(ScoredText.OTHER); ps.add(1 - sum); }
            Distribution d = Distribution.of(vals, ps.stream().mapToDouble(Double::doubleValue).toArray());
            if (cd.top().get(0).character().isEmpty()) continue;
            out.add(Piece.chosen("", d, 0));
        }
        if (out.isEmpty()) out.add(Piece.plain(line.text()));
        return out;
    }
}
