package dev.gamagent.baseline;

import dev.gamagent.image.Picture;
import dev.gamagent.image.Region;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The visual evidence of a "debate with images" turn (Fang et al., 2025): the regions a debater marked in
 * its reply ({@code REGION: x0,y0,x1,y1} on its CLAIM lines, docs/CONTRACTS.md §1), and the picture with
 * those regions drawn on it, which the later speakers and the judge are shown.
 */
final class VisualEvidence {
    /** One marked region and its short label. */
    record Mark(String label, Region region) { }

    static final int MAX_MARKS = 8;
    private static final Pattern REGION = Pattern.compile("(?i)region\\s*[:=]\\s*\\[?\\s*(-?[0-9.]+)\\s*,\\s*(-?[0-9.]+)\\s*,\\s*(-?[0-9.]+)\\s*,\\s*(-?[0-9.]+)");
    private static final Pattern CLAIM = Pattern.compile("(?i)^[\\s*#>-]*claim\\s*\\d*\\s*(?:\\[[^\\]]*])?\\s*[:：]\\s*([^|]*)");
    private static final Pattern EVIDENCE = Pattern.compile("(?i)\\|\\s*evidence\\s*[:=]\\s*([^|]*)");
    private static final List<Color> PALETTE = List.of(new Color(255, 0, 255), new Color(0, 200, 255), new Color(255, 140, 0),
            new Color(120, 60, 255), new Color(0, 160, 80), new Color(255, 60, 60));

    private VisualEvidence() { }

    /**
     * The regions marked in {@code reply}, at most {@link #MAX_MARKS}. Coordinates above 1 are read as pixels
     * of the picture the speaker saw ({@code width}×{@code height}); empty regions are dropped.
     */
    static List<Mark> read(String reply, int width, int height) {
        List<Mark> out = new ArrayList<>();
        if (reply == null) return out;
        for (String line : reply.split("\\R")) {
            Matcher r = REGION.matcher(line);
            if (!r.find()) continue;
            double[] v = new double[4];
            try {
                for (int i = 0; i < 4; i++) v[i] = Double.parseDouble(r.group(i + 1));
            } catch (NumberFormatException e) {
                continue;
            }
            if (v[0] > 1 || v[1] > 1 || v[2] > 1 || v[3] > 1) {
                v[0] /= width;
                v[2] /= width;
                v[1] /= height;
                v[3] /= height;
            }
            Region region = new Region(v[0], v[1], v[2], v[3]);
            if (region.isEmpty()) continue;
            out.add(new Mark(label(line), region));
            if (out.size() == MAX_MARKS) break;
        }
        return out;
    }

    /** The label of a marked line: its EVIDENCE field, else the claim's text, else "evidence". */
    private static String label(String line) {
        Matcher e = EVIDENCE.matcher(line);
        String s = e.find() ? e.group(1) : null;
        if (s == null || s.isBlank()) {
            Matcher c = CLAIM.matcher(line);
            s = c.find() ? c.group(1) : null;
        }
        s = s == null ? "" : s.strip();
        if (s.isEmpty()) return "evidence";
        return s.length() <= 40 ? s : s.substring(0, 40).strip() + "…";
    }

    /** A copy of {@code base} with every mark outlined and labelled. */
    static Picture draw(Picture base, List<Mark> marks, String name) {
        BufferedImage src = base.image();
        BufferedImage out = new BufferedImage(src.getWidth(), src.getHeight(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        try {
            g.drawImage(src, 0, 0, null);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            int w = out.getWidth(), h = out.getHeight();
            float stroke = Math.max(2f, Math.min(w, h) / 150f);
            g.setStroke(new BasicStroke(stroke));
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, Math.max(10, Math.min(w, h) / 25)));
            for (int i = 0; i < marks.size(); i++) {
                Region r = marks.get(i).region();
                int x0 = (int) Math.round(r.x0() * (w - 1)), y0 = (int) Math.round(r.y0() * (h - 1));
                int x1 = (int) Math.round(r.x1() * (w - 1)), y1 = (int) Math.round(r.y1() * (h - 1));
                g.setColor(PALETTE.get(i % PALETTE.size()));
                g.drawRect(x0, y0, Math.max(1, x1 - x0), Math.max(1, y1 - y0));
                int ascent = g.getFontMetrics().getAscent();
                int ty = y0 - 3 >= ascent ? y0 - 3 : Math.min(h - 2, y0 + ascent + 2);
                g.drawString((i + 1) + " " + marks.get(i).label(), x0 + 2, ty);
            }
        } finally {
            g.dispose();
        }
        return new Picture(name, out);
    }
}
