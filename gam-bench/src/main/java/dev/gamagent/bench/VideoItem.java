package dev.gamagent.bench;

import dev.gamagent.api.Question;
import dev.gamagent.image.internal.FrameSelection;
import dev.gamagent.image.Picture;

import java.awt.Color;
import java.awt.geom.Ellipse2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One generated video question: what it asks, options A.. (exactly one correct), the answer letter, a
 * difficulty tag, the exact ground truth of the clip and the style its frames are drawn in. Frames are drawn
 * on demand ({@link #frame}), one at a time, so an item holds no pixels: a writer can stream a clip to disk
 * and a test can draw only the frames a model would be shown.
 */
public record VideoItem(int index, VideoPhrasings.Kind kind, String question, String hint, Map<String, String> options,
                        String answer, String difficulty, double noiseFraction, long noiseSeed, VideoTruth truth,
                        RenderStyle render) {
    /** The family's category and l2-category in benchmark files. */
    public static final String CATEGORY = "video";
    public static final String L2_CATEGORY = "temporal";
    /** A lamp's inner disc when it is off. */
    static final Color LAMP_OFF = new Color(52, 52, 56);

    public VideoItem {
        options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
        if (!options.containsKey(answer)) {
            throw new IllegalArgumentException("video item " + index + ": answer " + answer + " is not one of the options " + options.keySet());
        }
        hint = hint == null ? "" : hint;
        render = render == null ? RenderStyle.CLASSIC : render;
    }

    /** The value of the correct option, e.g. {@code "left"} or {@code "3"}. */
    public String answerText() { return options.get(answer); }

    public int frames() { return truth.frames(); }

    /** Frame {@code f} (0-based), drawn now in the item's style: the objects visible in its step, speckle noise, JPEG when the style says so. */
    public BufferedImage frame(int f) {
        if (f < 0 || f >= frames()) throw new IllegalArgumentException("frame " + f + " of a " + frames() + "-frame clip");
        Canvas c = new Canvas(truth.width(), truth.height(), new Color(truth.background()), render);
        int step = truth.step(f);
        for (VideoTruth.Track t : truth.tracks()) {
            if (!t.visibleAt(step)) continue;
            double x = t.x(f, frames()), y = t.y(f, frames()), r = t.radius();
            Color col = new Color(t.rgb());
            if (t.light()) {
                c.fill(new Ellipse2D.Double(x - r, y - r, 2 * r, 2 * r), col);
                double inner = 0.7 * r;
                c.fill(new Ellipse2D.Double(x - inner, y - inner, 2 * inner, 2 * inner), t.litAt(step) ? brighter(col) : LAMP_OFF);
            } else {
                c.paint(Canvas.outline(t.shape(), x, y, r, t.rotation()), col, r);
            }
        }
        c.speckle(noiseFraction, new Random(noiseSeed * 0x9E3779B97F4A7C15L + f));
        return c.finish();
    }

    /** A lit lamp glows: its colour a quarter of the way to white. */
    static Color brighter(Color c) {
        return new Color(c.getRed() + (255 - c.getRed()) / 4, c.getGreen() + (255 - c.getGreen()) / 4, c.getBlue() + (255 - c.getBlue()) / 4);
    }

    /** The frames {@code selection} picks (as a video of {@link VideoTruth#fps()}), each drawn now and named {@code gam-video-<index>#frame-<f>}. */
    public List<Picture> pictures(FrameSelection selection) {
        List<Picture> out = new ArrayList<>();
        for (int f : selection.indices(0, frames() - 1, truth.fps())) out.add(new Picture("gam-video-" + index + "#frame-" + f, frame(f)));
        return out;
    }

    /** The item as a project question shown {@code n} frames sampled uniformly (VLMEvalKit's rule, as a decoded clip gives them). */
    public Question toQuestion(int n) {
        return new Question(String.valueOf(index), pictures(FrameSelection.uniform(n)), question, hint.isEmpty() ? null : hint,
                options);
    }
}
