package dev.gamagent.local;

import dev.gamagent.image.Picture;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.Polygon;
import java.awt.image.BufferedImage;

/** Draws test scenes: flat-coloured shapes on white, no anti-aliasing. */
final class Drawing {
    static final Color RED = new Color(220, 30, 30), BLUE = new Color(30, 70, 220), GREEN = new Color(30, 160, 50),
            YELLOW = new Color(240, 220, 30);

    private final BufferedImage img;
    private final Graphics2D g;

    Drawing(int w, int h) {
        img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
    }

    Drawing circle(Color c, int cx, int cy, int r) { g.setColor(c); g.fillOval(cx - r, cy - r, 2 * r, 2 * r); return this; }

    Drawing square(Color c, int cx, int cy, int r) { g.setColor(c); g.fillRect(cx - r, cy - r, 2 * r, 2 * r); return this; }

    Drawing triangle(Color c, int cx, int cy, int r) {
        g.setColor(c);
        g.fillPolygon(new int[]{cx - r, cx + r, cx}, new int[]{cy + r, cy + r, cy - r}, 3);
        return this;
    }

    Drawing star(Color c, int cx, int cy, int r) {
        Polygon p = new Polygon();
        for (int i = 0; i < 10; i++) {
            double a = -Math.PI / 2 + i * Math.PI / 5, rr = i % 2 == 0 ? r : r * 0.5;
            p.addPoint((int) Math.round(cx + rr * Math.cos(a)), (int) Math.round(cy + rr * Math.sin(a)));
        }
        g.setColor(c);
        g.fillPolygon(p);
        return this;
    }

    Picture picture(String name) {
        g.dispose();
        return new Picture(name, img);
    }
}
