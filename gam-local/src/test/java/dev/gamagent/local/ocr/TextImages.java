package dev.gamagent.local.ocr;

import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Renders text lines with known content and boxes, for measuring the OCR (test data, seeded). */
final class TextImages {
    static final List<String> WORDS = List.of(
            "apple", "River", "STATION", "garden", "Window", "purple", "Market", "silver", "BRIDGE", "orange",
            "Yellow", "planet", "Winter", "coffee", "Harbor", "candle", "Forest", "MIRROR", "pencil", "Castle",
            "dragon", "Rocket", "jungle", "Violet", "pillow", "Summer", "ticket", "Museum", "banana", "Anchor",
            "Quartz", "zebra", "kettle", "Meadow", "violin", "Falcon", "Lemon", "thunder", "Oxygen", "whisper");
    static final String[] FONTS = {Font.SANS_SERIF, Font.SERIF, Font.MONOSPACED};

    private TextImages() { }

    record Rendered(BufferedImage image, List<String> lines, List<Rectangle> boxes) { }

    /** A random short line: one or two words, a number, or a word followed by a number. */
    static String randomLine(Random rnd) {
        return switch (rnd.nextInt(4)) {
            case 0 -> WORDS.get(rnd.nextInt(WORDS.size()));
            case 1 -> WORDS.get(rnd.nextInt(WORDS.size())) + " " + WORDS.get(rnd.nextInt(WORDS.size()));
            case 2 -> Integer.toString(rnd.nextInt(100000));
            default -> WORDS.get(rnd.nextInt(WORDS.size())) + " " + rnd.nextInt(1000);
        };
    }

    /**
     * Renders lines one under another with a margin, dark on light or light on dark, plus Gaussian
     * pixel noise of standard deviation {@code noise} grey levels.
     */
    static Rendered render(List<String> lines, String family, int sizePx, boolean darkOnLight, double noise, long seed) {
        Font font = new Font(family, Font.PLAIN, sizePx);
        BufferedImage probe = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
        Graphics2D pg = probe.createGraphics();
        FontMetrics fm = pg.getFontMetrics(font);
        pg.dispose();
        int margin = Math.max(8, sizePx);
        int lineGap = sizePx;
        int width = 0;
        for (String l : lines) width = Math.max(width, fm.stringWidth(l));
        width += 2 * margin;
        int height = 2 * margin + lines.size() * fm.getHeight() + (lines.size() - 1) * lineGap;
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        Color bg = darkOnLight ? new Color(245, 243, 238) : new Color(30, 34, 48);
        Color fg = darkOnLight ? new Color(20, 20, 30) : new Color(235, 235, 225);
        g.setColor(bg);
        g.fillRect(0, 0, width, height);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setFont(font);
        g.setColor(fg);
        List<Rectangle> boxes = new ArrayList<>();
        int y = margin;
        for (String l : lines) {
            g.drawString(l, margin, y + fm.getAscent());
            boxes.add(new Rectangle(margin, y, fm.stringWidth(l), fm.getHeight()));
            y += fm.getHeight() + lineGap;
        }
        g.dispose();
        if (noise > 0) addNoise(img, noise, new Random(seed));
        return new Rendered(img, List.copyOf(lines), boxes);
    }

    private static void addNoise(BufferedImage img, double sd, Random rnd) {
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int p = img.getRGB(x, y);
                int n = (int) Math.round(rnd.nextGaussian() * sd);
                int r = clamp(((p >> 16) & 0xff) + n), gg = clamp(((p >> 8) & 0xff) + n), b = clamp((p & 0xff) + n);
                img.setRGB(x, y, (r << 16) | (gg << 8) | b);
            }
        }
    }

    private static int clamp(int v) { return Math.max(0, Math.min(255, v)); }
}
