package dev.gamagent.image.internal;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.List;
import dev.gamagent.image.Picture;

/**
 * A question's images side by side in equal tiles, in order (a video's frames in time order): what the report and
 * {@code gam serve} keep for the trace viewer, which shows tile k as frame k with the claims on that frame. Each tile
 * has the first image's aspect ratio; an image of another shape is stretched into its tile, as the viewer stretches
 * it back (claim regions are fractions of their image, so they stay on the same pixels).
 */
public final class FrameStrip {
    /** The strip is at most this wide: 8 frames get tiles of {@value #MAX_TILE} px, 64 frames of 64 px. */
    public static final int MAX_WIDTH = 4096;
    public static final int MAX_TILE = 420;
    public static final int MIN_TILE = 48;

    private FrameStrip() { }

    /** The tile width for {@code n} images: {@link #MAX_TILE} while the strip fits in {@link #MAX_WIDTH}, never below {@link #MIN_TILE}. */
    public static int tileWidth(int n) { return Math.max(MIN_TILE, Math.min(MAX_TILE, MAX_WIDTH / Math.max(1, n))); }

    /** The strip of {@code images} (two or more; every image is decoded), tiles {@link #tileWidth} wide. */
    public static BufferedImage of(List<Picture> images) {
        if (images.size() < 2) throw new IllegalArgumentException("a frame strip needs two or more images, got " + images.size());
        Picture first = images.get(0);
        int w = tileWidth(images.size());
        int h = Math.max(1, (int) Math.round(w * (double) first.height() / Math.max(1, first.width())));
        // 3-byte BGR: the JPEG writer encodes its raster directly
        BufferedImage out = new BufferedImage(w * images.size(), h, BufferedImage.TYPE_3BYTE_BGR);
        Graphics2D g = out.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        for (int i = 0; i < images.size(); i++) g.drawImage(images.get(i).image(), i * w, 0, w, h, Color.WHITE, null);
        g.dispose();
        return out;
    }
}
