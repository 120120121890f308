package dev.gamagent.testing;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;

/** The end-to-end tests' picture: a red triangle on white, {@link #WIDTH}×{@link #HEIGHT}. */
public final class TriangleImage {
    public static final int WIDTH = 96, HEIGHT = 64;

    private TriangleImage() { }

    public static BufferedImage draw() {
        BufferedImage img = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        g.setColor(Color.RED);
        g.fillPolygon(new int[] {20, 76, 48}, new int[] {56, 56, 8}, 3);
        g.dispose();
        return img;
    }
}
