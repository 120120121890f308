package dev.gamagent.local;

import dev.gamagent.image.Region;
import dev.gamagent.local.QuestionFamily.Obj;
import dev.gamagent.local.QuestionFamily.VideoKind;
import dev.gamagent.local.vision.DetectedObject;

import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Answers questions about time in a video (issue 30) from the model's own perception of each frame, in the order
 * the frames were sent: the objects its segmentation finds in every frame, with their colour and shape scores and
 * positions. Nothing here knows how a clip was made; every answer is a distribution built from those per-frame
 * readings:
 * <ul>
 *   <li>which way an object moves: the named object's position in each frame (each detected object weighted by
 *       how well it matches the name), a straight line fitted through them over time, and each direction option
 *       scored by the displacement along it against the spread of the positions about the line;</li>
 *   <li>how many times a light blinks: the lamps of the named colour (places where an object of that colour is
 *       seen, whose centre is dark in some frames: an unlit lamp), per frame P(lit) from the colour of what is at
 *       the lamp's centre, and the number of off-to-on changes over the frames as a distribution (a lamp lit in
 *       the first frame counts as one);</li>
 *   <li>which object appears first or last: per option object and frame, how clearly it is there; the frame it
 *       appears in, with objects staying once they are there (a frame where segmentation misses it costs, it
 *       does not reset); and the probability that it appears before (after) every other option.</li>
 * </ul>
 * A claim names the frame its region is on (1-based, as the request's images are numbered).
 */
final class VideoReasoner {
    private VideoReasoner() { }

    /** P(an object that is there is not found in a frame), and the floor of P(present) for a frame with no match. */
    static final double MISS = 0.1;
    /** Spread of a position reading about the object's straight path, as a fraction of the frame's diagonal (at least). */
    static final double POSITION_NOISE = 0.01;

    static Judgement judge(QuestionFamily.Video q, List<Perception> frames, List<String> candidates) {
        if (frames.size() < 2) {
            return Judgement.lowInformation(q, candidates, false, "a question about time needs two frames or more; "
                    + frames.size() + " image was given", Region.FULL);
        }
        return switch (q.kind()) {
            case MOTION -> motion(q, frames, candidates);
            case BLINKS -> blinks(q, frames, candidates);
            case FIRST, LAST -> order(q, frames, candidates);
        };
    }

    // ---------------------------------------------------------------- motion

    private static Judgement motion(QuestionFamily.Video q, List<Perception> frames, List<String> candidates) {
        Obj obj = q.obj();
        int n = frames.size();
        List<double[]> pts = new ArrayList<>(); // t, x, y (normalised to the frame), weight
        int firstSeen = -1, lastSeen = -1;
        Rectangle firstBox = null, lastBox = null;
        for (int f = 0; f < n; f++) {
            Perception v = frames.get(f);
            List<DetectedObject> objs = v.scene().objects();
            if (objs.isEmpty()) continue;
            double[] m = objs.stream().mapToDouble(o -> ObjectMatch.match(o, obj)).toArray();
            double[] w = ObjectMatch.exactlyOne(m);
            int best = Scores.argmax(w);
            double presence = m[best];
            // Relative, not absolute: a black shape whose colour reads mostly grey is still the best match there is.
            if (presence < 1e-6) continue;
            // The position of the named object: the best match, trusted by how clearly it is the one.
            DetectedObject o = objs.get(best);
            pts.add(new double[]{f, o.centerX() / v.width(), o.centerY() / v.height(), w[best]});
            if (firstSeen < 0) { firstSeen = f; firstBox = o.box(); }
            lastSeen = f;
            lastBox = o.box();
        }
        if (pts.size() < 2) {
            return Judgement.lowInformation(q, candidates, false, "the " + obj + " was not found in two frames", Region.FULL);
        }
        double[] fx = fit(pts, 1), fy = fit(pts, 2);
        // Displacement over the clip (first to last frame) and the spread of the readings about the path.
        double span = n - 1;
        double dx = fx[0] * span, dy = fy[0] * span;
        Perception ref = frames.get(0);
        double aspect = (double) ref.height() / ref.width();
        double sigma = Math.max(POSITION_NOISE, Math.hypot(fx[1], fy[1] * aspect)) * Math.sqrt(2);
        // Direction scores: the displacement along each direction (in frame widths) against the spread.
        double[] score = new double[candidates.size()];
        for (int i = 0; i < score.length; i++) {
            String d = OptionKind.direction(candidates.get(i));
            double along = d == null ? Double.NaN : switch (d) {
                case "left" -> -dx;
                case "right" -> dx;
                case "above" -> -dy * aspect;
                default -> dy * aspect;
            };
            score[i] = Double.isNaN(along) ? 0 : Scores.phi(along / sigma - 2) + 1e-9;
        }
        Distribution answer = candidates.isEmpty() ? Distribution.uniform(List.of("left", "right", "up", "down"))
                : Scores.over(candidates, c -> score[candidates.indexOf(c)]);
        if (candidates.isEmpty()) {
            double[] s4 = {Scores.phi(-dx / sigma - 2), Scores.phi(dx / sigma - 2),
                    Scores.phi(-dy * aspect / sigma - 2), Scores.phi(dy * aspect / sigma - 2)};
            answer = Distribution.of(List.of("left", "right", "up", "down"), s4).smoothed(Distribution.FLOOR);
        }
        Perception last = frames.get(lastSeen);
        String evidence = String.format(Locale.ROOT, "the %s is at (%.2f, %.2f) of the frame in frame %d and at (%.2f, %.2f) in frame %d "
                        + "(found in %d of %d frames; fitted path moves %+.2f across, %+.2f down; spread %.3f)",
                obj, pts.get(0)[1], pts.get(0)[2], firstSeen + 1, pts.get(pts.size() - 1)[1], pts.get(pts.size() - 1)[2], lastSeen + 1,
                pts.size(), n, dx, dy, sigma);
        Judgement.Finding finding = new Judgement.Finding(List.of(Piece.plain("The " + obj + " moves"), Piece.best(" ", answer)),
                answer.bestProbability(), evidence, last.region(union(firstBox, lastBox, last, frames.get(firstSeen))), lastSeen + 1);
        return new Judgement(q, true, false, answer, null, List.of(finding), evidence);
    }

    /** The box covering the object's first and last place (both frames are the same size in a clip; else the last frame's box). */
    private static Rectangle union(Rectangle a, Rectangle b, Perception vb, Perception va) {
        if (va.width() != vb.width() || va.height() != vb.height()) return b;
        return a.union(b);
    }

    /** Weighted least squares of column {@code c} against time: {slope, residual spread}. */
    static double[] fit(List<double[]> pts, int c) {
        double sw = 0, st = 0, sv = 0;
        for (double[] p : pts) { sw += p[3]; st += p[3] * p[0]; sv += p[3] * p[c]; }
        double mt = st / sw, mv = sv / sw, stt = 0, stv = 0;
        for (double[] p : pts) { stt += p[3] * (p[0] - mt) * (p[0] - mt); stv += p[3] * (p[0] - mt) * (p[c] - mv); }
        double slope = stt > 0 ? stv / stt : 0, icpt = mv - slope * mt, se = 0;
        for (double[] p : pts) { double r = p[c] - (icpt + slope * p[0]); se += p[3] * r * r; }
        return new double[]{slope, Math.sqrt(se / sw)};
    }

    // ---------------------------------------------------------------- blinks

    /** A place in the frames where an object of the asked colour was seen: a lamp, or a shape of that colour. */
    private static final class Spot {
        double x, y, size, colour, weight;
        int seen;

        Spot(DetectedObject o, double c) {
            x = o.centerX();
            y = o.centerY();
            size = Math.max(o.box().width, o.box().height);
            colour = c;
            weight = c;
            seen = 1;
        }

        boolean near(DetectedObject o) {
            return Math.hypot(o.centerX() - x, o.centerY() - y) <= Math.max(3, 0.3 * size);
        }

        void add(DetectedObject o, double c) {
            double w = weight + c;
            x = (x * weight + o.centerX() * c) / Math.max(1e-9, w);
            y = (y * weight + o.centerY() * c) / Math.max(1e-9, w);
            size = Math.max(size, Math.max(o.box().width, o.box().height));
            colour = Math.max(colour, c);
            weight = w;
            seen++;
        }
    }

    private static Judgement blinks(QuestionFamily.Video q, List<Perception> frames, List<String> candidates) {
        String colour = q.obj().color();
        int n = frames.size();
        List<Spot> spots = new ArrayList<>();
        for (Perception v : frames) {
            for (DetectedObject o : v.scene().objects()) {
                double c = ObjectMatch.colorP(o, colour);
                if (c < 0.3) continue;
                Spot s = spots.stream().filter(x -> x.near(o)).findFirst().orElse(null);
                if (s == null) spots.add(new Spot(o, c));
                else s.add(o, c);
            }
        }
        if (spots.isEmpty()) {
            // Never lit in any frame: a lamp that never turns on blinks 0 times, if there is one at all.
            Distribution counts = Distribution.of(List.of("0", "1"), new double[]{0.7, 0.3});
            Distribution answer = candidates.isEmpty() ? counts : Scores.over(candidates, c -> {
                Integer k = NumberText.parseCount(c);
                return k == null ? 0 : counts.p(Integer.toString(k));
            });
            String why = "no " + colour + " object was seen in any of the " + n + " frames";
            Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The " + colour + " light blinks"), Piece.best(" ", answer),
                    Piece.plain(" times")), answer.bestProbability(), why, Region.FULL, 1);
            return new Judgement(q, true, false, answer, null, List.of(f), why);
        }
        double[] mix = null;
        double total = 0;
        Spot best = null;
        double bestW = -1;
        double[] bestLit = null;
        for (Spot s : spots) {
            double[] lit = new double[n];
            double dark = 0;
            for (int f = 0; f < n; f++) {
                lit[f] = litAt(frames.get(f), s, colour);
                dark = Math.max(dark, 1 - lit[f]);
            }
            // A lamp shows a dark centre when it is off; a shape of the same colour never does.
            double w = s.colour * Math.max(0.02, dark);
            double[] counts = transitions(lit);
            if (mix == null) mix = new double[counts.length];
            for (int k = 0; k < counts.length; k++) mix[k] += w * counts[k];
            total += w;
            if (w > bestW) { bestW = w; best = s; bestLit = lit; }
        }
        List<String> values = new ArrayList<>();
        for (int k = 0; k < mix.length; k++) values.add(Integer.toString(k));
        Distribution counts = Distribution.of(values, mix);
        Distribution answer = candidates.isEmpty() ? counts : Scores.over(candidates, c -> {
            Integer k = NumberText.parseCount(c);
            return k == null ? 0 : counts.p(Integer.toString(k));
        });
        StringBuilder states = new StringBuilder();
        for (double p : bestLit) states.append(p >= 0.5 ? '1' : '0');
        String evidence = String.format(Locale.ROOT, "the %s lamp at (%d,%d) is lit in frames %s (1 = lit, frames 1-%d in order)%s",
                colour, (int) best.x, (int) best.y, states, n, spots.size() > 1 ? "; " + (spots.size() - 1) + " other " + colour + " place(s) weighed" : "");
        int frame = 1;
        for (int f = 0; f < n; f++) if (bestLit[f] >= 0.5) { frame = f + 1; break; }
        Perception v = frames.get(frame - 1);
        double h = best.size / 2 + 2;
        Rectangle box = new Rectangle((int) (best.x - h), (int) (best.y - h), (int) (2 * h), (int) (2 * h))
                .intersection(new Rectangle(0, 0, v.width(), v.height()));
        Judgement.Finding finding = new Judgement.Finding(List.of(Piece.plain("The " + colour + " light blinks"), Piece.best(" ", answer),
                Piece.plain(" times")), answer.bestProbability(), evidence, v.region(box), frame);
        return new Judgement(q, true, false, answer, null, List.of(finding), evidence);
    }

    /**
     * P(the lamp at {@code s} is lit in this frame): what is found at its centre. The innermost object there is the
     * lamp's disc: lit, it has the lamp's colour; off, it is dark (black or grey). Nothing found there: no evidence.
     */
    static double litAt(Perception v, Spot s, String colour) {
        DetectedObject inner = null;
        for (DetectedObject o : v.scene().objects()) {
            if (!s.near(o)) continue;
            if (inner == null || o.pixelArea() < inner.pixelArea()) inner = o;
        }
        if (inner == null) return 0.5;
        double c = ObjectMatch.colorP(inner, colour), d = ObjectMatch.colorP(inner, "black") + ObjectMatch.colorP(inner, "gray");
        double p = (c + 0.05) / (c + d + 0.1);
        return Math.max(0.02, Math.min(0.98, p));
    }

    /** The distribution of the number of off-to-on changes over the frames (starting off), frames independent. */
    static double[] transitions(double[] lit) {
        int n = lit.length;
        // dp[k][s]: P(k changes so far, state s) with s = 1 lit.
        double[][] dp = new double[n + 2][2];
        dp[0][0] = 1;
        for (double p : lit) {
            double[][] next = new double[n + 2][2];
            for (int k = 0; k <= n; k++) {
                next[k][0] += (dp[k][0] + dp[k][1]) * (1 - p);
                next[k + 1][1] += dp[k][0] * p;
                next[k][1] += dp[k][1] * p;
            }
            dp = next;
        }
        double[] out = new double[n + 1];
        for (int k = 0; k <= n; k++) out[k] = dp[k][0] + dp[k][1];
        return out;
    }

    // ---------------------------------------------------------------- order of appearance

    private static Judgement order(QuestionFamily.Video q, List<Perception> frames, List<String> candidates) {
        boolean first = q.kind() == VideoKind.FIRST;
        int n = frames.size();
        if (candidates.isEmpty()) {
            return Judgement.lowInformation(q, candidates, false, "an open question about order names no objects to compare", Region.FULL);
        }
        int m = candidates.size();
        double[][] when = new double[m][]; // P(option i appears at frame t), t = 0..n (n: never)
        int[] seenAt = new int[m];
        Rectangle[] boxes = new Rectangle[m];
        for (int i = 0; i < m; i++) {
            Obj obj = new Obj(QuestionFamily.colourIn(candidates.get(i)), QuestionFamily.shapeIn(candidates.get(i)));
            double[] best = new double[n];
            DetectedObject[] at = new DetectedObject[n];
            double peak = 0;
            for (int f = 0; f < n; f++) {
                for (DetectedObject o : frames.get(f).scene().objects()) {
                    double mt = obj.color() == null && obj.shape() == null ? 0 : ObjectMatch.match(o, obj);
                    if (mt > best[f]) { best[f] = mt; at[f] = o; }
                }
                peak = Math.max(peak, best[f]);
            }
            // How clearly the object is there, against how clearly it is there at best in this clip (a black shape
            // whose colour reads mostly grey matches weakly everywhere it is, and far less where it is not).
            double[] present = new double[n];
            seenAt[i] = -1;
            for (int f = 0; f < n; f++) {
                double rel = best[f] / (best[f] + RELATIVE * peak + 1e-12);
                present[f] = MISS + (1 - 2 * MISS) * rel;
                if (rel >= 0.5 && seenAt[i] < 0) { seenAt[i] = f; boxes[i] = at[f].box(); }
            }
            when[i] = appearance(present);
        }
        double[] score = new double[m];
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int t = 0; t <= n; t++) {
                if (when[i][t] == 0) continue;
                double others = 1;
                for (int j = 0; j < m; j++) {
                    if (j == i) continue;
                    double before = 0, same = when[j][t], after = 0;
                    for (int u = 0; u < t; u++) before += when[j][u];
                    for (int u = t + 1; u <= n; u++) after += when[j][u];
                    others *= (first ? after : before) + 0.5 * same;
                }
                s += when[i][t] * others;
            }
            score[i] = s;
        }
        Distribution answer = Scores.over(candidates, c -> score[candidates.indexOf(c)]);
        int b = answer.bestIndex();
        StringBuilder ev = new StringBuilder();
        for (int i = 0; i < m; i++) {
            if (i > 0) ev.append("; ");
            ev.append(candidates.get(i)).append(seenAt[i] < 0 ? " not clearly seen in any frame" : " first seen in frame " + (seenAt[i] + 1));
        }
        String evidence = ev + " (frames 1-" + n + " in order)";
        int frame = seenAt[b] < 0 ? 1 : seenAt[b] + 1;
        Perception v = frames.get(frame - 1);
        Region region = boxes[b] == null ? Region.FULL : v.region(boxes[b]);
        Judgement.Finding finding = new Judgement.Finding(List.of(Piece.plain("The object that appears " + (first ? "first" : "last") + " is the"),
                Piece.best(" ", answer)), answer.bestProbability(), evidence, region, frame);
        return new Judgement(q, true, false, answer, null, List.of(finding), evidence);
    }

    /**
     * P(the object appears at frame t), t = 0..n (n: not within the clip), from P(present) per frame, an object
     * staying once it is there: L(t) = Π_{f<t} (1 − p_f) · Π_{f≥t} p_f, normalised.
     */
    static double[] appearance(double[] present) {
        int n = present.length;
        double[] logL = new double[n + 1];
        double undetected = 0;
        for (int f = 0; f < n; f++) undetected += Math.log(1 - present[f]);
        for (int t = 0; t <= n; t++) {
            double l = 0;
            for (int f = 0; f < n; f++) l += Math.log(f < t ? 1 - present[f] : present[f]);
            logL[t] = l;
        }
        double max = undetected;
        for (double l : logL) max = Math.max(max, l);
        // Either the readings follow the object (it appears at t and stays), or this look does not find it at all
        // (prior UNSEEN), which says nothing about when it appears: then any frame of the clip is as likely.
        double[] p = new double[n + 1];
        double s = 0;
        for (int t = 0; t <= n; t++) {
            p[t] = (1 - UNSEEN) * Math.exp(logL[t] - max) + (t < n ? UNSEEN * Math.exp(undetected - max) / n : 0);
            s += p[t];
        }
        for (int t = 0; t <= n; t++) p[t] /= s;
        return p;
    }

    /** Prior that a look does not find an object that is in the clip at all (its colour or shape read as another). */
    static final double UNSEEN = 0.1;
    /** Where an object counts as half there: this fraction of its best match anywhere in the clip. */
    static final double RELATIVE = 0.2;
}
