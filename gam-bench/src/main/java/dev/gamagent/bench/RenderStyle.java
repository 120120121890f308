package dev.gamagent.bench;

import java.awt.Font;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * How one benchmark image is drawn, apart from what it shows: anti-aliasing, filled or outlined shapes,
 * the font, JPEG compression and the image size and aspect ratio. {@link #CLASSIC} is the generator's
 * original look (anti-aliased, filled, sans-serif, lossless, 448–768 px at 4:3, sized by the scene's own
 * random source, so classic items are byte for byte those of earlier versions); {@link #draw} picks a
 * varied style from its own random source.
 *
 * @param antialias   anti-aliased shapes and text (false: hard pixel edges)
 * @param outlined    shapes drawn as outlines ({@link #outlineWidth}) instead of filled
 * @param font        font family: a JDK logical font (Dialog, SansSerif, Serif, Monospaced) or an installed one
 * @param italic      text set in italics
 * @param jpegQuality JPEG quality in (0, 1] the image is compressed with, 0 for none (lossless)
 * @param width       image width in pixels, 0 for the classic sizes
 * @param height      image height in pixels, 0 for the classic sizes
 */
public record RenderStyle(boolean antialias, boolean outlined, String font, boolean italic, double jpegQuality,
                          int width, int height) {
    public static final RenderStyle CLASSIC = new RenderStyle(true, false, Font.SANS_SERIF, false, 0, 0, 0);

    /**
     * Fonts of the varied style: the JDK's logical fonts (present on every JDK) and the DejaVu and
     * Liberation families of Debian's fonts-dejavu-core and fonts-liberation; a family that is not
     * installed falls back to the JDK's default font, so the images depend on the machine's font set.
     */
    static final List<String> FONTS = List.of(Font.SANS_SERIF, Font.SERIF, Font.MONOSPACED, Font.DIALOG,
            "DejaVu Sans Condensed", "DejaVu Serif", "Liberation Sans", "Liberation Serif", "Liberation Sans Narrow");
    /** Width:height ratios of the varied style: landscape, square, wide, portrait. */
    private static final List<Double> ASPECTS = List.of(4.0 / 3, 1.0, 16.0 / 9, 3.0 / 2, 3.0 / 4, 2.0, 4.0 / 5);

    /** Which styles a benchmark is drawn in. */
    public enum Render {
        /** Every item in {@link RenderStyle#CLASSIC}. */
        CLASSIC,
        /** Every item in its own style drawn by {@link RenderStyle#draw}. */
        VARIED;

        /** "classic" or "varied", any case. */
        public static Render parse(String s) {
            for (Render r : values()) if (r.name().equalsIgnoreCase(s == null ? "" : s.strip())) return r;
            throw new IllegalArgumentException("--render '" + s + "': use classic or varied");
        }

        public String label() { return name().toLowerCase(Locale.ROOT); }
    }

    public RenderStyle {
        if (!(jpegQuality >= 0 && jpegQuality <= 1)) throw new IllegalArgumentException("jpegQuality must be in [0, 1], got " + jpegQuality);
        if (width < 0 || height < 0 || (width == 0) != (height == 0)) {
            throw new IllegalArgumentException("width and height must both be positive, or both 0 for the classic sizes; got " + width + "x" + height);
        }
    }

    /**
     * A varied style: anti-aliasing off on 30 % of the images, outlined shapes on 30 %, one of
     * {@link #FONTS} (italic on 20 %), JPEG quality 0.45–0.9 on half, and 150 000–450 000 pixels at one of
     * seven aspect ratios from 3:4 to 2:1 (both sides at least 300 px).
     */
    public static RenderStyle draw(Random rng) {
        boolean aa = rng.nextDouble() >= 0.3;
        boolean outlined = rng.nextDouble() < 0.3;
        String font = FONTS.get(rng.nextInt(FONTS.size()));
        boolean italic = rng.nextDouble() < 0.2;
        double jpeg = rng.nextBoolean() ? 0 : Math.round((0.45 + 0.45 * rng.nextDouble()) * 100) / 100.0;
        double aspect = ASPECTS.get(rng.nextInt(ASPECTS.size()));
        double area = 150_000 + 300_000 * rng.nextDouble();
        int w = Math.max(300, (int) Math.round(Math.sqrt(area * aspect))) & ~1;
        int h = Math.max(300, (int) Math.round(w / aspect)) & ~1;
        return new RenderStyle(aa, outlined, font, italic, jpeg, w, h);
    }

    /** Whether the scene picks its size as the classic generator did. */
    public boolean classicSize() { return width == 0; }

    /** Stroke width of an outlined shape of circumradius {@code r}: a fifth of it, at least 3 px. */
    static float outlineWidth(double r) { return (float) Math.max(3, Math.round(0.2 * r)); }

    /** Short names of this style's choices, for accuracy per style: "aa-off", "outlined", "font Serif", "jpeg", "aspect 4:3". */
    public List<String> tags() {
        return List.of(antialias ? "aa-on" : "aa-off", outlined ? "outlined" : "filled", "font " + font,
                jpegQuality > 0 ? "jpeg" : "lossless", "aspect " + aspectName());
    }

    private String aspectName() {
        if (classicSize()) return "4:3";
        double a = (double) width / height;
        String best = "4:3";
        double err = Double.MAX_VALUE;
        for (String n : List.of("4:3", "1:1", "16:9", "3:2", "3:4", "2:1", "4:5")) {
            String[] p = n.split(":");
            double e = Math.abs(a - Double.parseDouble(p[0]) / Double.parseDouble(p[1]));
            if (e < err) { err = e; best = n; }
        }
        return best;
    }

    @Override public String toString() {
        return String.format(Locale.ROOT, "%s, %s, %s%s, %s, %s", antialias ? "anti-aliased" : "aliased", outlined ? "outlined" : "filled",
                font, italic ? " italic" : "", jpegQuality > 0 ? "JPEG q" + jpegQuality : "lossless",
                classicSize() ? "classic size" : width + "x" + height);
    }
}
