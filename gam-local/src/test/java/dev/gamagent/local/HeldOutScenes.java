package dev.gamagent.local;

import java.awt.Color;
import java.awt.Font;
import java.awt.Shape;
import java.awt.font.FontRenderContext;
import java.awt.font.GlyphVector;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * An independent renderer for a held-out check of the local model, written apart from {@code bench/}:
 * its own rasteriser (each pixel's coverage from 4×4 point samples, glyphs filled from their outlines,
 * no Graphics2D drawing), its own colours, sizes and words, and its own layout conventions (objects in
 * the cells of a jittered grid, signs as bordered boards with dark ink, labels on boxes, captions under a
 * title, charts with grey axes and grid lines). Questions come from the held-out phrasing set
 * (src/test/resources/heldout/phrasings.tsv).
 * <p>Two tiers. Easy: large objects, large text, no noise ({@link #generate(int)} draws only these, from one random
 * source in sequence, as the first measurements did). Hard ({@link #generate(int, double)}, each item from its own
 * random source (seed, i)): objects of 12–18 px radius placed freely among clutter, a third of them overlapping an
 * earlier one; tighter counts; text of 10–16 px in one of four font families, turned up to ±12°, faint ink on half,
 * and a decoy (a wrong option written off the board); charts of 5–7 bars whose values are neighbouring multiples of
 * 5, with 10 px labels; low contrast (every colour halfway to a grey background) on half; then Gaussian noise, and
 * each with even odds a box blur, speckles and a JPEG round trip. Written from these principles, not from
 * {@code bench/}'s code.
 */
final class HeldOutScenes {
    /**
     * One item: the image, what is asked (family, variant, placeholder values), the correct value and the
     * distractors; its tier ("easy" or "hard") and what was drawn (objects in drawing order, bars, the decoy).
     */
    record Item(int index, BufferedImage image, String family, String variant, Map<String, String> values,
                String correct, List<String> distractors, String tier, Scene scene) {
        Item(int index, BufferedImage image, String family, String variant, Map<String, String> values,
             String correct, List<String> distractors) {
            this(index, image, family, variant, values, correct, distractors, "easy", Scene.NONE);
        }

        Item with(BufferedImage img, String tier, Scene scene) {
            return new Item(index, img, family, variant, values, correct, distractors, tier, scene);
        }
    }

    /** What an item drew: shapes in drawing order (a later one covers an earlier), chart bars, a text decoy (or null). */
    record Scene(List<Placed> objects, List<Bar> bars, String word, String decoy) {
        static final Scene NONE = new Scene(List.of(), List.of(), null, null);
    }

    record Bar(String label, int value) { }

    static final List<String> COLOURS = List.of("red", "green", "blue", "yellow", "orange", "purple", "black", "gray");
    static final List<String> SHAPES = List.of("circle", "square", "triangle", "star", "hexagon");
    private static final List<String> WORDS = List.of("garage", "studio", "forest", "canyon", "beacon", "marina", "tunnel",
            "sunset", "copper", "lantern", "harbour", "summit", "valley", "island", "temple", "gallery", "quarry", "orchard",
            "pharmacy", "bakers", "cottage", "airport", "theatre", "chapel", "market", "ferry", "salon", "dental");
    private static final List<String> BAR_LABELS = List.of("north", "south", "east", "west", "alpha", "beta", "gamma", "delta",
            "red team", "blue team", "Q1", "Q2", "Q3", "Q4", "2019", "2020", "2021");
    private static final List<Color> BACKGROUNDS = List.of(new Color(255, 255, 255), new Color(248, 248, 248),
            new Color(250, 246, 240), new Color(240, 245, 250));
    private static final int[][] SIZES = {{500, 500}, {640, 400}, {420, 560}, {600, 450}};

    static Color colour(String name) {
        return switch (name) {
            case "red" -> new Color(220, 38, 38);
            case "green" -> new Color(56, 176, 0);
            case "blue" -> new Color(33, 99, 235);
            case "yellow" -> new Color(250, 204, 21);
            case "orange" -> new Color(249, 115, 22);
            case "purple" -> new Color(147, 51, 234);
            case "black" -> new Color(30, 30, 30);
            case "gray" -> new Color(140, 140, 140);
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** A raster with its own coverage-based filling. */
    static final class Raster {
        final int w, h;
        final int[] px;

        Raster(int w, int h, Color bg) {
            this.w = w;
            this.h = h;
            this.px = new int[w * h];
            java.util.Arrays.fill(px, bg.getRGB() & 0xFFFFFF);
        }

        /** Fills {@code s}: each pixel blends towards {@code c} by the share of its 16 sample points inside the shape. */
        void fill(Shape s, Color c) {
            Rectangle2D b = s.getBounds2D();
            int x0 = Math.max(0, (int) Math.floor(b.getMinX())), x1 = Math.min(w - 1, (int) Math.ceil(b.getMaxX()));
            int y0 = Math.max(0, (int) Math.floor(b.getMinY())), y1 = Math.min(h - 1, (int) Math.ceil(b.getMaxY()));
            for (int y = y0; y <= y1; y++) {
                for (int x = x0; x <= x1; x++) {
                    int in = 0;
                    for (int sy = 0; sy < 4; sy++) for (int sx = 0; sx < 4; sx++) if (s.contains(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)) in++;
                    if (in == 0) continue;
                    double a = in / 16.0;
                    int o = px[y * w + x];
                    int r = (int) Math.round(((o >> 16) & 255) * (1 - a) + c.getRed() * a);
                    int g = (int) Math.round(((o >> 8) & 255) * (1 - a) + c.getGreen() * a);
                    int bl = (int) Math.round((o & 255) * (1 - a) + c.getBlue() * a);
                    px[y * w + x] = r << 16 | g << 8 | bl;
                }
            }
        }

        /** Text from glyph outlines, centred on (cx, cy); returns its width. */
        double text(String s, Font f, Color c, double cx, double cy) { return text(s, f, c, cx, cy, 0); }

        /** Text turned by {@code theta} (radians) about its centre (cx, cy); returns its unturned width. */
        double text(String s, Font f, Color c, double cx, double cy, double theta) {
            GlyphVector gv = f.createGlyphVector(new FontRenderContext(null, true, true), s);
            Rectangle2D vb = gv.getVisualBounds();
            Shape outline = gv.getOutline((float) (cx - vb.getCenterX()), (float) (cy - vb.getCenterY()));
            if (theta != 0) outline = java.awt.geom.AffineTransform.getRotateInstance(theta, cx, cy).createTransformedShape(outline);
            fill(outline, c);
            return vb.getWidth();
        }

        static double height(String s, Font f) {
            return f.createGlyphVector(new FontRenderContext(null, true, true), s).getVisualBounds().getHeight();
        }

        static double width(String s, Font f) {
            return f.createGlyphVector(new FontRenderContext(null, true, true), s).getVisualBounds().getWidth();
        }

        BufferedImage image() {
            BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
            System.arraycopy(px, 0, ((DataBufferInt) img.getRaster().getDataBuffer()).getData(), 0, px.length); // px are 0xRRGGBB
            return img;
        }
    }

    static Shape shape(String name, double cx, double cy, double r, double turn) {
        Shape s = switch (name) {
            case "circle" -> new Ellipse2D.Double(cx - r, cy - r, 2 * r, 2 * r);
            case "square" -> polygon(cx, cy, r, 4, Math.PI / 4, 1);
            case "triangle" -> polygon(cx, cy, r, 3, turn > 0.5 ? Math.PI / 2 : -Math.PI / 2, 1); // pointing up or down
            case "hexagon" -> polygon(cx, cy, r, 6, -Math.PI / 2, 1); // pointy top
            case "star" -> polygon(cx, cy, r, 5, -Math.PI / 2, 0.5);
            default -> throw new IllegalArgumentException(name);
        };
        return s;
    }

    private static Shape polygon(double cx, double cy, double r, int n, double start, double innerRatio) {
        Path2D.Double p = new Path2D.Double();
        int k = innerRatio < 1 ? 2 * n : n;
        for (int i = 0; i < k; i++) {
            double a = start + 2 * Math.PI * i / k, rr = innerRatio < 1 && i % 2 == 1 ? r * innerRatio : r;
            if (i == 0) p.moveTo(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
            else p.lineTo(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
        }
        p.closePath();
        return p;
    }

    record Placed(String shape, String colour, double cx, double cy, double r, double turn) {
        String name() { return colour + " " + shape; }

        Shape outline() { return HeldOutScenes.shape(shape, cx, cy, r, turn); }
    }

    private static final String[] FAMILIES = {"text", "count", "color", "shape", "spatial", "chart"};
    private static final List<Color> GREYS = List.of(new Color(190, 190, 190), new Color(170, 172, 175), new Color(205, 200, 195));

    private final long seed;
    private Random rng;
    /** The item being drawn: its tier, and (hard) whether its colours are pulled halfway to its grey background. */
    private boolean hard, lowContrast;
    private Color background;
    private List<Placed> drawn = List.of();
    private List<Bar> bars = List.of();
    private String word, decoy;

    HeldOutScenes(long seed) {
        this.seed = seed;
        this.rng = new Source(seed);
    }

    /**
     * java.util.Random's sequence (its documented 48-bit generator, which every draw goes through) in a plain field
     * instead of an AtomicLong: the same numbers, at a fraction of the CPU in the test JVMs (a draw per colour channel
     * of every hard item's pixels made the atomic update most of the renderer's time). Single-threaded, as the renderer is.
     */
    static final class Source extends Random {
        private static final long MULTIPLIER = 0x5DEECE66DL, ADDEND = 0xBL, MASK = (1L << 48) - 1;
        private long state;

        Source(long seed) { super(seed); }

        @Override public synchronized void setSeed(long seed) {
            super.setSeed(seed);
            state = (seed ^ MULTIPLIER) & MASK;
        }

        @Override protected int next(int bits) {
            state = (state * MULTIPLIER + ADDEND) & MASK;
            return (int) (state >>> (48 - bits));
        }
    }

    /** {@code n} easy items from one random source in sequence (the first measurements' items, unchanged). */
    List<Item> generate(int n) {
        List<Item> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(item(i, FAMILIES[i % FAMILIES.length]));
        return out;
    }

    /** {@code n} items, each hard with probability {@code hardFraction}, item i drawn from its own source (seed, i). */
    List<Item> generate(int n, double hardFraction) {
        if (!(hardFraction >= 0 && hardFraction <= 1)) throw new IllegalArgumentException("hard fraction " + hardFraction + " is not in [0, 1]");
        List<Item> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(itemAt(i, hardFraction));
        return out;
    }

    /** Item {@code i} of the tiered set: the same whatever n and whichever items were drawn before. */
    Item itemAt(int i, double hardFraction) {
        rng = new Source(itemSeed(seed, i));
        hard = rng.nextDouble() < hardFraction;
        return item(i, FAMILIES[i % FAMILIES.length]);
    }

    /** SplitMix64's finaliser over (seed, i): neighbouring seeds and indices give unrelated sources. */
    static long itemSeed(long seed, int i) {
        long z = seed * 0x9E3779B97F4A7C15L + (i + 1) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private Item item(int index, String family) {
        for (int attempt = 0; ; attempt++) {
            int[] size = SIZES[rng.nextInt(SIZES.length)];
            background = BACKGROUNDS.get(rng.nextInt(BACKGROUNDS.size()));
            lowContrast = hard && rng.nextBoolean();
            if (lowContrast) background = GREYS.get(rng.nextInt(GREYS.size()));
            drawn = List.of();
            bars = List.of();
            word = null;
            decoy = null;
            Raster r = new Raster(size[0], size[1], background);
            Item it = switch (family) {
                case "text" -> hard ? hardText(index, r) : text(index, r);
                case "count" -> count(index, r);
                case "color" -> colourItem(index, r);
                case "shape" -> shapeItem(index, r);
                case "spatial" -> spatial(index, r);
                default -> hard ? hardChart(index, r) : chart(index, r);
            };
            if (it != null) {
                Scene scene = new Scene(List.copyOf(drawn), List.copyOf(bars), word, decoy);
                return hard ? it.with(degrade(it.image()), "hard", scene) : it.with(it.image(), "easy", scene);
            }
            if (attempt > 2000) throw new IllegalStateException("no " + family + " scene for item " + index);
        }
    }

    /** A colour as drawn: pulled halfway towards the grey background on a low-contrast item. */
    private Color ink(Color c) {
        if (!lowContrast) return c;
        return new Color((c.getRed() + background.getRed()) / 2, (c.getGreen() + background.getGreen()) / 2,
                (c.getBlue() + background.getBlue()) / 2);
    }

    /** The hard tier's capture: Gaussian noise, and with even odds each a 3×3 box blur, 3 % speckles, a JPEG round trip. */
    private BufferedImage degrade(BufferedImage img) {
        int w = img.getWidth(), h = img.getHeight();
        int[] px = pixels(img);
        if (rng.nextBoolean()) {
            int[] out = new int[px.length];
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    int sr = 0, sg = 0, sb = 0, k = 0;
                    for (int dy = -1; dy <= 1; dy++) for (int dx = -1; dx <= 1; dx++) {
                        int xx = x + dx, yy = y + dy;
                        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
                        int p = px[yy * w + xx];
                        sr += (p >> 16) & 255; sg += (p >> 8) & 255; sb += p & 255; k++;
                    }
                    out[y * w + x] = (sr / k) << 16 | (sg / k) << 8 | (sb / k);
                }
            }
            px = out;
        }
        double sigma = 6 + 8 * rng.nextDouble();
        boolean speckle = rng.nextBoolean();
        for (int i = 0; i < px.length; i++) {
            int p = px[i];
            if (speckle && rng.nextDouble() < 0.03) {
                int g = rng.nextInt(256);
                px[i] = g << 16 | g << 8 | g;
                continue;
            }
            int rr = clamp(((p >> 16) & 255) + (int) Math.round(rng.nextGaussian() * sigma));
            int gg = clamp(((p >> 8) & 255) + (int) Math.round(rng.nextGaussian() * sigma));
            int bb = clamp((p & 255) + (int) Math.round(rng.nextGaussian() * sigma));
            px[i] = rr << 16 | gg << 8 | bb;
        }
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        System.arraycopy(px, 0, ((DataBufferInt) out.getRaster().getDataBuffer()).getData(), 0, px.length);
        return rng.nextBoolean() ? jpeg(out, 0.35f + 0.35f * rng.nextFloat()) : out;
    }

    /**
     * The pixels as 0xRRGGBB (what degrade reads and writes; getRGB's alpha byte is never looked at): an RGB image's own
     * array copied, not converted a pixel at a time.
     */
    private static int[] pixels(BufferedImage img) {
        if (img.getType() == BufferedImage.TYPE_INT_RGB && img.getRaster().getDataBuffer() instanceof DataBufferInt d
                && img.getRaster().getParent() == null && d.getData().length == img.getWidth() * img.getHeight()) {
            return d.getData().clone();
        }
        int[] px = img.getRGB(0, 0, img.getWidth(), img.getHeight(), null, 0, img.getWidth());
        for (int i = 0; i < px.length; i++) px[i] &= 0xFFFFFF;
        return px;
    }

    private static int clamp(int v) { return Math.max(0, Math.min(255, v)); }

    private static BufferedImage jpeg(BufferedImage img, float quality) {
        try {
            javax.imageio.ImageWriter wr = javax.imageio.ImageIO.getImageWritersByFormatName("jpeg").next();
            javax.imageio.ImageWriteParam p = wr.getDefaultWriteParam();
            p.setCompressionMode(javax.imageio.ImageWriteParam.MODE_EXPLICIT);
            p.setCompressionQuality(quality);
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            try (javax.imageio.stream.ImageOutputStream ios = javax.imageio.ImageIO.createImageOutputStream(bytes)) {
                wr.setOutput(ios);
                wr.write(null, new javax.imageio.IIOImage(img, null, null), p);
            } finally {
                wr.dispose();
            }
            BufferedImage back = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(bytes.toByteArray()));
            BufferedImage rgb = new BufferedImage(back.getWidth(), back.getHeight(), BufferedImage.TYPE_INT_RGB);
            rgb.getGraphics().drawImage(back, 0, 0, null);
            return rgb;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Objects in distinct cells of a jittered 4×3 (or 3×4) grid, radius a third of the smaller cell side. */
    private List<Placed> layout(Raster r, List<String[]> specs) {
        if (hard) return hardLayout(r, specs);
        int cols = r.w >= r.h ? 4 : 3, rows = r.w >= r.h ? 3 : 4;
        List<Integer> cells = new ArrayList<>();
        for (int i = 0; i < cols * rows; i++) cells.add(i);
        Collections.shuffle(cells, rng);
        double cw = (double) r.w / cols, ch = (double) r.h / rows;
        List<Placed> out = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            int cell = cells.get(i);
            double rad = Math.min(cw, ch) * (0.26 + 0.08 * rng.nextDouble());
            double cx = (cell % cols + 0.5) * cw + (rng.nextDouble() - 0.5) * (cw - 2 * rad) * 0.6;
            double cy = (cell / cols + 0.5) * ch + (rng.nextDouble() - 0.5) * (ch - 2 * rad) * 0.6;
            Placed p = new Placed(specs.get(i)[0], specs.get(i)[1], cx, cy, rad, rng.nextDouble());
            r.fill(p.outline(), colour(p.colour()));
            out.add(p);
        }
        drawn = out;
        return out;
    }

    /**
     * The hard tier's layout: radius 12–18 px anywhere in the frame; each object after the first, with odds 1 in 3,
     * against an earlier one (centres 0.8 × the sum of the radii apart, so it covers an edge of it), otherwise clear
     * of every other by 4 px. Null when the objects do not fit (the item is drawn again).
     */
    private List<Placed> hardLayout(Raster r, List<String[]> specs) {
        List<Placed> out = new ArrayList<>();
        for (String[] spec : specs) {
            double rad = 12 + 6 * rng.nextDouble();
            Placed p = null;
            for (int t = 0; t < 300 && p == null; t++) {
                double cx, cy;
                Placed against = null;
                if (!out.isEmpty() && rng.nextInt(3) == 0) {
                    against = out.get(rng.nextInt(out.size()));
                    double a = 2 * Math.PI * rng.nextDouble(), d = 0.8 * (against.r() + rad);
                    cx = against.cx() + d * Math.cos(a);
                    cy = against.cy() + d * Math.sin(a);
                } else {
                    cx = rad + 6 + (r.w - 2 * rad - 12) * rng.nextDouble();
                    cy = rad + 6 + (r.h - 2 * rad - 12) * rng.nextDouble();
                }
                if (cx < rad + 4 || cy < rad + 4 || cx > r.w - rad - 4 || cy > r.h - rad - 4) continue;
                boolean clear = true;
                for (Placed q : out) if (q != against && Math.hypot(q.cx() - cx, q.cy() - cy) < q.r() + rad + 4) clear = false;
                if (clear) p = new Placed(spec[0], spec[1], cx, cy, rad, rng.nextDouble());
            }
            if (p == null) return null;
            out.add(p);
        }
        for (Placed p : out) r.fill(p.outline(), ink(colour(p.colour())));
        drawn = out;
        return out;
    }

    private String pick(List<String> l) { return l.get(rng.nextInt(l.size())); }

    private String other(List<String> l, String not) {
        String v;
        do v = pick(l); while (v.equals(not));
        return v;
    }

    /** Three different words one letter away from {@code word} (a vowel or a common consonant put in one place). */
    private List<String> misspellings(String word) {
        List<String> out = new ArrayList<>();
        while (out.size() < 3) {
            char[] cs = word.toCharArray();
            int i = rng.nextInt(cs.length);
            cs[i] = "aeiourstnlcm".charAt(rng.nextInt(12));
            String v = new String(cs);
            if (!v.equals(word) && !out.contains(v)) out.add(v);
        }
        return out;
    }

    private Item text(int index, Raster r) {
        String word = pick(WORDS);
        List<String> distractors = misspellings(word);
        String variant = List.of("sign", "label", "smallprint").get(rng.nextInt(3));
        Font serif = new Font(Font.SERIF, Font.BOLD, 44), sans = new Font(Font.SANS_SERIF, Font.PLAIN, 28);
        double cx = r.w * (0.35 + 0.3 * rng.nextDouble()), cy = r.h * (0.35 + 0.3 * rng.nextDouble());
        switch (variant) {
            case "sign" -> {
                String t = word.toUpperCase(java.util.Locale.ROOT);
                double tw = Raster.width(t, serif);
                double bw = tw + 50, bh = 80;
                if (bw > r.w - 20) return null;
                cx = Math.max(bw / 2 + 10, Math.min(r.w - bw / 2 - 10, cx));
                r.fill(new Rectangle2D.Double(cx - 4, cy, 8, r.h - cy), new Color(120, 90, 60));
                r.fill(new Rectangle2D.Double(cx - bw / 2 - 5, cy - bh / 2 - 5, bw + 10, bh + 10), new Color(60, 60, 60));
                r.fill(new Rectangle2D.Double(cx - bw / 2, cy - bh / 2, bw, bh), new Color(255, 236, 179));
                r.text(t, serif, new Color(30, 30, 30), cx, cy);
            }
            case "label" -> {
                String t = Character.toUpperCase(word.charAt(0)) + word.substring(1);
                double tw = Raster.width(t, sans);
                double bw = tw + 120, bh = 140;
                if (bw > r.w - 20) return null;
                cx = Math.max(bw / 2 + 10, Math.min(r.w - bw / 2 - 10, cx));
                cy = Math.max(bh / 2 + 10, Math.min(r.h - bh / 2 - 10, cy));
                r.fill(new Rectangle2D.Double(cx - bw / 2, cy - bh / 2, bw, bh), new Color(181, 136, 99));
                r.fill(new RoundRectangle2D.Double(cx - tw / 2 - 14, cy - 24, tw + 28, 48, 12, 12), Color.WHITE);
                r.text(t, sans, new Color(40, 40, 40), cx, cy);
            }
            default -> {
                String title = pick(List.of("WELCOME", "NOTICE", "EVENTS", "HOURS"));
                Font big = new Font(Font.SANS_SERIF, Font.BOLD, 40), small = new Font(Font.SERIF, Font.PLAIN, 15);
                double cw = Math.max(Raster.width(title, big), Raster.width(word, small)) + 60, chh = 150;
                if (cw > r.w - 20) return null;
                cx = Math.max(cw / 2 + 10, Math.min(r.w - cw / 2 - 10, cx));
                cy = Math.max(chh / 2 + 10, Math.min(r.h - chh / 2 - 10, cy));
                r.fill(new Rectangle2D.Double(cx - cw / 2 - 2, cy - chh / 2 - 2, cw + 4, chh + 4), new Color(150, 150, 150));
                r.fill(new Rectangle2D.Double(cx - cw / 2, cy - chh / 2, cw, chh), new Color(255, 255, 250));
                r.text(title, big, new Color(20, 20, 20), cx, cy - 25);
                r.text(word, small, new Color(60, 60, 60), cx, cy + 40);
            }
        }
        this.word = word;
        return new Item(index, r.image(), "text", variant, Map.of(), word, distractors);
    }

    private static final String[] FONT_FAMILIES = {Font.SERIF, Font.SANS_SERIF, Font.MONOSPACED, Font.DIALOG};

    private static Shape turned(Shape s, double theta, double cx, double cy) {
        return java.awt.geom.AffineTransform.getRotateInstance(theta, cx, cy).createTransformedShape(s);
    }

    /**
     * A hard text item: the word small (sign 13–16 px bold capitals, label 12–15 px, caption 10–11 px under a
     * 20 px title) in one of four font families, board and text turned together up to ±12° (captions ±5°), faint
     * grey ink on half; and a decoy, a wrong option in plain dark ink on the bare background clear of the board
     * (for a caption, in 18 px capitals so that it is not "the word in small letters").
     */
    private Item hardText(int index, Raster r) {
        String word = pick(WORDS);
        List<String> distractors = misspellings(word);
        String variant = List.of("sign", "label", "smallprint").get(rng.nextInt(3));
        String fam = FONT_FAMILIES[rng.nextInt(FONT_FAMILIES.length)];
        double theta = Math.toRadians((2 * rng.nextDouble() - 1) * (variant.equals("smallprint") ? 5 : 12));
        Color text = ink(rng.nextBoolean() ? new Color(125, 122, 118) : new Color(30, 30, 30));
        double cx = r.w * (0.3 + 0.4 * rng.nextDouble()), cy = r.h * (0.3 + 0.4 * rng.nextDouble());
        Rectangle2D keepOut;
        String decoyText = distractors.get(rng.nextInt(distractors.size()));
        Font decoyFont;
        switch (variant) {
            case "sign" -> {
                Font f = new Font(fam, Font.BOLD, 13 + rng.nextInt(4));
                String t = word.toUpperCase(java.util.Locale.ROOT);
                double bw = Raster.width(t, f) + 24, bh = 2.4 * f.getSize();
                Shape frame = turned(new Rectangle2D.Double(cx - bw / 2 - 3, cy - bh / 2 - 3, bw + 6, bh + 6), theta, cx, cy);
                Rectangle2D post = new Rectangle2D.Double(cx - 3, cy, 6, r.h - cy);
                r.fill(post, ink(new Color(120, 90, 60)));
                r.fill(frame, ink(new Color(60, 60, 60)));
                r.fill(turned(new Rectangle2D.Double(cx - bw / 2, cy - bh / 2, bw, bh), theta, cx, cy), ink(new Color(255, 236, 179)));
                r.text(t, f, text, cx, cy, theta);
                keepOut = frame.getBounds2D().createUnion(post);
                decoyText = decoyText.toUpperCase(java.util.Locale.ROOT);
                decoyFont = f;
            }
            case "label" -> {
                Font f = new Font(fam, Font.PLAIN, 12 + rng.nextInt(4));
                String t = Character.toUpperCase(word.charAt(0)) + word.substring(1);
                double tw = Raster.width(t, f), bw = tw + 60, bh = 4.5 * f.getSize();
                Shape box = turned(new Rectangle2D.Double(cx - bw / 2, cy - bh / 2, bw, bh), theta, cx, cy);
                r.fill(box, ink(new Color(181, 136, 99)));
                r.fill(turned(new RoundRectangle2D.Double(cx - tw / 2 - 8, cy - f.getSize(), tw + 16, 2 * f.getSize(), 8, 8), theta, cx, cy),
                        ink(Color.WHITE));
                r.text(t, f, text, cx, cy, theta);
                keepOut = box.getBounds2D();
                decoyText = Character.toUpperCase(decoyText.charAt(0)) + decoyText.substring(1);
                decoyFont = f;
            }
            default -> {
                String title = pick(List.of("WELCOME", "NOTICE", "EVENTS", "HOURS"));
                Font big = new Font(fam, Font.BOLD, 20), small = new Font(fam, Font.PLAIN, 10 + rng.nextInt(2));
                double cw = Math.max(Raster.width(title, big), Raster.width(word, small)) + 40, chh = 80;
                Shape card = turned(new Rectangle2D.Double(cx - cw / 2, cy - chh / 2, cw, chh), theta, cx, cy);
                r.fill(turned(new Rectangle2D.Double(cx - cw / 2 - 2, cy - chh / 2 - 2, cw + 4, chh + 4), theta, cx, cy), ink(new Color(150, 150, 150)));
                r.fill(card, ink(new Color(255, 255, 250)));
                double sin = Math.sin(theta), cos = Math.cos(theta);
                r.text(title, big, ink(new Color(20, 20, 20)), cx + 14 * sin, cy - 14 * cos, theta); // (0, -14) turned about the centre
                r.text(word, small, text, cx - 20 * sin, cy + 20 * cos, theta);
                keepOut = card.getBounds2D();
                decoyText = decoyText.toUpperCase(java.util.Locale.ROOT);
                decoyFont = new Font(fam, Font.BOLD, 18);
            }
        }
        double dw = Raster.width(decoyText, decoyFont), dh = Math.max(Raster.height(decoyText, decoyFont), decoyFont.getSize());
        if (dw + 20 > r.w) return null;
        Rectangle2D avoid = new Rectangle2D.Double(keepOut.getX() - 8, keepOut.getY() - 8, keepOut.getWidth() + 16, keepOut.getHeight() + 16);
        for (int t = 0; t < 200; t++) {
            double x = dw / 2 + 10 + (r.w - dw - 20) * rng.nextDouble(), y = dh / 2 + 10 + (r.h - dh - 20) * rng.nextDouble();
            if (avoid.intersects(x - dw / 2, y - dh / 2, dw, dh)) continue;
            r.text(decoyText, decoyFont, ink(new Color(40, 40, 40)), x, y);
            this.word = word;
            this.decoy = decoyText.toLowerCase(java.util.Locale.ROOT);
            return new Item(index, r.image(), "text", variant, Map.of(), word, distractors);
        }
        return null;
    }

    /**
     * A hard chart: 5–7 bars whose values are n of n + 1 neighbouring multiples of 5 (so the tallest, the shortest and
     * any pair differ by 5 or more), ticks and faint grid lines every 10, 10 px tick and bar labels; value questions
     * with distractors 5 and 10 away.
     */
    private Item hardChart(int index, Raster r) {
        int n = 5 + rng.nextInt(3);
        List<String> labels = new ArrayList<>(BAR_LABELS);
        Collections.shuffle(labels, rng);
        labels = new ArrayList<>(labels.subList(0, n));
        int start = 5 * (2 + rng.nextInt(18 - n));
        List<Integer> pool = new ArrayList<>();
        for (int j = 0; j <= n; j++) pool.add(start + 5 * j);
        Collections.shuffle(pool, rng);
        List<Integer> values = new ArrayList<>(pool.subList(0, n));
        double left = 50, right = r.w - 20, top = 30, base = r.h - 40;
        Color axis = ink(new Color(70, 70, 70));
        Font tick = new Font(Font.SANS_SERIF, Font.PLAIN, 10), lab = new Font(Font.SERIF, Font.PLAIN, 10);
        for (int t = 0; t <= 100; t += 10) {
            double y = base - (base - top) * t / 100.0;
            if (t > 0) r.fill(new Rectangle2D.Double(left, y - 0.5, right - left, 1), ink(new Color(228, 228, 228)));
            String s = String.valueOf(t);
            r.text(s, tick, axis, left - 10 - Raster.width(s, tick) / 2, y);
        }
        double slot = (right - left) / n;
        String one = pick(COLOURS.subList(0, 6));
        for (int i = 0; i < n; i++) {
            double x = left + slot * i + slot * 0.2, bw = slot * 0.6, y = base - (base - top) * values.get(i) / 100.0;
            r.fill(new Rectangle2D.Double(x, y, bw, base - y), ink(colour(rng.nextBoolean() ? one : COLOURS.get(i % 6))));
            if (Raster.width(labels.get(i), lab) > slot - 4) return null;
            r.text(labels.get(i), lab, ink(new Color(30, 30, 30)), x + bw / 2, base + 14);
        }
        r.fill(new Rectangle2D.Double(left - 2, top - 5, 2, base - top + 7), axis);
        r.fill(new Rectangle2D.Double(left - 2, base, right - left + 2, 2), axis);
        bars = barsOf(labels, values);
        return chartQuestion(index, r, labels, values, 5);
    }

    private Item count(int index, Raster r) {
        int variant = rng.nextInt(3), k = hard ? 2 + rng.nextInt(8) : 1 + rng.nextInt(5); // hard: 2–9, tighter
        List<String[]> specs = new ArrayList<>();
        Map<String, String> values = new LinkedHashMap<>();
        String v;
        if (variant == 0) {
            String s = pick(SHAPES);
            values.put("shape", s);
            for (int i = 0; i < k; i++) specs.add(new String[]{s, pick(COLOURS)});
            for (int i = hard ? 2 + rng.nextInt(5) : rng.nextInt(4); i > 0; i--) specs.add(new String[]{other(SHAPES, s), pick(COLOURS)});
            v = "shape";
        } else if (variant == 1) {
            String c = pick(COLOURS);
            values.put("color", c);
            for (int i = 0; i < k; i++) specs.add(new String[]{pick(SHAPES), c});
            for (int i = hard ? 2 + rng.nextInt(5) : rng.nextInt(4); i > 0; i--) specs.add(new String[]{pick(SHAPES), other(COLOURS, c)});
            v = "color";
        } else {
            k = hard ? 5 + rng.nextInt(8) : 2 + rng.nextInt(6);
            for (int i = 0; i < k; i++) specs.add(new String[]{pick(SHAPES), pick(COLOURS)});
            v = "all";
        }
        Collections.shuffle(specs, rng);
        if (layout(r, specs) == null) return null;
        List<String> d = new ArrayList<>();
        for (int x : new int[]{k - 1, k + 1, k + 2, k - 2}) if (x >= 0 && d.size() < 3) d.add(String.valueOf(x));
        return new Item(index, r.image(), "count", v, values, String.valueOf(k), d);
    }

    private Item colourItem(int index, Raster r) {
        String s = pick(SHAPES), c = pick(COLOURS);
        List<String[]> specs = new ArrayList<>();
        specs.add(new String[]{s, c});
        for (int i = hard ? 4 + rng.nextInt(5) : 1 + rng.nextInt(3); i > 0; i--) specs.add(new String[]{other(SHAPES, s), pick(COLOURS)});
        if (layout(r, specs) == null) return null;
        List<String> d = new ArrayList<>(COLOURS);
        d.remove(c);
        Collections.shuffle(d, rng);
        return new Item(index, r.image(), "color", "shape", Map.of("shape", s), c, d.subList(0, 3));
    }

    private Item shapeItem(int index, Raster r) {
        String s = pick(SHAPES), c = pick(COLOURS);
        List<String[]> specs = new ArrayList<>();
        specs.add(new String[]{s, c});
        for (int i = hard ? 4 + rng.nextInt(5) : 1 + rng.nextInt(3); i > 0; i--) specs.add(new String[]{pick(SHAPES), other(COLOURS, c)});
        if (layout(r, specs) == null) return null;
        List<String> d = new ArrayList<>(SHAPES);
        d.remove(s);
        Collections.shuffle(d, rng);
        return new Item(index, r.image(), "shape", "color", Map.of("color", c), s, d.subList(0, 3));
    }

    private Item spatial(int index, Raster r) {
        List<String[]> specs = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        int n = hard ? 5 + rng.nextInt(4) : 3 + rng.nextInt(3);
        while (specs.size() < n) {
            String s = pick(SHAPES), c = pick(COLOURS);
            if (seen.add(c + " " + s)) specs.add(new String[]{s, c});
        }
        List<Placed> objs = layout(r, specs);
        if (objs == null) return null;
        Placed ref = objs.get(rng.nextInt(objs.size()));
        List<Placed> others = new ArrayList<>(objs);
        others.remove(ref);
        String variant = List.of("left_of", "above", "nearest", "left_or_right", "above_or_below").get(rng.nextInt(5));
        Map<String, String> values = new LinkedHashMap<>();
        values.put("obj", ref.name());
        switch (variant) {
            case "left_of", "above" -> {
                boolean hz = variant.equals("left_of");
                List<Placed> yes = new ArrayList<>(), no = new ArrayList<>();
                for (Placed o : others) {
                    double delta = hz ? ref.cx() - o.cx() : ref.cy() - o.cy();
                    if (delta > ref.r() + o.r()) yes.add(o);
                    else if (delta < -(ref.r() + o.r())) no.add(o);
                }
                if (yes.size() != 1 || no.isEmpty()) return null;
                return new Item(index, r.image(), "spatial", variant, values, yes.get(0).name(),
                        no.subList(0, Math.min(3, no.size())).stream().map(Placed::name).toList());
            }
            case "nearest" -> {
                others.sort(java.util.Comparator.comparingDouble(o -> Math.hypot(o.cx() - ref.cx(), o.cy() - ref.cy())));
                if (others.size() < 2 || Math.hypot(others.get(1).cx() - ref.cx(), others.get(1).cy() - ref.cy())
                        < 1.4 * Math.hypot(others.get(0).cx() - ref.cx(), others.get(0).cy() - ref.cy())) return null;
                return new Item(index, r.image(), "spatial", variant, values, others.get(0).name(),
                        others.subList(1, Math.min(4, others.size())).stream().map(Placed::name).toList());
            }
            default -> {
                boolean hz = variant.equals("left_or_right");
                Placed o = others.get(rng.nextInt(others.size()));
                double delta = hz ? ref.cx() - o.cx() : ref.cy() - o.cy();
                if (Math.abs(delta) < ref.r() + o.r()) return null;
                values.put("obj2", o.name());
                String correct = hz ? (delta < 0 ? "left" : "right") : (delta < 0 ? "above" : "below");
                String wrong = hz ? (delta < 0 ? "right" : "left") : (delta < 0 ? "below" : "above");
                return new Item(index, r.image(), "spatial", variant, values, correct, List.of(wrong));
            }
        }
    }

    private Item chart(int index, Raster r) {
        int n = 3 + rng.nextInt(3);
        List<String> labels = new ArrayList<>(BAR_LABELS);
        Collections.shuffle(labels, rng);
        labels = new ArrayList<>(labels.subList(0, n));
        List<Integer> pool = new ArrayList<>();
        for (int v = 10; v <= 90; v += 10) pool.add(v);
        Collections.shuffle(pool, rng);
        List<Integer> values = pool.subList(0, n);
        double left = 70, right = r.w - 30, top = 40, base = r.h - 60;
        Color axis = new Color(70, 70, 70);
        Font tick = new Font(Font.SANS_SERIF, Font.PLAIN, 14), lab = new Font(Font.SERIF, Font.PLAIN, 16);
        for (int t = 0; t <= 100; t += 20) {
            double y = base - (base - top) * t / 100.0;
            if (t > 0) r.fill(new Rectangle2D.Double(left, y - 0.5, right - left, 1), new Color(225, 225, 225));
            String s = String.valueOf(t);
            r.text(s, tick, axis, left - 14 - Raster.width(s, tick) / 2, y);
        }
        double slot = (right - left) / n;
        String one = pick(COLOURS.subList(0, 6));
        for (int i = 0; i < n; i++) {
            double x = left + slot * i + slot * 0.2, bw = slot * 0.6, y = base - (base - top) * values.get(i) / 100.0;
            r.fill(new Rectangle2D.Double(x, y, bw, base - y), colour(rng.nextBoolean() ? one : COLOURS.get(i % 6)));
            if (Raster.width(labels.get(i), lab) > slot - 4) return null;
            r.text(labels.get(i), lab, new Color(30, 30, 30), x + bw / 2, base + 22);
        }
        r.fill(new Rectangle2D.Double(left - 2, top - 5, 2, base - top + 7), axis);
        r.fill(new Rectangle2D.Double(left - 2, base, right - left + 2, 2), axis);
        bars = barsOf(labels, values);
        return chartQuestion(index, r, labels, values, 10);
    }

    private static List<Bar> barsOf(List<String> labels, List<Integer> values) {
        List<Bar> out = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) out.add(new Bar(labels.get(i), values.get(i)));
        return out;
    }

    /** The question on a drawn chart; value distractors {@code step} and twice it away from the value. */
    private Item chartQuestion(int index, Raster r, List<String> labels, List<Integer> values, int step) {
        int n = labels.size();
        String variant = List.of("tallest", "shortest", "value", "larger").get(rng.nextInt(4));
        Map<String, String> vals = new LinkedHashMap<>();
        int best = 0, worst = 0;
        for (int i = 1; i < n; i++) {
            if (values.get(i) > values.get(best)) best = i;
            if (values.get(i) < values.get(worst)) worst = i;
        }
        switch (variant) {
            case "tallest", "shortest" -> {
                int k = variant.equals("tallest") ? best : worst;
                List<String> d = new ArrayList<>(labels);
                d.remove(k);
                return new Item(index, r.image(), "chart", variant, vals, labels.get(k), d.subList(0, Math.min(3, d.size())));
            }
            case "value" -> {
                int k = rng.nextInt(n);
                vals.put("label", labels.get(k));
                int v = values.get(k);
                List<String> d = new ArrayList<>();
                for (int x : new int[]{v + step, v - step, v + 2 * step, v - 2 * step}) if (x >= 0 && d.size() < 3) d.add(String.valueOf(x));
                return new Item(index, r.image(), "chart", variant, vals, String.valueOf(v), d);
            }
            default -> {
                int a = rng.nextInt(n), b;
                do b = rng.nextInt(n); while (b == a);
                vals.put("label1", labels.get(a));
                vals.put("label2", labels.get(b));
                String larger = values.get(a) > values.get(b) ? labels.get(a) : labels.get(b);
                String smaller = larger.equals(labels.get(a)) ? labels.get(b) : labels.get(a);
                return new Item(index, r.image(), "chart", variant, vals, larger, List.of(smaller));
            }
        }
    }

    /**
     * Item {@code it} as a question: a held-out phrasing drawn for it, options rewritten as in the paraphrase set
     * (the correct value last before the rewrite, which shuffles them).
     */
    static KeyedItem question(Item it, Rephrasings set, long seed) {
        Random rng = new Random(seed * 7919 + it.index());
        List<Rephrasings.Phrasing> ps = set.phrasings().stream()
                .filter(p -> p.family().equals(it.family()) && p.variant().equals(it.variant())).toList();
        String text = Rephrasings.fill(ps.get(rng.nextInt(ps.size())).text(), it.values());
        Map<String, String> opts = new LinkedHashMap<>();
        List<String> values = new ArrayList<>(it.distractors());
        values.add(it.correct());
        for (int i = 0; i < values.size(); i++) opts.put(String.valueOf((char) ('A' + i)), values.get(i));
        String answer = String.valueOf((char) ('A' + values.size() - 1));
        dev.gamagent.image.Picture pic = new dev.gamagent.image.Picture("heldout-" + it.index(), it.image());
        return Rephrasings.rewriteOptions(
                new KeyedItem(new dev.gamagent.api.Question(String.valueOf(it.index()), List.of(pic), text, null, opts), answer),
                it.family(), rng);
    }

    /**
     * Writes {@code n} items of this renderer with their held-out questions as a benchmark file that {@code gam eval}
     * reads (the bench writer's format by extension: .tsv, .json or .jsonl), each row's difficulty its tier.
     * {@code hardFraction} null: the easy items of {@link #generate(int)}; otherwise the tiered set of
     * {@link #generate(int, double)}.
     */
    static void writeBenchmark(int n, long seed, Double hardFraction, java.nio.file.Path out) throws java.io.IOException {
        Rephrasings set = Rephrasings.load("/heldout/phrasings.tsv");
        HeldOutScenes scenes = new HeldOutScenes(seed);
        try (dev.gamagent.bench.BenchmarkWriter.Stream w = dev.gamagent.bench.BenchmarkWriter.open(out)) {
            if (hardFraction == null) {
                for (Item it : scenes.generate(n)) w.add(benchItem(it, set, seed));
                return;
            }
            for (int i = 0; i < n; i++) {
                w.add(benchItem(scenes.itemAt(i, hardFraction), set, seed));
                if ((i + 1) % 50 == 0) System.err.println("HeldOutScenes: " + (i + 1) + "/" + n + " items written");
            }
        }
    }

    static dev.gamagent.bench.BenchItem benchItem(Item it, Rephrasings set, long seed) {
        KeyedItem q = question(it, set, seed);
        return new dev.gamagent.bench.BenchItem(it.index(), it.image(), q.text(), null, q.options(), q.groundTruth(),
                dev.gamagent.bench.Family.parse(it.family()), it.tier(), null);
    }

    /**
     * The held-out check: {@code single} accuracy of the local model on {@code n} easy items of this renderer,
     * asked with the held-out phrasings and options rewritten as in the paraphrase set. Run once, at the end
     * of the work it checks (never while tuning). Usage: {@code HeldOutScenes [n] [seed]};
     * {@code HeldOutScenes write N SEED OUT.tsv [HARD_FRACTION]} writes the items as a benchmark file for
     * {@code gam eval} instead (without HARD_FRACTION the easy items of the first measurements; with it the
     * tiered set, e.g. 0.5 as the main testbed).
     */
    public static void main(String[] args) throws Exception {
        if ((args.length == 4 || args.length == 5) && args[0].equals("write")) {
            Double hard = args.length == 5 ? Double.valueOf(args[4]) : null;
            if (hard != null && !(hard >= 0 && hard <= 1)) throw new IllegalArgumentException("HARD_FRACTION " + args[4] + " is not in [0, 1]");
            writeBenchmark(Integer.parseInt(args[1]), Long.parseLong(args[2]), hard, java.nio.file.Path.of(args[3]));
            return;
        }
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 120;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        Rephrasings set = Rephrasings.load("/heldout/phrasings.tsv");
        List<Item> items = new HeldOutScenes(seed).generate(n);
        if (args.length > 2) {
            java.nio.file.Path dir = java.nio.file.Path.of(args[2]);
            java.nio.file.Files.createDirectories(dir);
            for (Item it : items) javax.imageio.ImageIO.write(it.image(), "png", dir.resolve(it.index() + ".png").toFile());
            if (args.length > 3 && args[3].equals("images-only")) return;
        }
        dev.gamagent.engine.Prompts prompts = new dev.gamagent.engine.Prompts(dev.gamagent.config.Config.defaults());
        Map<String, int[]> per = new java.util.TreeMap<>();
        int right = 0;
        try (LocalBackend backend = LocalBackend.create(dev.gamagent.config.Config.defaults())) {
            for (Item it : items) {
                KeyedItem q = question(it, set, seed);
                dev.gamagent.image.Picture pic = q.images().get(0);
                String prompt = prompts.render("single_mc", Map.of("question", q.render()));
                var reply = backend.chat(dev.gamagent.backend.ChatRequest.of(List.of(dev.gamagent.backend.ChatMessage.user(prompt, List.of(pic)))));
                boolean ok = q.groundTruth().equals(dev.gamagent.engine.AnswerExtractor.option(reply.text(), q.options()));
                int[] a = per.computeIfAbsent(it.family(), k -> new int[2]);
                a[1]++;
                if (ok) { a[0]++; right++; }
                if (!ok) System.out.println("wrong: item " + it.index() + " " + q.render().replace('\n', ' ') + " -> " + reply.text() + " (want " + q.groundTruth() + ")");
            }
        }
        System.out.printf(java.util.Locale.ROOT, "held-out renderer, easy, seed %d: single %.3f (%d/%d)%n", seed, (double) right / n, right, n);
        per.forEach((k, v) -> System.out.printf(java.util.Locale.ROOT, "  %s %d/%d%n", k, v[0], v[1]));
    }
}
