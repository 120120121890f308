package dev.gamagent.local;

import dev.gamagent.image.Picture;
import dev.gamagent.image.Region;
import dev.gamagent.local.vision.ClassicalSceneAnalyzer;
import dev.gamagent.local.vision.DetectedObject;

import dev.gamagent.local.QuestionFamily.Obj;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A critic re-examines a disputed claim against the image (GAM-Agent's critics; docs/local-model.md):
 * it perceives again, with its own instruments and at its own scale, the part of the image the claim
 * rests on, answers the question from what it finds there, and judges the claim by the probability its
 * own reading gives the option the claim states. Its correction is the option it found instead.
 * <ul>
 *   <li>fact checker: the claim's region (15 % margin) enlarged 2–4×, PP-OCRv4 and the classical
 *       analyser (shapes on the crop denoised at its own size, so speckle is not enlarged into blobs);</li>
 *   <li>completeness checker: the whole image at 2×, PP-OCRv3 and the core segmenter, which splits
 *       touching objects: evidence the claim's region left out;</li>
 *   <li>logic checker: the claim's region with as much context again around it, at the image's own size,
 *       PP-OCRv3 and the core segmenter: does what is there answer the question asked (is the text on
 *       the sign, label or card, is the object the one named)?</li>
 * </ul>
 * A claim that names no option, or an open question, is checked by {@link ClaimChecker}.
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

    /** Largest enlarged crop the fact checker perceives, in pixels (keeps one check well under a second). */
    static final long MAX_ZOOM_PIXELS = 1_600_000L;

    private final LocalPerception perception;
    private final FamilyReasoner reasoner;
    private final ClaimChecker fallback;

    Critic(LocalPerception perception, FamilyReasoner reasoner) {
        this.perception = perception;
        this.reasoner = reasoner;
        this.fallback = new ClaimChecker(perception, reasoner);
    }

    /** What the critic looked at: its perception and a phrase saying where and how. */
    private record Look(Perception view, String where) { }

    ClaimChecker.Assessment assess(ParsedPrompt p, ParsedPrompt.ClaimRef claim, QuestionFamily family, long maxPixels) {
        Picture image = p.images().isEmpty() ? null : p.images().get(0);
        List<String> options = new ArrayList<>(p.options().values());
        String value = OptionText.named(claim.text(), options);
        if (image == null || options.isEmpty() || value == null || family instanceof QuestionFamily.Unknown) {
            return fallback.check(claim, image, maxPixels);
        }
        Check check = Check.of(p.role());
        if (family instanceof QuestionFamily.Video video) return video(check, video, claim, value, p, options);
        Look look = look(check, family, claim.region(), image, maxPixels);
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
        return new ClaimChecker.Assessment(claim.number(), ClaimChecker.verdict(t, 0.02), reason, correction);
    }

    private Look look(Check check, QuestionFamily family, Region claimed, Picture image, long maxPixels) {
        boolean text = family instanceof QuestionFamily.Text || family instanceof QuestionFamily.Chart;
        // Text is read from the raw pixels (a median would erase thin strokes); shapes from the denoised image.
        Picture source = text ? image : perception.sight(image).denoised();
        long cap = maxPixels > 0 ? Math.min(maxPixels, MAX_ZOOM_PIXELS) : MAX_ZOOM_PIXELS;
        switch (check) {
            case COMPLETENESS -> {
                Picture whole = source.scaled(2.0, cap);
                Sight s = perception.sight(whole);
                return new Look(s.view(Sight.Reader.V3, Sight.Segmentation.CORES, text, true),
                        String.format(Locale.ROOT, "the whole image at %.1fx (second reader, touching objects split)", (double) whole.width() / image.width()));
            }
            case LOGIC -> {
                Region r = claimed == null ? Region.FULL : atLeast(claimed.expand(0.5), image, 48);
                Picture crop = r.equals(Region.FULL) ? image : image.crop(r);
                Sight s = perception.sight(text ? crop : new Picture(crop.source(), ClassicalSceneAnalyzer.denoised(crop.image())));
                return new Look(s.view(Sight.Reader.V3, Sight.Segmentation.CORES, text, true),
                        "region " + r + " with its surroundings at 1x");
            }
            default -> {
                Region r = claimed == null ? Region.FULL : atLeast(claimed.expand(0.15), image, 24);
                Picture crop = r.equals(Region.FULL) ? source : source.crop(r);
                double zoom = Math.max(2, Math.min(4, 640.0 / Math.max(crop.width(), crop.height())));
                Picture big = crop.scaled(zoom, cap);
                Sight s = perception.sight(big);
                return new Look(s.view(Sight.Reader.V4, Sight.Segmentation.CORES, text, true),
                        String.format(Locale.ROOT, "region %s enlarged %.1fx", r, (double) big.width() / crop.width()));
            }
        }
    }

    /**
     * A claim about time in a video: with the clip's frames, the critic reads them all again with its own
     * instruments (fact checker: the classical analyser one threshold step stricter; completeness checker: the
     * core segmenter; logic checker: the core segmenter one step looser) and judges the claim by the probability
     * its reading gives the option the claim states. Shown one frame only (the frame the claim names), it can
     * check that what the claim names is where the claim says, not how it changes over time: the verdict then
     * stays between 0.25 and 0.75.
     */
    private ClaimChecker.Assessment video(Check check, QuestionFamily.Video q, ParsedPrompt.ClaimRef claim, String value,
                                          ParsedPrompt p, List<String> options) {
        Sight.Segmentation seg = check == Check.FACT ? Sight.Segmentation.CLASSICAL : Sight.Segmentation.CORES;
        int threshold = switch (check) { case FACT -> 1; case COMPLETENESS -> 0; case LOGIC -> -1; };
        dev.gamagent.local.Look look = new dev.gamagent.local.Look(Sight.Reader.V4, seg, 1.0, threshold);
        List<Perception> views = p.images().stream().map(pic -> perception.sight(pic).view(look, false, false, Sight.Reading.PLAIN)).toList();
        String how = String.format(Locale.ROOT, "%s segmentation, thresholds %+d", seg.name().toLowerCase(Locale.ROOT), threshold);
        if (views.size() >= 2) {
            Judgement j = VideoReasoner.judge(q, views, options);
            double t = j.answer().p(value);
            String best = j.answer().best();
            double pBest = j.answer().p(best);
            String correction = best.equals(value) || pBest < 1.5 * t ? "none" : "the answer is \"" + best + "\"";
            String reason = String.format(Locale.ROOT, "all %d frames read again (%s): %s; there P(%s) = %.2f%s", views.size(), how,
                    j.note(), value, t, best.equals(value) ? "" : String.format(Locale.ROOT, ", P(%s) = %.2f", best, pBest));
            return new ClaimChecker.Assessment(claim.number(), ClaimChecker.verdict(t, 0.02), reason, correction);
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
        return new ClaimChecker.Assessment(claim.number(), ClaimChecker.verdict(t, 0.02), reason, "none");
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
