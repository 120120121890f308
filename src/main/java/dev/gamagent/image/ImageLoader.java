package dev.gamagent.image;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Loads images from files with errors that name the file and say what is wrong. */
public final class ImageLoader {
    private ImageLoader() { }

    public static Picture load(Path file) {
        if (!Files.exists(file)) throw new ImageException(file + ": no such file");
        try {
            BufferedImage img = ImageIO.read(file.toFile());
            if (img == null) throw new ImageException(file + ": not an image in a supported format");
            return new Picture(file.getFileName().toString(), img);
        } catch (IOException e) {
            throw new ImageException(file + ": cannot be decoded (" + e.getMessage() + ")");
        }
    }
}
