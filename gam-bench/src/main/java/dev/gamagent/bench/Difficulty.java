package dev.gamagent.bench;

import java.util.Random;

/**
 * How hard one generated image is: object size, clutter, speckle noise, contrast, rotation and text size.
 * {@code tag} is written to the benchmark files (easy, medium, hard). Hard items stay exact and fair for a
 * person looking at the full-resolution image, but are built to defeat pixel statistics: text with a cap
 * height of 6–8 px (lost at 0.5×, marginal at 1×), faint ink, touching same-coloured objects,
 * distractor words next to the target and bars that differ by one grid unit.
 *
 * @param minRadius       smallest shape circumradius in pixels
 * @param maxRadius       largest shape circumradius in pixels
 * @param clutter         most distractor objects added to a scene
 * @param maxCount        largest count asked about
 * @param noiseFraction   fraction of pixels perturbed by speckle noise
 * @param contrastBlend   how far object colours are blended towards the background (0 = full contrast)
 * @param maxRotationDeg  largest shape rotation in degrees
 * @param textRotationDeg largest text rotation in degrees (signs, labels)
 * @param signPx          font size of sign text, in pixels at base resolution
 * @param labelPx         font size of label text
 * @param smallPrintPx    font size of small print (≤ 12 px: unreadable at 0.5× scale)
 * @param chartTextPx     font size of bar labels and tick labels
 * @param touching        how close two shapes may be: centres at least (1 − touching)·(r1 + r2) apart
 *                        (0 = an 8 px gap between circumcircles; above 0 shapes touch, so blobs of one colour merge)
 * @param decoyText       whether a similar word (one of the wrong options) is written next to the target text
 * @param closeBars       whether bar values are packed close together (neighbouring multiples of 5)
 */
public record Difficulty(String tag, int minRadius, int maxRadius, int clutter, int maxCount, double noiseFraction,
                         double contrastBlend, double maxRotationDeg, double textRotationDeg,
                         int signPx, int labelPx, int smallPrintPx, int chartTextPx, double touching,
                         boolean decoyText, boolean closeBars) {

    /** The default mix: 40 % easy, 35 % medium, 25 % hard. */
    public static final double DEFAULT_HARD_FRACTION = 0.25;

    /** Draws a difficulty level with the default mix and its random parameters. */
    static Difficulty draw(Random rng) { return draw(rng, DEFAULT_HARD_FRACTION); }

    /** Draws a difficulty level ({@code hardFraction} hard, the rest easy:medium 8:7) and its random parameters. */
    static Difficulty draw(Random rng, double hardFraction) {
        double u = rng.nextDouble();
        double easyEnd = (1 - hardFraction) * 8 / 15, mediumEnd = 1 - hardFraction;
        if (u < easyEnd) {
            return new Difficulty("easy", 26, 46, 3, 5, 0.0, 0.0, 0.0, 0.0,
                    40 + rng.nextInt(17), 24 + rng.nextInt(7), 12, 15, 0.0, false, false);
        }
        if (u < mediumEnd) {
            return new Difficulty("medium", 17, 34, 5, 7, 0.01, 0.0, 45.0, 0.0,
                    26 + rng.nextInt(15), 18 + rng.nextInt(7), 10 + rng.nextInt(2), 13, 0.0, false, false);
        }
        boolean lowContrast = rng.nextBoolean();
        // Sans-serif cap height is about 0.73 of the font size: 8–11 px fonts give 6–8 px capitals.
        return new Difficulty("hard", 8, 18, 10, 9, 0.06, lowContrast ? 0.5 : 0.0, 180.0, 15.0,
                8 + rng.nextInt(4), 8 + rng.nextInt(3), 8, 8, 0.3, true, true);
    }

    public boolean lowContrast() { return contrastBlend > 0; }
}
