package dev.gamagent.bench;

import dev.gamagent.bench.SceneTruth.PlacedText;
import dev.gamagent.util.EditDistance;

import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.awt.geom.AffineTransform;
import java.awt.geom.RoundRectangle2D;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Text scenes: a sign, a label on a jar, or a card with small print (8–12 px at base resolution, which
 * is unreadable at 0.5× scale). Hard items use 9–12 px text (6–9 px capitals), faint or rotated ink and a
 * decoy: a wrong option written on the background below the target when there is room. Distractors are similar words: the nearest vocabulary word by edit
 * distance and confusable-letter variants (o/c/e, l/i/t, n/h/m ...).
 */
final class TextScenes extends Scenes {
    static final List<String> WORDS = List.of(
            "market", "marker", "master", "basket", "bakery", "butter", "button", "garden", "golden", "harbor",
            "harvest", "station", "stadium", "exit", "enter", "open", "opera", "closed", "clover", "river",
            "silver", "sliver", "planet", "plant", "paint", "point", "print", "north", "south", "mouth",
            "coffee", "toffee", "office", "police", "palace", "place", "plaza", "pizza", "bridge", "bride",
            "museum", "library", "liberty", "hotel", "hostel", "motel", "parking", "barking", "marking", "school",
            "cinema", "camera", "stone", "store", "storm", "street", "sweet", "tower", "power", "flower",
            "winter", "window", "yellow", "fellow", "meadow", "shadow", "castle", "cattle", "bottle", "little",
            "candle", "handle", "cabin", "robin", "ticket", "pocket", "rocket", "socket", "lemon", "melon",
            "honey", "money", "ocean", "orange", "dinner", "winner", "bread", "break", "cream", "dream");
    private static final Map<Character, String> CONFUSABLE = Map.ofEntries(
            Map.entry('a', "oe"), Map.entry('o', "ac"), Map.entry('e', "co"), Map.entry('c', "eo"),
            Map.entry('i', "lj"), Map.entry('l', "it"), Map.entry('t', "fl"), Map.entry('f', "t"),
            Map.entry('n', "hmr"), Map.entry('h', "nb"), Map.entry('m', "n"), Map.entry('u', "vn"),
            Map.entry('v', "uy"), Map.entry('r', "n"), Map.entry('b', "dh"), Map.entry('d', "b"),
            Map.entry('p', "q"), Map.entry('g', "q"), Map.entry('s', "z"), Map.entry('k', "x"), Map.entry('y', "v"),
            Map.entry('w', "v"));
    private static final List<String> HEADINGS = List.of("NOTICE", "WARNING", "MENU", "TICKET", "RECEIPT", "INFO");

    TextScenes(Random rng, Difficulty d, RenderStyle style) {
        super(rng, d, style);
    }

    BenchItem item(int index) {
        String word = Palette.pick(WORDS, rng);
        List<String> distractors = similarWords(word);
        Canvas canvas = newCanvas();
        int variant = rng.nextInt(3);
        List<PlacedText> texts = new ArrayList<>();
        String question;
        if (variant == 0) {
            question = "What word is written on the sign?";
            texts.add(sign(canvas, word.toUpperCase(Locale.ROOT)));
        } else if (variant == 1) {
            question = "What does the label say?";
            texts.add(label(canvas, Character.toUpperCase(word.charAt(0)) + word.substring(1)));
        } else {
            question = "What is written in the small print?";
            smallPrint(canvas, word, texts);
        }
        PlacedText decoy = d.decoyText() ? decoy(canvas, distractors.get(0), texts.get(texts.size() - 1), variant == 0) : null;
        if (decoy != null) texts.add(decoy);
        return new Draft(question, word, distractors)
                .item(index, rng, canvas, Family.TEXT, d, new SceneTruth(List.of(), texts, null));
    }

    private PlacedText sign(Canvas c, String text) {
        Font font = c.font(d.signPx(), true);
        int tw = c.textWidth(text, font);
        int pad = Math.max(8, d.signPx() / 2);
        double sw = tw + 2 * pad, sh = d.signPx() * 1.5 + pad;
        double cx = sw / 2 + 20 + rng.nextDouble() * Math.max(1, c.width() - sw - 40);
        double cy = sh / 2 + 20 + rng.nextDouble() * Math.max(1, c.height() * 0.6 - sh);
        String board = Palette.pick(List.of("red", "green", "blue", "yellow", "black", "orange"), rng);
        Color boardColor = Palette.jittered(board, rng, c.background, d.contrastBlend());
        Color ink = board.equals("yellow") || board.equals("orange") ? new Color(20, 20, 20) : Color.WHITE;
        if (d.lowContrast()) ink = blend(ink, boardColor, 0.45);
        double rot = (rng.nextDouble() * 2 - 1) * d.textRotationDeg();
        c.fill(new java.awt.Rectangle.Double(cx - 3, cy, 6, c.height() - cy), new Color(110, 110, 110));
        var boardShape = AffineTransform.getRotateInstance(Math.toRadians(rot), cx, cy)
                .createTransformedShape(new RoundRectangle2D.Double(cx - sw / 2, cy - sh / 2, sw, sh, 10, 10));
        c.fill(boardShape, boardColor);
        Rectangle box = c.textCentered(text, font, ink, cx, cy, rot);
        return new PlacedText(text, d.signPx(), box, "sign");
    }

    private PlacedText label(Canvas c, String text) {
        Font font = c.font(d.labelPx(), false);
        int tw = c.textWidth(text, font);
        double lw = tw + 24, lh = d.labelPx() * 1.6;
        double jw = lw + 40, jh = lh * 3.2;
        double cx = jw / 2 + 20 + rng.nextDouble() * Math.max(1, c.width() - jw - 40);
        double cy = jh / 2 + 20 + rng.nextDouble() * Math.max(1, c.height() - jh - 40);
        String jar = Palette.pick(List.of("red", "green", "blue", "purple", "orange", "gray"), rng);
        c.fill(new RoundRectangle2D.Double(cx - jw / 2, cy - jh / 2, jw, jh, 24, 24),
                Palette.jittered(jar, rng, c.background, d.contrastBlend()));
        c.fill(new RoundRectangle2D.Double(cx - jw / 2 + 8, cy - jh / 2 - 12, jw - 16, 16, 6, 6), new Color(90, 90, 90));
        c.fill(new java.awt.Rectangle.Double(cx - lw / 2, cy - lh / 2, lw, lh), new Color(250, 250, 246));
        Color ink = d.lowContrast() ? new Color(165, 165, 165) : new Color(30, 30, 30);
        Rectangle box = c.textCentered(text, font, ink, cx, cy, (rng.nextDouble() * 2 - 1) * d.textRotationDeg() / 2);
        return new PlacedText(text, d.labelPx(), box, "label");
    }

    private void smallPrint(Canvas c, String word, List<PlacedText> texts) {
        String heading = Palette.pick(HEADINGS, rng);
        Font big = c.font(28 + rng.nextInt(9), true);
        Font small = c.font(d.smallPrintPx(), false);
        double cw = Math.max(c.textWidth(heading, big), c.textWidth(word, small)) + 80;
        double ch = 150;
        double x = 20 + rng.nextDouble() * Math.max(1, c.width() - cw - 40);
        double y = 20 + rng.nextDouble() * Math.max(1, c.height() - ch - 40);
        c.fill(new java.awt.Rectangle.Double(x, y, cw, ch), new Color(252, 252, 250));
        c.line(new Color(60, 60, 60), 2f, x, y, x + cw, y);
        c.line(new Color(60, 60, 60), 2f, x, y + ch, x + cw, y + ch);
        c.line(new Color(60, 60, 60), 2f, x, y, x, y + ch);
        c.line(new Color(60, 60, 60), 2f, x + cw, y, x + cw, y + ch);
        Rectangle hb = c.textCentered(heading, big, new Color(30, 30, 30), x + cw / 2, y + 45, 0);
        texts.add(new PlacedText(heading, big.getSize(), hb, "heading"));
        Color ink = d.lowContrast() ? new Color(160, 160, 160) : new Color(70, 70, 70);
        Rectangle sb = c.textAt(word, small, ink, x + 20, y + ch - 20);
        texts.add(new PlacedText(word, d.smallPrintPx(), sb, "small print"));
    }

    /**
     * A wrong option written on the bare background beside the target text (not on the sign, label or
     * card), in plain dark ink 1.3× the target's size: a reader who finds text without knowing where it is
     * can pick the wrong word; a person sees at once which word is on the sign.
     */
    private PlacedText decoy(Canvas c, String word, PlacedText target, boolean upper) {
        String text = upper ? word.toUpperCase(Locale.ROOT) : word;
        int px = Math.max(12, (int) Math.round(target.fontPx() * 1.3));
        Font font = c.font(px, false);
        int tw = c.textWidth(text, font);
        Rectangle t = target.box();
        // Below the sign board, jar or card (all end within 60 px of the target text); none when there is no room.
        double x = Math.max(4, Math.min(c.width() - tw - 4, t.getCenterX() - tw / 2.0 + (rng.nextDouble() - 0.5) * 60));
        double y = t.getMaxY() + 60 + px;
        if (y > c.height() - 6) return null;
        Rectangle box = c.textAt(text, font, new Color(50, 50, 50), x, y);
        return new PlacedText(text, px, box, "decoy");
    }

    private static Color blend(Color a, Color b, double t) {
        return new Color((int) Math.round(a.getRed() + (b.getRed() - a.getRed()) * t),
                (int) Math.round(a.getGreen() + (b.getGreen() - a.getGreen()) * t),
                (int) Math.round(a.getBlue() + (b.getBlue() - a.getBlue()) * t));
    }

    /** Three similar words: the closest other vocabulary word, then confusable-letter variants of {@code word}. */
    List<String> similarWords(String word) {
        List<String> out = new ArrayList<>();
        int best = Integer.MAX_VALUE;
        List<String> nearest = new ArrayList<>();
        for (String w : WORDS) {
            if (w.equals(word)) continue;
            int dist = EditDistance.between(w, word);
            if (dist < best) { best = dist; nearest.clear(); }
            if (dist == best) nearest.add(w);
        }
        if (best <= 3) out.add(nearest.get(rng.nextInt(nearest.size())));
        for (int tries = 0; out.size() < 3 && tries < 200; tries++) {
            String v = confuse(word, tries < 100 ? 1 : 2);
            if (!v.equals(word) && !out.contains(v)) out.add(v);
        }
        return out;
    }

    private String confuse(String word, int edits) {
        char[] cs = word.toCharArray();
        for (int e = 0; e < edits; e++) {
            int i = rng.nextInt(cs.length);
            String alts = CONFUSABLE.get(cs[i]);
            if (alts != null) cs[i] = alts.charAt(rng.nextInt(alts.length()));
        }
        return new String(cs);
    }
}
