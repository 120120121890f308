package dev.gamagent.eval.load;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Base64;
import javax.imageio.ImageIO;

/** Small images written by tests. */
public final class TestImages {
    private TestImages() { }
public 
    static byte[] png(int w, int h, Color c) {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setColor(c);
        g.fillRect(0, 0, w, h);
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(img, "png", out);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }
public 
    static String base64(int w, int h, Color c) { return Base64.getEncoder().encodeToString(png(w, h, c)); }

    static Path write(Path file, int w, int h, Color c) throws IOException {
        java.nio.file.Files.createDirectories(file.getParent());
        return java.nio.file.Files.write(file, png(w, h, c));
    }
}
