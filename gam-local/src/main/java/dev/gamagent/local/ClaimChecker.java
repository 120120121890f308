package dev.gamagent.local;

import dev.gamagent.image.Picture;
import dev.gamagent.image.Region;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.DetectedObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.gamagent.local.Assessment.verdict;

/**
 * Re-examines a disputed claim: crops its region (with a 15% margin) from the first image, upscales it ×2,
 * perceives the crop afresh and compares what it finds with what the claim says (text, count, colour,
 * shape, or a left/right/above/below relation). The verdict is a distribution over ACCURATE, PARTIALLY
 * ACCURATE and INACCURATE derived from the probability that the claim holds.
 */
final class ClaimChecker {
    private static final Pattern QUOTED = Pattern.compile("[\"“']([^\"”']{1,60})[\"”']");
    private static final Pattern READS = Pattern.compile("(?i)\\b(?:reads|says|written|text|word|label)\\b\\s*(?:is|:)?\\s*[\"“']?([A-Za-z0-9][^\"”'|]{0,40}?)[\"”']?\\s*(?:$|[.|])");
    private static final Pattern NUMBER = Pattern.compile("\\b(\\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern OBJ = Pattern.compile("\\b([a-z]+)\\s+(circle|square|triangle|star|hexagon)s?\\b", Pattern.CASE_INSENSITIVE);

    private final LocalPerception perception;
    private final FamilyReasoner reasoner;

    ClaimChecker(LocalPerception perception, FamilyReasoner reasoner) {
        this.perception = perception;
        this.reasoner = reasoner;
    }

    /**
     * Checks a claim against {@code image} as sent, attending to the claim's region (15 % margin) when it names one, or
     * against {@code crop} when the controller sent a zoomed crop of that region (null: none was sent).
     */
    Assessment check(ParsedPrompt.ClaimRef claim, Picture image, Picture crop) {
        if (image == null) {
            return new Assessment(claim.number(), verdict(0.5, 0.3), "no image was given to check the claim against", "none");
        }
        Region region = claim.region() == null ? Region.FULL : claim.region().expand(0.15);
        Perception zoom = crop != null ? perception.perceive(crop) : perception.perceive(image).attend(region);
        String where = crop != null ? "the zoomed crop sent" : claim.region() == null ? "the whole image" : "region " + region + " as sent";
        String text = claim.text();
        String lower = text.toLowerCase(Locale.ROOT);

        String said = quoted(text);
        if (said != null) return text(claim, zoom, said, where);

        List<QuestionFamily.Obj> named = objects(text);
        String dir = lower.contains("left") ? "left" : lower.contains("right") ? "right"
                : lower.contains("above") ? "above" : lower.contains("below") ? "below" : null;
        if (dir != null && named.size() >= 2) {
            Perception full = perception.perceive(image);
            boolean horizontal = dir.equals("left") || dir.equals("right");
            var fam = new QuestionFamily.Spatial(horizontal ? QuestionFamily.Relation.LEFT_OR_RIGHT : QuestionFamily.Relation.ABOVE_OR_BELOW,
                    named.get(0), named.get(1));
            List<String> words = horizontal ? List.of("left", "right") : List.of("above", "below");
            Judgement j = reasoner.judgeOne(fam, full, words);
            double p = j.answer().p(dir);
            String other = words.get(0).equals(dir) ? words.get(1) : words.get(0);
            return new Assessment(claim.number(), verdict(p, 0.1), "in the whole image " + j.note(),
                    p >= 0.5 ? "none" : "the " + named.get(0) + " is " + other + (horizontal ? " of" : "") + " the " + named.get(1));
        }

        Integer n = number(lower);
        String shape = QuestionFamily.shapeIn(text), colour = QuestionFamily.colourIn(text);
        if (n != null && (shape != null || lower.contains("object"))) {
            List<DetectedObject> objs = zoom.scene().objects();
            String c = shape == null ? colour : null;
            Distribution counts = CountReasoner.countDistribution(objs, shape, c, zoom.width(), zoom.height());
            double exact = counts.p(Integer.toString(n));
            double near = counts.p(Integer.toString(n - 1)) + counts.p(Integer.toString(n + 1));
            Distribution v = Distribution.of(Assessment.VERDICTS, new double[]{exact, near, Math.max(0, 1 - exact - near)}).smoothed(Distribution.FLOOR);
            String noun = shape != null ? shape + "s" : c != null ? c + " objects" : "objects";
            return new Assessment(claim.number(), v, "counted " + noun + " in " + where + ": " + counts,
                    counts.best().equals(Integer.toString(n)) ? "none" : "there are " + counts.best() + " " + noun);
        }
        if (shape != null && colour != null) {
            Judgement j = reasoner.judgeOne(new QuestionFamily.Color(shape), zoom, List.of());
            if (!j.applicable()) return new Assessment(claim.number(), verdict(0.2, 0.1), "no object was found in " + where, "no " + shape + " is visible there");
            double p = j.answer().p(colour);
            return new Assessment(claim.number(), verdict(p, 0.1), "in " + where + " the " + shape + " has " + j.note(),
                    j.answer().best().equals(colour) ? "none" : "the " + shape + " is " + j.answer().best());
        }
        if (shape != null || colour != null) {
            DetectedObject main = zoom.scene().objects().stream().max(Comparator.comparingInt(DetectedObject::pixelArea)).orElse(null);
            if (main == null) return new Assessment(claim.number(), verdict(0.2, 0.1), "no object was found in " + where, "no object is visible there");
            double p = shape != null ? ObjectMatch.shapeP(main, shape) : ObjectMatch.colorP(main, colour);
            String actual = shape != null ? main.shape() : main.color();
            return new Assessment(claim.number(), verdict(p, 0.1), "the largest object in " + where + " is a " + main.color() + " " + main.shape(),
                    actual.equals(shape != null ? shape : colour) ? "none" : "the object is " + (shape != null ? "a " : "") + actual);
        }
        return new Assessment(claim.number(), verdict(0.5, 0.4),
                "the claim names no text, count, colour, shape or relation this model can check in " + where, "none");
    }

    private Assessment text(ParsedPrompt.ClaimRef claim, Perception zoom, String said, String where) {
        List<TextLine> lines = zoom.lines().stream().filter(l -> !l.text().isBlank()).toList();
        if (lines.isEmpty()) {
            return new Assessment(claim.number(), verdict(0.15, 0.15), "no text was found in " + where, "no text is visible there");
        }
        // The claimed string against what the recogniser itself read: a two-way posterior per line, best line.
        double best = 0;
        TextLine bestLine = lines.get(0);
        for (TextLine l : lines) {
            double lc = TextLikelihood.logLikelihood(l, said), lr = TextLikelihood.logLikelihood(l, l.text().strip());
            double p = TextLikelihood.normalise(said).equals(TextLikelihood.normalise(l.text())) ? Math.exp(lc - Math.max(lc, lr))
                    : 1 / (1 + Math.exp(lr - lc));
            if (p > best) { best = p; bestLine = l; }
        }
        return new Assessment(claim.number(), verdict(best, 0.1),
                String.format(Locale.ROOT, "OCR of %s reads \"%s\" (mean character probability %.2f)", where, bestLine.text().strip(), bestLine.meanConfidence()),
                best >= 0.5 ? "none" : "the text reads \"" + bestLine.text().strip() + "\"");
    }

    static String quoted(String text) {
        Matcher q = QUOTED.matcher(text);
        if (q.find()) return q.group(1).strip();
        Matcher r = READS.matcher(text);
        if (r.find() && QuestionFamily.colourIn(r.group(1)) == null) return r.group(1).strip();
        return null;
    }

    static List<QuestionFamily.Obj> objects(String text) {
        List<QuestionFamily.Obj> out = new ArrayList<>();
        Matcher m = OBJ.matcher(text);
        while (m.find()) {
            String c = QuestionFamily.colour(m.group(1).toLowerCase(Locale.ROOT));
            if (QuestionFamily.COLORS.contains(c)) out.add(new QuestionFamily.Obj(c, m.group(2).toLowerCase(Locale.ROOT)));
        }
        return out;
    }

    static Integer number(String lower) {
        Matcher m = NUMBER.matcher(lower);
        return m.find() ? NumberText.parseCount(m.group(1)) : null;
    }
}
