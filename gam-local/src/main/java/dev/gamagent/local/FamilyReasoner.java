package dev.gamagent.local;

import dev.gamagent.image.Region;
import dev.gamagent.local.QuestionFamily.Obj;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.DetectedObject;
import dev.gamagent.local.vision.Scene;
import dev.gamagent.local.vision.Surfaces;

import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Answers a recognised question from perception results. Every answer is a distribution derived from
 * the perception's own scores: colour and shape class scores, count ambiguity, OCR character
 * distributions, bar heights against the axis ticks. Candidates are the option texts (in option order);
 * an empty candidate list means an open question, answered over the values the model considered.
 */
public final class FamilyReasoner {
    static final String CANNOT = "cannot determine";
    private static final Map<String, Integer> NUMBER_WORDS = numberWords();

    /**
     * Judges one question as a role with expertise {@code e} sees it, over one or more images (e.g.
     * DREAM's several scales): a role whose instruments say nothing about the family declares itself
     * NOT APPLICABLE; otherwise it perceives each image with its own instruments.
     */
    public Judgement judge(QuestionFamily family, List<Sight> sights, List<String> candidates, Expertise e) {
        return judge(family, sights, candidates, e, false);
    }

    /** As above; {@code quick}: text read as found, without the role's closer re-reading (a probe asks for a short answer). */
    public Judgement judge(QuestionFamily family, List<Sight> sights, List<String> candidates, Expertise e, boolean quick) {
        return judge(family, sights, candidates, e, Look.of(e), quick);
    }

    /**
     * As above, seeing with {@code look}'s reader, segmentation and thresholds ({@code sights} are already at its
     * scale); the role's abstentions and way of reading text are its own whatever the look.
     */
    public Judgement judge(QuestionFamily family, List<Sight> sights, List<String> candidates, Expertise e, Look look, boolean quick) {
        if (sights.isEmpty()) return lowInformation(family, candidates, true, "no image was given", Region.FULL);
        if (family instanceof QuestionFamily.Unknown) {
            return lowInformation(family, candidates, false, "the question is outside what this model can perceive", Region.FULL);
        }
        if (!e.examines(family)) {
            // The role does not examine what the answer depends on: it says so (DESIGN §5: U = 1),
            // rather than writing a guessed letter whose format tokens would look confident.
            return lowInformation(family, candidates, true, e.abstention(family), Region.FULL);
        }
        boolean text = family instanceof QuestionFamily.Text || family instanceof QuestionFamily.Chart;
        Sight.Reading reading = quick ? Sight.Reading.PLAIN : e.reading(family);
        List<Perception> views = sights.stream().map(s -> s.view(look, text, e.surfaces(), reading)).toList();
        return combine(family, views, candidates);
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
        if (family instanceof QuestionFamily.Text t) return text(t, v, candidates);
        if (family instanceof QuestionFamily.Count c) return count(c, v, candidates);
        if (family instanceof QuestionFamily.Color c) return colour(c, v, candidates);
        if (family instanceof QuestionFamily.Shape s) return shape(s, v, candidates);
        if (family instanceof QuestionFamily.Spatial s) return spatial(s, v, candidates);
        if (family instanceof QuestionFamily.Chart c) return chart(c, v, candidates);
        return lowInformation(family, candidates, false, "the question is outside what this model can perceive", Region.FULL);
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

    // ---------------------------------------------------------------- colour and shape

    /**
     * P(object i is the one asked about): it matches the named attribute ({@code match}, null when none
     * was named: every object) and, when a place is given, no other matching object lies further that way.
     */
    static double[] targetWeights(List<DetectedObject> objs, double[] match, QuestionFamily.Place place, Perception v) {
        int n = objs.size();
        double[] m = match == null ? java.util.Collections.nCopies(n, 1.0).stream().mapToDouble(Double::doubleValue).toArray() : match;
        if (place == null) return match == null ? exactlyOne(new double[n]) : exactlyOne(m);
        double sx = 0.02 * v.width(), sy = 0.02 * v.height();
        double[] w = new double[n];
        for (int i = 0; i < n; i++) {
            double p = Math.min(1, Math.max(0, m[i]));
            for (int j = 0; j < n; j++) {
                if (j == i) continue;
                DetectedObject a = objs.get(i), b = objs.get(j);
                double beyond = switch (place) {
                    case LEFT -> sigmoid((a.centerX() - b.centerX()) / sx);
                    case RIGHT -> sigmoid((b.centerX() - a.centerX()) / sx);
                    case TOP -> sigmoid((a.centerY() - b.centerY()) / sy);
                    case BOTTOM -> sigmoid((b.centerY() - a.centerY()) / sy);
                };
                p *= 1 - Math.min(1, Math.max(0, m[j])) * beyond;
            }
            w[i] = p;
        }
        return Distribution.of(java.util.Collections.nCopies(n, "o"), w).probabilities();
    }

    /** How the question names its object: "triangle", "red object", "object on the left". */
    private static String described(String colour, String shape, QuestionFamily.Place place) {
        String base = new Obj(colour, shape).toString();
        return place == null ? base : base + " on the " + place.name().toLowerCase(Locale.ROOT);
    }

    private Judgement colour(QuestionFamily.Color q, Perception v, List<String> candidates) {
        List<DetectedObject> objs = v.scene().objects();
        if (objs.isEmpty()) return lowInformation(q, candidates, false, "no object was found", Region.FULL);
        double[] w = targetWeights(objs, q.shape() == null ? null : objs.stream().mapToDouble(o -> shapeP(o, q.shape())).toArray(), q.place(), v);
        double[] mass = new double[QuestionFamily.COLORS.size()];
        for (int i = 0; i < objs.size(); i++) {
            for (int c = 0; c < mass.length; c++) mass[c] += w[i] * colorP(objs.get(i), QuestionFamily.COLORS.get(c));
        }
        Distribution colours = Distribution.of(QuestionFamily.COLORS, mass);
        DetectedObject target = objs.get(argmax(w));
        Distribution answer = candidates.isEmpty() ? colours : over(candidates, c -> colours.p(QuestionFamily.colourIn(c)));
        String what = described(null, q.shape(), q.place());
        String evidence = String.format(Locale.ROOT, "%s %s %.2f for the object at %s; colour scores %s", q.shape() != null ? q.shape() : what,
                q.shape() != null ? "score" : "weight", q.shape() != null ? shapeP(target, q.shape()) : w[argmax(w)], centre(target), top(target.colorScores(), 3));
        Distribution said = stated(colours, answer, candidates);
        Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The " + what + " is"), Piece.best(" ", said)),
                said.bestProbability(), evidence, v.region(target.box()));
        return new Judgement(q, true, false, answer, null, List.of(f), evidence);
    }

    private Judgement shape(QuestionFamily.Shape q, Perception v, List<String> candidates) {
        List<DetectedObject> objs = v.scene().objects();
        if (objs.isEmpty()) return lowInformation(q, candidates, false, "no object was found", Region.FULL);
        double[] w = targetWeights(objs, q.color() == null ? null : objs.stream().mapToDouble(o -> colorP(o, q.color())).toArray(), q.place(), v);
        double[] mass = new double[QuestionFamily.SHAPES.size()];
        for (int i = 0; i < objs.size(); i++) {
            for (int s = 0; s < mass.length; s++) mass[s] += w[i] * shapeP(objs.get(i), QuestionFamily.SHAPES.get(s));
        }
        Distribution shapes = Distribution.of(QuestionFamily.SHAPES, mass);
        DetectedObject target = objs.get(argmax(w));
        Distribution answer = candidates.isEmpty() ? shapes : over(candidates, c -> shapes.p(QuestionFamily.shapeIn(c)));
        String what = described(q.color(), null, q.place());
        String evidence = String.format(Locale.ROOT, "%s %s %.2f for the object at %s; shape scores %s", q.color() != null ? q.color() : what,
                q.color() != null ? "score" : "weight", q.color() != null ? colorP(target, q.color()) : w[argmax(w)], centre(target), top(target.shapeScores(), 3));
        Distribution said = stated(shapes, answer, candidates);
        Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The " + what + " is a"), Piece.best(" ", said)),
                said.bestProbability(), evidence, v.region(target.box()));
        return new Judgement(q, true, false, answer, null, List.of(f), evidence);
    }

    // ---------------------------------------------------------------- counting

    private Judgement count(QuestionFamily.Count q, Perception v, List<String> candidates) {
        List<DetectedObject> objs = v.scene().objects();
        Distribution counts = countDistribution(objs, q.shape(), q.color(), v.width(), v.height());
        Distribution answer = candidates.isEmpty() ? counts : over(candidates, c -> {
            Integer n = parseCount(c);
            return n == null ? 0 : counts.p(Integer.toString(n));
        });
        String noun = (q.color() != null ? q.color() + " " : "") + (q.shape() != null ? q.shape() + "s" : "objects");
        Rectangle union = null;
        int ambiguous = 0;
        for (DetectedObject o : objs) {
            double inc = inclusion(o, q.shape(), q.color(), v.width(), v.height());
            if (inc > 0.5) union = union == null ? new Rectangle(o.box()) : union.union(o.box());
            if (inc > 0.1 && inc < 0.9 || mergeProbability(o, objs) > 0.1) ambiguous++;
        }
        String evidence = String.format(Locale.ROOT, "%d regions found, %d of them in doubt (class score, size near the noise threshold, or two touching objects)",
                objs.size(), ambiguous);
        Distribution said = stated(counts, answer, candidates);
        Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("There are"), Piece.best(" ", said), Piece.plain(" " + noun)),
                said.bestProbability(), evidence, union == null ? Region.FULL : v.region(union));
        return new Judgement(q, true, false, answer, null, List.of(f), evidence);
    }

    /**
     * P(count) as a sum of independent per-object contributions (0, 1 or 2 when the region may be two
     * touching objects), each weighted by how well the object matches the asked class.
     */
    static Distribution countDistribution(List<DetectedObject> objs, String shape, String color, int width, int height) {
        double[] dist = {1.0};
        for (DetectedObject o : objs) {
            double q = inclusion(o, shape, color, width, height);
            double m = mergeProbability(o, objs);
            double p0 = 1 - q, p1 = q * (1 - m), p2 = q * m;
            double[] next = new double[dist.length + 2];
            for (int k = 0; k < dist.length; k++) {
                next[k] += dist[k] * p0;
                next[k + 1] += dist[k] * p1;
                next[k + 2] += dist[k] * p2;
            }
            dist = next;
        }
        List<String> values = new ArrayList<>();
        for (int k = 0; k < dist.length; k++) values.add(Integer.toString(k));
        return Distribution.of(values, dist);
    }

    /**
     * Regions smaller than this many times the noise floor count only in part: after the median filter such
     * a region is a real object or a fragment, so the discount stops at 1.5× (it was 3×, which counted
     * the smallest drawn triangles, 8 px circumradius, as a third of an object).
     */
    static final double SIZE_FACTOR = 1.5;
    static double inclusion(DetectedObject o, String shape, String color, int width, int height) {
        double q = (shape != null ? shapeP(o, shape) : 1.0) * (color != null ? colorP(o, color) : 1.0);
        double minArea = Math.max(16, 2e-4 * width * height);
        return q * Math.min(1, o.pixelArea() / (SIZE_FACTOR * minArea));
    }

    /** A region much larger than the typical object and of no clear shape may be two objects touching. */
    static double mergeProbability(DetectedObject o, List<DetectedObject> all) {
        if (all.size() < 3) return 0;
        double[] areas = all.stream().mapToDouble(DetectedObject::pixelArea).sorted().toArray();
        double median = areas[areas.length / 2];
        if (median <= 0) return 0;
        double ratio = o.pixelArea() / median;
        double maxShape = o.shapeScores().values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        // Large and of no clear shape, or large and like no prototype at all.
        double unclear = Math.max(1 - maxShape, 1 - reliability(o));
        return Math.max(0, Math.min(0.9, unclear * clamp01((ratio - 1.1) / 0.8)));
    }

    // ---------------------------------------------------------------- spatial relations

    private Judgement spatial(QuestionFamily.Spatial q, Perception v, List<String> candidates) {
        List<DetectedObject> objs = v.scene().objects();
        if (objs.size() < 2) return lowInformation(q, candidates, false, "fewer than two objects were found", Region.FULL);
        double[] wt = exactlyOne(objs.stream().mapToDouble(o -> match(o, q.target())).toArray());
        double sx = 0.02 * v.width(), sy = 0.02 * v.height(), sd = 0.02 * v.diagonal();
        DetectedObject target = objs.get(argmax(wt));
        if (q.other() != null) {
            double[] wo = exactlyOne(objs.stream().mapToDouble(o -> match(o, q.other())).toArray());
            boolean horizontal = q.relation() == QuestionFamily.Relation.LEFT_OR_RIGHT;
            double pFirst = 0, norm = 0;
            for (int i = 0; i < objs.size(); i++) {
                for (int j = 0; j < objs.size(); j++) {
                    if (i == j) continue;
                    double w = wt[i] * wo[j];
                    DetectedObject a = objs.get(i), b = objs.get(j);
                    pFirst += w * (horizontal ? sigmoid((b.centerX() - a.centerX()) / sx) : sigmoid((b.centerY() - a.centerY()) / sy));
                    norm += w;
                }
            }
            pFirst = norm > 0 ? pFirst / norm : 0.5;
            List<String> words = horizontal ? List.of("left", "right") : List.of("above", "below");
            Distribution dirs = Distribution.of(words, new double[]{pFirst, 1 - pFirst});
            Distribution answer = candidates.isEmpty() ? dirs : over(candidates, c -> {
                String dir = QuestionFamily.direction(c);
                return words.get(0).equals(dir) ? dirs.p(0) : words.get(1).equals(dir) ? dirs.p(1) : 0;
            });
            DetectedObject other = objs.get(argmax(wo));
            Distribution phrase = horizontal ? dirs.renamed(List.of("to the left of", "to the right of")) : dirs;
            String evidence = String.format(Locale.ROOT, "the %s is centred at %s and the %s at %s", q.target(), centre(target), q.other(), centre(other));
            Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The " + q.target() + " is"), Piece.best(" ", phrase),
                    Piece.plain(" the " + q.other())), dirs.bestProbability(), evidence, v.region(target.box().union(other.box())));
            return new Judgement(q, true, false, answer, null, List.of(f), evidence);
        }
        // P(object o is the answer) = Σ_t P(t is the target) · P(o stands in the relation to t), normalised over o ≠ t.
        double[] po = new double[objs.size()];
        for (int t = 0; t < objs.size(); t++) {
            if (wt[t] <= 0) continue;
            DetectedObject tt = objs.get(t);
            double[] r = new double[objs.size()];
            double sum = 0;
            double nearest = Double.MAX_VALUE;
            for (int o = 0; o < objs.size(); o++) if (o != t) nearest = Math.min(nearest, dist(objs.get(o), tt));
            for (int o = 0; o < objs.size(); o++) {
                if (o == t) continue;
                DetectedObject oo = objs.get(o);
                r[o] = switch (q.relation()) {
                    case LEFT_OF -> sigmoid((tt.centerX() - oo.centerX()) / sx);
                    case RIGHT_OF -> sigmoid((oo.centerX() - tt.centerX()) / sx);
                    case ABOVE -> sigmoid((tt.centerY() - oo.centerY()) / sy);
                    case BELOW -> sigmoid((oo.centerY() - tt.centerY()) / sy);
                    default -> Math.exp(-(dist(oo, tt) - nearest) / sd);
                };
                sum += r[o];
            }
            for (int o = 0; o < objs.size(); o++) if (sum > 0) po[o] += wt[t] * r[o] / sum;
        }
        Map<String, Double> byName = new LinkedHashMap<>();
        for (int o = 0; o < objs.size(); o++) byName.merge(name(objs.get(o)), po[o], Double::sum);
        Distribution names = Distribution.of(new ArrayList<>(byName.keySet()), byName.values().stream().mapToDouble(Double::doubleValue).toArray());
        Distribution answer = candidates.isEmpty() ? names : over(candidates, c -> {
            String col = QuestionFamily.colourIn(c), sh = QuestionFamily.shapeIn(c);
            if (col == null || sh == null) return 0;
            Obj want = new Obj(col, sh);
            double s = 0;
            for (int o = 0; o < objs.size(); o++) s += po[o] * match(objs.get(o), want);
            return s;
        });
        DetectedObject chosen = objs.get(argmax(po));
        String rel = switch (q.relation()) {
            case LEFT_OF -> "to the left of"; case RIGHT_OF -> "to the right of"; case ABOVE -> "above";
            case BELOW -> "below"; default -> "nearest to";
        };
        String evidence = String.format(Locale.ROOT, "the %s is centred at %s; the %s at %s", q.target(), centre(target), name(chosen), centre(chosen));
        Distribution said = stated(names, answer, candidates);
        Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The object " + rel + " the " + q.target() + " is the"),
                Piece.best(" ", said)), said.bestProbability(), evidence, v.region(target.box().union(chosen.box())));
        return new Judgement(q, true, false, answer, null, List.of(f), evidence);
    }

    // ---------------------------------------------------------------- bar charts

    private Judgement chart(QuestionFamily.Chart q, Perception v, List<String> candidates) {
        Scene.Chart chart = mergedBars(v.scene().chart());
        if (chart == null || chart.bars().isEmpty()) return lowInformation(q, candidates, false, "no bar chart was found", Region.FULL);
        List<Scene.Bar> bars = chart.bars();
        int n = bars.size();
        double[] heights = new double[n];
        for (int b = 0; b < n; b++) heights[b] = chart.baselineY() - bars.get(b).box().getMinY();
        AxisFit axis = AxisFit.of(v.lines(), chart);
        List<TextLine> labels = barLabels(v.lines(), chart, v.width());
        List<String> labelTexts = labels.stream().map(l -> l == null ? "?" : l.text().strip()).toList();
        double pixelNoise = 1.5;
        switch (q.kind()) {
            case TALLEST, SHORTEST -> {
                double sign = q.kind() == QuestionFamily.ChartKind.TALLEST ? 1 : -1;
                double[] pb = new double[n];
                for (int b = 0; b < n; b++) {
                    double p = 1;
                    for (int c = 0; c < n; c++) if (c != b) p *= phi(sign * (heights[b] - heights[c]) / (pixelNoise * Math.sqrt(2)));
                    pb[b] = p;
                }
                Distribution barDist = Distribution.of(labelTexts, pb);
                Distribution answer;
                if (candidates.isEmpty()) answer = barDist;
                else {
                    double[] s = new double[candidates.size()];
                    for (int b = 0; b < n; b++) {
                        Distribution lab = labelMatch(labels.get(b), candidates);
                        for (int c = 0; c < s.length; c++) s[c] += barDist.p(b) * lab.p(c);
                    }
                    answer = Distribution.of(candidates, s);
                }
                int best = argmax(barDist.probabilities());
                String evidence = String.format(Locale.ROOT, "bar heights in pixels %s", heightsText(labelTexts, heights));
                Distribution said = stated(barDist, answer, candidates);
                Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The " + (sign > 0 ? "tallest" : "shortest") + " bar is"),
                        Piece.best(" ", said)), said.bestProbability(), evidence, v.region(bars.get(best).box()));
                return new Judgement(q, true, false, answer, null, List.of(f), evidence);
            }
            case VALUE -> {
                if (axis == null) return lowInformation(q, candidates, false, "the axis tick labels could not be read", v.region(chart.plotArea()));
                double[] ub = barsLabelled(labels, q.label());
                double sigma = Math.abs(axis.slope()) * pixelNoise + axis.rmse() + 1e-6;
                int best = argmax(ub);
                List<String> vals = new ArrayList<>();
                for (int b = 0; b < n; b++) vals.add(format(axis.value(bars.get(b).box().getMinY())));
                Distribution values = Distribution.of(vals, ub);
                Distribution answer = candidates.isEmpty() ? values : over(candidates, c -> {
                    Double x = parseNumber(c);
                    if (x == null) return 0;
                    double s = 0;
                    for (int b = 0; b < n; b++) {
                        double z = (x - axis.value(bars.get(b).box().getMinY())) / sigma;
                        s += ub[b] * Math.exp(-0.5 * z * z);
                    }
                    return s;
                });
                String evidence = String.format(Locale.ROOT, "bar '%s' top at y=%d; axis %s per pixel from %d ticks (rmse %.2f)",
                        labelTexts.get(best), (int) bars.get(best).box().getMinY(), format(-axis.slope()), axis.ticks(), axis.rmse());
                Distribution said = stated(values, answer, candidates);
                Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The bar labeled " + q.label() + " has the value"),
                        Piece.best(" ", said)), said.bestProbability(), evidence, v.region(bars.get(best).box()));
                return new Judgement(q, true, false, answer, null, List.of(f), evidence);
            }
            default -> {
                double[] u1 = barsLabelled(labels, q.label()), u2 = barsLabelled(labels, q.label2());
                double p1 = 0, norm = 0;
                for (int a = 0; a < n; a++) {
                    for (int b = 0; b < n; b++) {
                        if (a == b) continue;
                        double w = u1[a] * u2[b];
                        p1 += w * phi((heights[a] - heights[b]) / (pixelNoise * Math.sqrt(2)));
                        norm += w;
                    }
                }
                p1 = norm > 0 ? p1 / norm : 0.5;
                if (q.kind() == QuestionFamily.ChartKind.SMALLER) p1 = 1 - p1;
                Distribution pair = Distribution.of(List.of(q.label(), q.label2()), new double[]{p1, 1 - p1});
                Distribution answer = candidates.isEmpty() ? pair : over(candidates, c -> {
                    String lc = TextLikelihood.normalise(c);
                    return lc.equals(TextLikelihood.normalise(q.label())) ? pair.p(0) : lc.equals(TextLikelihood.normalise(q.label2())) ? pair.p(1) : 0;
                });
                int a = argmax(u1), b = argmax(u2);
                String evidence = String.format(Locale.ROOT, "bar '%s' is %d px tall, bar '%s' is %d px tall",
                        labelTexts.get(a), (int) heights[a], labelTexts.get(b), (int) heights[b]);
                String word = q.kind() == QuestionFamily.ChartKind.SMALLER ? "smaller" : "larger";
                Distribution said = stated(pair, answer, candidates);
                Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The " + word + " bar is"), Piece.best(" ", said)),
                        said.bestProbability(), evidence, v.region(bars.get(a).box().union(bars.get(b).box())));
                return new Judgement(q, true, false, answer, null, List.of(f), evidence);
            }
        }
    }

    /**
     * Bars as columns: pieces of one bar that vision reported separately (overlapping horizontally by
     * more than half the narrower one, or side by side within a few pixels) are joined into their union.
     */
    static Scene.Chart mergedBars(Scene.Chart chart) {
        if (chart == null) return null;
        List<Scene.Bar> sorted = new ArrayList<>();
        // A run a few pixels high along the baseline is the axis line, not a bar.
        for (Scene.Bar b : chart.bars()) if (b.box().height >= 4) sorted.add(b);
        if (sorted.isEmpty()) return null;
        sorted.sort(java.util.Comparator.comparingInt(b -> b.box().x));
        List<Scene.Bar> out = new ArrayList<>();
        for (Scene.Bar b : sorted) {
            if (!out.isEmpty()) {
                Scene.Bar last = out.get(out.size() - 1);
                int overlap = Math.min(last.box().x + last.box().width, b.box().x + b.box().width) - Math.max(last.box().x, b.box().x);
                int narrower = Math.min(last.box().width, b.box().width);
                // overlapping columns, or strips touching within a few pixels (real bars stand apart)
                if (overlap > 0.5 * narrower || (overlap > -Math.max(3, 0.05 * narrower) && overlap <= 0)) {
                    out.set(out.size() - 1, new Scene.Bar(last.box().union(b.box()), last.color()));
                    continue;
                }
            }
            out.add(b);
        }
        return new Scene.Chart(out, chart.plotArea(), chart.baselineY());
    }

    /**
     * For each bar, the OCR text nearest below its centre (null when none is close). Tick labels left
     * of the plot are skipped; a line spanning several bars (the recogniser merged the labels) is cut
     * to the word whose estimated position is nearest the bar.
     */
    static List<TextLine> barLabels(List<TextLine> lines, Scene.Chart chart, int width) {
        List<TextLine> out = new ArrayList<>();
        double left = chart.plotArea() == null ? 0 : chart.plotArea().getMinX();
        double spacing = width;
        List<Scene.Bar> bars = chart.bars();
        for (int i = 1; i < bars.size(); i++) {
            spacing = Math.min(spacing, Math.abs(bars.get(i).box().getCenterX() - bars.get(i - 1).box().getCenterX()));
        }
        for (Scene.Bar bar : bars) {
            TextLine best = null;
            double bestDx = Double.MAX_VALUE;
            for (TextLine l : lines) {
                if (l.box().getCenterY() < chart.baselineY() - 2 || l.box().getMaxX() < left) continue;
                double cx = bar.box().getCenterX();
                double dx = cx < l.box().getMinX() ? l.box().getMinX() - cx : cx > l.box().getMaxX() ? cx - l.box().getMaxX() : 0;
                if (dx < bestDx && dx < Math.max(bar.box().getWidth(), 0.1 * width)) { bestDx = dx; best = l; }
            }
            if (best != null && best.box().getWidth() > spacing) best = wordNear(best, bar.box().getCenterX());
            out.add(best);
        }
        return out;
    }

    /** The whitespace-separated word of a line whose position (characters spread evenly over the box) is nearest x. */
    static TextLine wordNear(TextLine line, double x) {
        List<TextLine.CharDistribution> cs = line.chars();
        int n = cs.size();
        if (n == 0) return line;
        int bestStart = -1, bestEnd = -1;
        double bestD = Double.MAX_VALUE;
        int i = 0;
        while (i < n) {
            while (i < n && blank(cs.get(i))) i++;
            int s = i;
            while (i < n && !blank(cs.get(i))) i++;
            if (i > s) {
                double wx = line.box().getMinX() + (s + i) / 2.0 / n * line.box().getWidth();
                if (Math.abs(wx - x) < bestD) { bestD = Math.abs(wx - x); bestStart = s; bestEnd = i; }
            }
        }
        if (bestStart < 0 || (bestStart == 0 && bestEnd == n)) return line;
        StringBuilder text = new StringBuilder();
        for (int k = bestStart; k < bestEnd; k++) text.append(cs.get(k).top().get(0).character());
        int x0 = (int) Math.round(line.box().getMinX() + (double) bestStart / n * line.box().getWidth());
        int x1 = (int) Math.round(line.box().getMinX() + (double) bestEnd / n * line.box().getWidth());
        return new TextLine(new Rectangle(x0, line.box().y, Math.max(1, x1 - x0), line.box().height), text.toString(),
                cs.subList(bestStart, bestEnd), line.detectionScore());
    }

    private static boolean blank(TextLine.CharDistribution d) {
        String s = d.top().get(0).character();
        return s.isBlank();
    }

    /** P(bar b carries {@code label}) from the OCR likelihood of the label under each bar's label line. */
    static double[] barsLabelled(List<TextLine> labels, String label) {
        double[] lw = new double[labels.size()];
        for (int b = 0; b < lw.length; b++) {
            lw[b] = labels.get(b) == null ? Math.log(1e-6) : TextLikelihood.logLikelihood(labels.get(b), label);
        }
        return Distribution.fromLog(java.util.Collections.nCopies(lw.length, "bar"), lw).probabilities();
    }

    /** P(option text is this label) over the candidates. */
    static Distribution labelMatch(TextLine label, List<String> candidates) {
        if (label == null) return Distribution.uniform(candidates);
        double[] lw = new double[candidates.size()];
        for (int c = 0; c < lw.length; c++) lw[c] = TextLikelihood.logLikelihood(label, candidates.get(c));
        return Distribution.fromLog(candidates, lw);
    }

    /**
     * value = intercept + slope·y over the numeric tick labels left of the plot. Robust to a misread
     * tick (the tick mark read as a digit, "100" → "1004"): the pair of ticks that explains the most
     * others within 4 px picks the inliers, then least squares over those.
     */
    record AxisFit(double intercept, double slope, double rmse, int ticks) {
        private static final java.util.regex.Pattern TICK = java.util.regex.Pattern.compile("^[^0-9-]*(-?\\d+(?:[.,]\\d+)?)");

        double value(double y) { return intercept + slope * y; }

        static AxisFit of(List<TextLine> lines, Scene.Chart chart) {
            List<double[]> pts = new ArrayList<>();
            double left = chart.plotArea() != null ? chart.plotArea().getMinX()
                    : chart.bars().stream().mapToDouble(b -> b.box().getMinX()).min().orElse(0);
            for (TextLine l : lines) {
                if (l.box().getCenterX() > left + 2) continue;
                java.util.regex.Matcher m = TICK.matcher(l.text().strip().replace(" ", ""));
                if (m.find()) pts.add(new double[]{l.box().getCenterY(), Double.parseDouble(m.group(1).replace(",", "."))});
            }
            if (pts.size() < 2) return null;
            List<double[]> bestIn = null;
            double bestErr = Double.MAX_VALUE;
            for (int i = 0; i < pts.size(); i++) {
                for (int j = i + 1; j < pts.size(); j++) {
                    double dy = pts.get(j)[0] - pts.get(i)[0];
                    if (Math.abs(dy) < 1) continue;
                    double slope = (pts.get(j)[1] - pts.get(i)[1]) / dy;
                    if (slope == 0) continue;
                    double icpt = pts.get(i)[1] - slope * pts.get(i)[0];
                    List<double[]> in = new ArrayList<>();
                    double err = 0;
                    for (double[] p : pts) {
                        double px = Math.abs(p[1] - (icpt + slope * p[0])) / Math.abs(slope);
                        if (px <= 4) { in.add(p); err += px; }
                    }
                    if (bestIn == null || in.size() > bestIn.size() || (in.size() == bestIn.size() && err < bestErr)) {
                        bestIn = in;
                        bestErr = err;
                    }
                }
            }
            if (bestIn == null || bestIn.size() < 2) return null;
            double my = 0, mv = 0;
            for (double[] p : bestIn) { my += p[0]; mv += p[1]; }
            my /= bestIn.size();
            mv /= bestIn.size();
            double sxy = 0, sxx = 0;
            for (double[] p : bestIn) { sxy += (p[0] - my) * (p[1] - mv); sxx += (p[0] - my) * (p[0] - my); }
            if (sxx < 1e-9) return null;
            double slope = sxy / sxx, intercept = mv - slope * my, se = 0;
            for (double[] p : bestIn) { double r = p[1] - (intercept + slope * p[0]); se += r * r; }
            return new AxisFit(intercept, slope, Math.sqrt(se / bestIn.size()), bestIn.size());
        }
    }

    // ---------------------------------------------------------------- text

    /** Weight of a text on the open background when the role looks for the sign, label or card a question is about. */
    static final double OPEN_TEXT_WEIGHT = 0.03;
    /** How much a role that looks for the surface trusts a reading when no text it found is on a surface. */
    static final double OPEN_TEXT_TRUST = 0.3;

    private Judgement text(QuestionFamily.Text q, Perception v, List<String> candidates) {
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

    // ---------------------------------------------------------------- shared arithmetic

    /** What a claim states: the answer over the options when there are options (so claim and answer agree), else the perceived values. */
    static Distribution stated(Distribution perceived, Distribution answer, List<String> candidates) {
        return candidates.isEmpty() ? perceived : answer;
    }

    /** A distribution over candidates from a score per candidate, smoothed so no option is impossible. */
    static Distribution over(List<String> candidates, java.util.function.ToDoubleFunction<String> score) {
        double[] s = new double[candidates.size()];
        for (int i = 0; i < s.length; i++) s[i] = Math.max(0, score.applyAsDouble(candidates.get(i)));
        return Distribution.of(candidates, s).smoothed(Distribution.FLOOR);
    }

    /** P(object i is the unique match) ∝ m_i/(1−m_i): exactly one object matches, independently scored. */
    static double[] exactlyOne(double[] m) {
        double[] w = new double[m.length];
        double s = 0;
        for (int i = 0; i < m.length; i++) {
            double mi = Math.min(1 - 1e-6, Math.max(0, m[i]));
            w[i] = mi / (1 - mi);
            s += w[i];
        }
        for (int i = 0; i < w.length; i++) w[i] = s > 0 ? w[i] / s : 1.0 / w.length;
        return w;
    }

    /**
     * P(the object is a {@code shape}): the classifier's score, trusted as far as the region looks like any
     * prototype at all (a region far from every prototype, e.g. two objects merged or a shape a few pixels
     * wide, gets a score nearer the uniform 1/5).
     */
    static double shapeP(DetectedObject o, String shape) {
        if (shape == null) return 0;
        double r = reliability(o);
        return r * o.shapeScores().getOrDefault(shape, 0.0) + (1 - r) / QuestionFamily.SHAPES.size();
    }

    /** 1 for a region within the spread of clean shapes (fit ≤ 8), falling as its shape looks like no prototype. */
    static double reliability(DetectedObject o) {
        return o.fit() <= 8 ? 1 : Math.exp(-(o.fit() - 8) / 30);
    }

    static double colorP(DetectedObject o, String color) { return color == null ? 0 : o.colorScores().getOrDefault(color, 0.0); }

    /** How well an object fits a named one; a part the name leaves out ("the circle": no colour) fits any object. */
    static double match(DetectedObject o, Obj obj) {
        return (obj.color() == null ? 1 : colorP(o, obj.color())) * (obj.shape() == null ? 1 : shapeP(o, obj.shape()));
    }

    static String name(DetectedObject o) { return o.color() + " " + o.shape(); }

    private static double dist(DetectedObject a, DetectedObject b) {
        return Math.hypot(a.centerX() - b.centerX(), a.centerY() - b.centerY());
    }

    static int argmax(double[] v) {
        int b = 0;
        for (int i = 1; i < v.length; i++) if (v[i] > v[b]) b = i;
        return b;
    }

    static double sigmoid(double x) { return 1 / (1 + Math.exp(-x)); }

    /** Standard normal CDF (Abramowitz–Stegun 7.1.26 via erf). */
    static double phi(double x) {
        double t = 1 / (1 + 0.3275911 * Math.abs(x) / Math.sqrt(2));
        double y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
                * Math.exp(-x * x / 2);
        return x >= 0 ? (1 + y) / 2 : (1 - y) / 2;
    }

    private static double clamp01(double v) { return Math.max(0, Math.min(1, v)); }

    private static String centre(DetectedObject o) { return "(" + (int) o.centerX() + "," + (int) o.centerY() + ")"; }

    private static String top(Map<String, Double> scores, int k) {
        return scores.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue(), a.getValue())).limit(k)
                .map(e -> String.format(Locale.ROOT, "%s %.2f", e.getKey(), e.getValue())).reduce((a, b) -> a + ", " + b).orElse("none");
    }

    private static String heightsText(List<String> labels, double[] h) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < h.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append(labels.get(i)).append(' ').append((int) Math.round(h[i]));
        }
        return sb.toString();
    }

    static String format(double v) {
        if (Math.abs(v - Math.rint(v)) < 0.05) return Long.toString(Math.round(v));
        return String.format(Locale.ROOT, "%.1f", v);
    }

    static Integer parseCount(String s) {
        String t = TextLikelihood.normalise(s);
        if (t.matches("\\d+")) return Integer.parseInt(t);
        return NUMBER_WORDS.get(t);
    }

    static Double parseNumber(String s) {
        String t = s == null ? "" : s.strip().replace(",", "").replace("%", "").replace("$", "");
        if (t.matches("-?\\d+(\\.\\d+)?")) return Double.parseDouble(t);
        Integer w = NUMBER_WORDS.get(t.toLowerCase(Locale.ROOT));
        return w == null ? null : w.doubleValue();
    }

    private static Map<String, Integer> numberWords() {
        String[] w = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"};
        Map<String, Integer> m = new java.util.HashMap<>();
        for (int i = 0; i < w.length; i++) m.put(w[i], i);
        return Map.copyOf(m);
    }
}
