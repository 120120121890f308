import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;

/**
 * Draws examples/red-triangle.png, the README's example image: a red triangle and a blue square on white.
 * Run once from the repository root: {@code java examples/MakeRedTriangle.java}.
 */
public class MakeRedTriangle {
    public static void main(String[] args) throws Exception {
        BufferedImage img = new BufferedImage(320, 200, BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, 320, 200);
        g.setColor(new Color(220, 30, 30));
        g.fillPolygon(new int[]{40, 140, 90}, new int[]{160, 160, 50}, 3);
        g.setColor(new Color(30, 60, 200));
        g.fillRect(190, 70, 90, 90);
        g.dispose();
        File out = new File(args.length > 0 ? args[0] : "examples/red-triangle.png");
        ImageIO.write(img, "png", out);
        System.out.println("wrote " + out + " (" + out.length() + " bytes)");
    }
}
