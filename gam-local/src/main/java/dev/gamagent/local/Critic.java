package dev.gamagent.local;

import dev.gamagent.image.Picture;
import dev.gamagent.image.Region;
import dev.gamagent.local.vision.DetectedObject;

import dev.gamagent.local.QuestionFamily.Obj;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A critic re-examines a disputed claim against the image (GAM-Agent's critics; docs/local-model.md): it perceives
 * again, with its own instruments, the part of the image the claim rests on, answers the question from what it finds
 * there, and judges the claim by the probability its own reading gives the option the claim states. Its correction is
 * the option it found instead. It sees only the pixels it was sent, at the resolution sent: it attends to a region (the
 * objects and text read there), it never crops and enlarges one itself. When the controller sent a zoomed crop of the
 * claim's region ({@code gam.zoom}: "image 2 = zoom on CLAIM 1"), the fact and logic checkers read that crop, as sent.
 * <ul>
 *   <li>fact checker: the claim's region (15 % margin), PP-OCRv4 and the core segmenter;</li>
 *   <li>completeness checker: the whole image, PP-OCRv3 and the core segmenter, which splits touching objects:
 *       evidence the claim's region left out;</li>
 *   <li>logic checker: the claim's region with as much context again around it, PP-OCRv3 and the core segmenter:
 *       does what is there answer the question asked (is the text on the sign, label or card, is the object the one
 *       named)?</li>
 * </ul>
 * Regions are attended to only where the answer rests on one object or one text (text, colour, shape); a count, a
 * relation, a chart or a clip is checked over the whole image. A claim that names no option, or an open question, is
 * checked by {@link ClaimChecker}.
 */
final class Critic {
    /** The critics' checks, by role. */
    enum Check {
        FACT, COMPLETENESS, LOGIC;

        static Check of(String role) {
            String r = role == null ? "" : role.toLowerCase(Locale.ROOT);
            if (r.contains("complete")) return COMPLETENESS;
            if (r.contains("logic")) return LOGIC;
            return FACT;
        }
    }

    /** "image 2 = zoom on CLAIM 1": a crop the controller sent (docs/CONTRACTS.md, the critique prompt). */
    private static final Pattern ZOOM = Pattern.compile("(?i)image\\s+(\\d+)\\s*=\\s*zoom on claim\\s+(\\d+)");

    private final LocalPerception perception;
    private final FamilyReasoner reasoner;
    private final ClaimChecker fallback;

    Critic(LocalPerception perception, FamilyReasoner reasoner) {
        this.perception = perception;
        this.reasoner = reasoner;
        this.fallback = new ClaimChecker(perception, reasoner);
    }

    /** The zoomed crops a critique request carries: claim number → 0-based image index (none without {@code gam.zoom}). */
    static Map<Integer, Integer> zooms(ChatRequest request, int images) {
        ChatMessage last = null;
        for (ChatMessage m : request.messages()) if (m.role() == ChatMessage.Role.USER) last = m;
        Map<Integer, Integer> out = new HashMap<>();
        if (last == null) return out;
        Matcher m = ZOOM.matcher(last.text());
        while (m.find()) {
            int image = Integer.parseInt(m.group(1)) - 1;
            if (image >= 1 && image < images) out.putIfAbsent(Integer.parseInt(m.group(2)), image);
        }
        return out;
    }

    /** What the critic looked at: its perception and a phrase saying where and how. */
    private record Look(Perception view, String where) { }

    Assessment assess(ParsedPrompt p, ParsedPrompt.ClaimRef claim, QuestionFamily family, Map<Integer, Integer> zooms) {
        List<Picture> frames = new ArrayList<>(p.images());
        for (int i = frames.size() - 1; i >= 1; i--) if (zooms.containsValue(i)) frames.remove(i);
        Picture image = frames.isEmpty() ? null : frames.get(0);
        Integer z = zooms.get(claim.number());
        Picture crop = z == null ? null : p.images().get(z);
        List<String> options = new ArrayList<>(p.options().values());
        String value = OptionText.named(claim.text(), options);
        if (image == null || options.isEmpty() || value == null || family instanceof QuestionFamily.Unknown) {
            return fallback.check(claim, image, crop);
        }
        Check check = Check.of(p.role());
        if (family instanceof QuestionFamily.Video video) return video(check, video, claim, value, frames, options);
        Look look = look(check, family, claim.region(), image, crop);
        Judgement j = reasoner.combine(family, List.of(look.view()), options);
        double presence = presence(family, look.view(), () -> surfaceText(image));
        // Where the asked-about thing is not there, the claim's evidence is not what the question asks about.
        double t = presence * j.answer().p(value) + (1 - presence) * 0.1;
        String best = j.answer().best();
        double pBest = j.answer().p(best);
        String correction = best.equals(value) || pBest < 1.5 * t || !j.applicable() ? "none" : phrase(family, best);
        String reason = String.format(Locale.ROOT, "%s: %s; there P(%s) = %.2f%s", look.where(), j.note(), value, t,
                best.equals(value) ? "" : String.format(Locale.ROOT, ", P(%s) = %.2f", best, pBest));
        if (presence < 0.5) reason += String.format(Locale.ROOT, "; the object the question names is not clearly there (match %.2f)", presence);
        return new Assessment(claim.number(), Assessment.verdict(t, 0.02), reason, correction);
    }

    private Look look(Check check, QuestionFamily family, Region claimed, Picture image, Picture crop) {
        boolean text = family instanceof QuestionFamily.Text || family instanceof QuestionFamily.Chart;
        // Only where the answer rests on one object or one text is the claim's region the place to look.
        boolean local = family instanceof QuestionFamily.Text || family instanceof QuestionFamily.Color || family instanceof QuestionFamily.Shape;
        // the logic checker: the claim's region with as much context again around it; the fact checker: the region
        return switch (check) {
            case COMPLETENESS -> new Look(perception.sight(image).view(Sight.Reader.V3, Sight.Segmentation.CORES, 0, text),
                    "the whole image as sent (second reader, touching objects split)");
            case LOGIC -> claimLook(Sight.Reader.V3, claimed, image, crop, local, text, 0.5, 48, " with its surroundings");
            default -> claimLook(Sight.Reader.V4, claimed, image, crop, local, text, 0.15, 24, "");
        };
    }

    /**
     * A look at what a claim rests on with {@code reader} and the core segmenter: the zoomed crop the controller sent
     * for it, if any (read as sent), else its region in the image as sent ({@code margin} of its size around it, at
     * least {@code minPx}), or the whole image where the answer does not rest on one object or text.
     */
    private Look claimLook(Sight.Reader reader, Region claimed, Picture image, Picture crop, boolean local, boolean text,
                           double margin, int minPx, String context) {
        if (crop != null && local) {
            return new Look(perception.sight(crop).view(reader, Sight.Segmentation.CORES, 0, text),
                    String.format(Locale.ROOT, "the zoomed crop sent (%dx%d)", crop.width(), crop.height()));
        }
        Region r = claimed == null || !local ? Region.FULL : atLeast(claimed.expand(margin), image, minPx);
        Perception v = perception.sight(image).view(reader, Sight.Segmentation.CORES, 0, text).attend(r);
        return new Look(v, r.equals(Region.FULL) ? "the whole image as sent" : "region " + r + context + ", as sent");
    }

    /**
     * A claim about time in a video: with the clip's frames, the critic reads them all again with its own
     * instruments (fact checker: the classical analyser one threshold step stricter; completeness checker: the
     * core segmenter; logic checker: the core segmenter one step looser) and judges the claim by the probability
     * its reading gives the option the claim states. Shown one frame only (the frame the claim names), it can
     * check that what the claim names is where the claim says, not how it changes over time: the verdict then
     * stays between 0.25 and 0.75.
     */
    private Assessment video(Check check, QuestionFamily.Video q, ParsedPrompt.ClaimRef claim, String value,
                                          List<Picture> frames, List<String> options) {
        Sight.Segmentation seg = check == Check.FACT ? Sight.Segmentation.CLASSICAL : Sight.Segmentation.CORES;
        int threshold = switch (check) { case FACT -> 1; case COMPLETENESS -> 0; case LOGIC -> -1; };
        record Instruments(Sight.Reader reader, Sight.Segmentation segmentation, int threshold) { }
        Instruments look = new Instruments(Sight.Reader.V4, seg, threshold);
        List<Perception> views = frames.stream().map(pic -> perception.sight(pic).view(look.reader(), look.segmentation(), look.threshold(), false)).toList();
        String how = String.format(Locale.ROOT, "%s segmentation, thresholds %+d", seg.name().toLowerCase(Locale.ROOT), threshold);
        if (views.size() >= 2) {
            Judgement j = VideoReasoner.judge(q, views, options);
            double t = j.answer().p(value);
            String best = j.answer().best();
            double pBest = j.answer().p(best);
            String correction = best.equals(value) || pBest < 1.5 * t ? "none" : "the answer is \"" + best + "\"";
            String reason = String.format(Locale.ROOT, "all %d frames read again (%s): %s; there P(%s) = %.2f%s", views.size(), how,
                    j.note(), value, t, best.equals(value) ? "" : String.format(Locale.ROOT, ", P(%s) = %.2f", best, pBest));
            return new Assessment(claim.number(), Assessment.verdict(t, 0.02), reason, correction);
        }
        // One frame: is what the claim names there, in the claim's region?
        Perception v = views.get(0);
        Region r = claim.region() == null ? Region.FULL : claim.region().expand(0.5);
        Obj named = q.kind() == QuestionFamily.VideoKind.MOTION ? q.obj()
                : q.kind() == QuestionFamily.VideoKind.BLINKS ? new Obj(q.obj().color(), null)
                : new Obj(QuestionFamily.colourIn(value), QuestionFamily.shapeIn(value));
        double presence = 0;
        for (DetectedObject o : v.scene().objects()) {
            double cx = o.centerX() / v.width(), cy = o.centerY() / v.height();
            if (cx < r.x0() || cx > r.x1() || cy < r.y0() || cy > r.y1()) continue;
            presence = Math.max(presence, ObjectMatch.match(o, named));
        }
        double t = 0.25 + 0.5 * presence;
        String reason = String.format(Locale.ROOT, "one frame was given (%s): the %s %s in the claim's region (match %.2f); "
                + "a single frame does not show what changes over time", how, named, presence >= 0.5 ? "is there" : "is not clearly there", presence);
        return new Assessment(claim.number(), Assessment.verdict(t, 0.02), reason, "none");
    }

    /** The region grown to at least {@code px} pixels on each side (a claim about a few pixels still gets context). */
    static Region atLeast(Region r, Picture image, int px) {
        double minW = Math.min(1, (double) px / image.width()), minH = Math.min(1, (double) px / image.height());
        double cx = (r.x0() + r.x1()) / 2, cy = (r.y0() + r.y1()) / 2;
        double hw = Math.max(r.x1() - r.x0(), minW) / 2, hh = Math.max(r.y1() - r.y0(), minH) / 2;
        return new Region(cx - hw, cy - hh, cx + hw, cy + hh);
    }

    /** Whether any text of the whole image, as either reader finds it, is on a sign, label or card. */
    private boolean surfaceText(Picture image) {
        Sight s = perception.sight(image);
        for (Sight.Reader r : Sight.Reader.values()) {
            for (var l : s.lines(r)) if (!l.text().isBlank() && s.surfaceOf(l.box()).bounded()) return true;
        }
        return false;
    }

    /**
     * How clearly what the question names is in view: the best match of its target object, a chart, or
     * text on a surface when the question asks about one (a label, small print, or a sign in an image that
     * has text on a surface somewhere).
     */
    static double presence(QuestionFamily family, Perception v, java.util.function.BooleanSupplier imageHasSurfaceText) {
        List<DetectedObject> objs = v.scene().objects();
        // A question that names no shape (or colour) for its object asks about whichever is there.
        if (family instanceof QuestionFamily.Color c) {
            return c.shape() == null ? (objs.isEmpty() ? 0 : 1) : objs.stream().mapToDouble(o -> ObjectMatch.shapeP(o, c.shape())).max().orElse(0);
        }
        if (family instanceof QuestionFamily.Shape s) {
            return s.color() == null ? (objs.isEmpty() ? 0 : 1) : objs.stream().mapToDouble(o -> ObjectMatch.colorP(o, s.color())).max().orElse(0);
        }
        if (family instanceof QuestionFamily.Spatial s) {
            double a = objs.stream().mapToDouble(o -> ObjectMatch.match(o, s.target())).max().orElse(0);
            double b = s.other() == null ? 1 : objs.stream().mapToDouble(o -> ObjectMatch.match(o, s.other())).max().orElse(0);
            return a * b;
        }
        if (family instanceof QuestionFamily.Chart) return v.scene().chart() == null ? 0 : 1;
        if (family instanceof QuestionFamily.Text && v.surface() != null) {
            // A claim about a sign, label or card, where no text in view is on one: the claim rests on other text.
            for (var l : v.lines()) if (!l.text().isBlank() && v.surface().apply(l.box()).bounded()) return 1;
            boolean named = ((QuestionFamily.Text) family).kind() != QuestionFamily.TextKind.SIGN;
            return named || imageHasSurfaceText.getAsBoolean() ? TextReasoner.OPEN_TEXT_TRUST : 1;
        }
        return 1;
    }

    /** A correction in words, naming the option found instead. */
    static String phrase(QuestionFamily family, String option) {
        if (family instanceof QuestionFamily.Text t) {
            String thing = switch (t.kind()) { case SIGN -> "sign"; case LABEL -> "label"; case SMALL_PRINT -> "small print"; };
            return "the " + thing + " reads \"" + option + "\"";
        }
        if (family instanceof QuestionFamily.Count) return "the count is \"" + option + "\"";
        if (family instanceof QuestionFamily.Color c) return "the " + (c.shape() == null ? "object" : c.shape()) + " is \"" + option + "\"";
        if (family instanceof QuestionFamily.Shape s) return "the " + (s.color() == null ? "" : s.color() + " ") + "object is \"" + option + "\"";
        return "the answer is \"" + option + "\"";
    }
}
