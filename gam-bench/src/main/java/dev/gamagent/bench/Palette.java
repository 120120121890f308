package dev.gamagent.bench;

import java.awt.Color;
import java.util.List;
import java.util.Random;

/** The benchmark's colour and shape vocabularies (CONTRACTS §3) and their drawing colours. */
final class Palette {
    private Palette() { }

    static final List<String> COLORS = List.of("red", "green", "blue", "yellow", "orange", "purple", "black", "gray");
    static final List<String> SHAPES = List.of("circle", "square", "triangle", "star", "hexagon");
    /** Light backgrounds; the analyser estimates the background from the border. */
    static final List<Color> BACKGROUNDS = List.of(new Color(255, 255, 255), new Color(246, 244, 238),
            new Color(236, 241, 248), new Color(244, 240, 228));
    static final Color LOW_CONTRAST_BACKGROUND = new Color(212, 212, 206);

    static Color base(String color) {
        return switch (color) {
            case "red" -> new Color(215, 38, 38);
            case "green" -> new Color(46, 158, 64);
            case "blue" -> new Color(38, 82, 214);
            case "yellow" -> new Color(240, 208, 36);
            case "orange" -> new Color(242, 132, 24);
            case "purple" -> new Color(134, 58, 178);
            case "black" -> new Color(24, 24, 24);
            case "gray" -> new Color(128, 128, 128);
            default -> throw new IllegalArgumentException("unknown colour '" + color + "': use one of " + COLORS);
        };
    }

    /** The named colour with a small random jitter, blended towards {@code bg} by {@code blend} (low contrast). */
    static Color jittered(String color, Random rng, Color bg, double blend) {
        Color b = base(color);
        int jr = rng.nextInt(17) - 8, jg = rng.nextInt(17) - 8, jb = rng.nextInt(17) - 8;
        if (color.equals("gray") || color.equals("black")) { jg = jr; jb = jr; }
        int r = clamp(b.getRed() + jr), g = clamp(b.getGreen() + jg), bl = clamp(b.getBlue() + jb);
        r = (int) Math.round(r + (bg.getRed() - r) * blend);
        g = (int) Math.round(g + (bg.getGreen() - g) * blend);
        bl = (int) Math.round(bl + (bg.getBlue() - bl) * blend);
        return new Color(clamp(r), clamp(g), clamp(bl));
    }

    static int clamp(int v) { return Math.max(0, Math.min(255, v)); }

    static <T> T pick(List<T> list, Random rng) { return list.get(rng.nextInt(list.size())); }
}
