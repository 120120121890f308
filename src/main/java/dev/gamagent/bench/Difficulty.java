package dev.gamagent.bench;

import java.util.Random;

/**
 * How hard one generated image is: object size, clutter, speckle noise, contrast, rotation and text size.
 * {@code tag} is written to the benchmark files (easy, medium, hard).
 *
 * @param minRadius       smallest shape circumradius in pixels
 * @param maxRadius       largest shape circumradius in pixels
 * @param clutter         most distractor objects added to a scene
 * @param maxCount        largest count asked about
 * @param noiseFraction   fraction of pixels perturbed by speckle noise
 * @param contrastBlend   how far object colours are blended towards the background (0 = full contrast)
 * @param maxRotationDeg  largest shape rotation in degrees
 * @param textRotationDeg largest text rotation in degrees (signs)
 * @param signPx          font size of sign text, in pixels at base resolution
 * @param labelPx         font size of label text
 * @param smallPrintPx    font size of small print (9–12 px: unreadable at 0.5× scale)
 */
public record Difficulty(String tag, int minRadius, int maxRadius, int clutter, int maxCount, double noiseFraction,
                         double contrastBlend, double maxRotationDeg, double textRotationDeg,
                         int signPx, int labelPx, int smallPrintPx) {

    /** Draws a difficulty level (40 % easy, 35 % medium, 25 % hard) and its random parameters. */
    static Difficulty draw(Random rng) {
        double u = rng.nextDouble();
        if (u < 0.40) {
            return new Difficulty("easy", 26, 46, 3, 5, 0.0, 0.0, 0.0, 0.0,
                    40 + rng.nextInt(17), 24 + rng.nextInt(7), 12);
        }
        if (u < 0.75) {
            return new Difficulty("medium", 17, 34, 5, 7, 0.01, 0.0, 45.0, 0.0,
                    26 + rng.nextInt(15), 18 + rng.nextInt(7), 10 + rng.nextInt(2));
        }
        boolean lowContrast = rng.nextBoolean();
        return new Difficulty("hard", 11, 22, 8, 9, 0.03, lowContrast ? 0.35 : 0.0, 180.0, 7.0,
                16 + rng.nextInt(9), 14 + rng.nextInt(5), 9);
    }

    public boolean lowContrast() { return contrastBlend > 0; }
}
