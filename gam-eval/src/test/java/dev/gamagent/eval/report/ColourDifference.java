package dev.gamagent.eval.report;

/**
 * Colour differences as a reader sees them, for checking the method palette (web/colors.js): sRGB → CIELAB (D65),
 * the CIEDE2000 difference, and dichromat vision simulated. A test tool: the pages only carry the chosen colours.
 */
public final class ColourDifference {
    private ColourDifference() { }

    /** Simulated colour vision: Machado, Oliveira &amp; Fernandes (2009), "A Physiologically-based Model for Simulation of
     * Color Vision Deficiency", IEEE TVCG 15(6), Table 1 at severity 1.0, applied to linear RGB. */
    public enum Vision {
        NORMAL(null),
        DEUTERANOPIA(new double[][]{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}),
        PROTANOPIA(new double[][]{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}});

        private final double[][] m;

        Vision(double[][] m) { this.m = m; }

        /** Linear RGB as this reader sees it (clipped to the gamut, as the simulation can leave it slightly). */
        double[] see(double[] rgb) {
            if (m == null) return rgb;
            double[] out = new double[3];
            for (int i = 0; i < 3; i++) out[i] = Math.min(1, Math.max(0, m[i][0] * rgb[0] + m[i][1] * rgb[1] + m[i][2] * rgb[2]));
            return out;
        }
    }

    /** "#RRGGBB" → linear RGB in [0, 1] (the sRGB transfer function of IEC 61966-2-1). */
    static double[] linear(String hex) {
        if (!hex.matches("#[0-9A-Fa-f]{6}")) throw new IllegalArgumentException("not a #RRGGBB colour: " + hex);
        double[] out = new double[3];
        for (int i = 0; i < 3; i++) {
            double c = Integer.parseInt(hex.substring(1 + 2 * i, 3 + 2 * i), 16) / 255.0;
            out[i] = c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
        }
        return out;
    }

    /** Linear sRGB → CIELAB, white point D65. */
    static double[] lab(double[] rgb) {
        double x = 0.4124564 * rgb[0] + 0.3575761 * rgb[1] + 0.1804375 * rgb[2];
        double y = 0.2126729 * rgb[0] + 0.7151522 * rgb[1] + 0.0721750 * rgb[2];
        double z = 0.0193339 * rgb[0] + 0.1191920 * rgb[1] + 0.9503041 * rgb[2];
        double fx = f(x / 0.95047), fy = f(y), fz = f(z / 1.08883);
        return new double[]{116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
    }

    private static double f(double t) {
        return t > 216.0 / 24389 ? Math.cbrt(t) : (24389.0 / 27 * t + 16) / 116;
    }

    /** The CIELAB coordinates of a colour as a reader with this vision sees it. */
    public static double[] lab(String hex, Vision v) { return lab(v.see(linear(hex))); }

    /** ΔE between two colours as a reader with this vision sees them. */
    public static double deltaE(String a, String b, Vision v) { return deltaE2000(lab(a, v), lab(b, v)); }

    /**
     * CIEDE2000 with k_L = k_C = k_H = 1, following the steps of Sharma, Wu &amp; Dalal (2005), "The CIEDE2000 Color-Difference
     * Formula: Implementation Notes, Supplementary Test Data, and Mathematical Observations", Color Res. Appl. 30(1), eqs. 1–22.
     */
    public static double deltaE2000(double[] lab1, double[] lab2) {
        double l1 = lab1[0], a1 = lab1[1], b1 = lab1[2], l2 = lab2[0], a2 = lab2[1], b2 = lab2[2];
        double cBar = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
        double c7 = Math.pow(cBar, 7);
        double g = 0.5 * (1 - Math.sqrt(c7 / (c7 + Math.pow(25, 7))));
        double a1p = (1 + g) * a1, a2p = (1 + g) * a2;
        double c1p = Math.hypot(a1p, b1), c2p = Math.hypot(a2p, b2);
        double h1p = hue(b1, a1p), h2p = hue(b2, a2p);
        double dLp = l2 - l1, dCp = c2p - c1p;
        double dhp;
        if (c1p * c2p == 0) dhp = 0;
        else if (Math.abs(h2p - h1p) <= 180) dhp = h2p - h1p;
        else if (h2p - h1p > 180) dhp = h2p - h1p - 360;
        else dhp = h2p - h1p + 360;
        double dHp = 2 * Math.sqrt(c1p * c2p) * Math.sin(Math.toRadians(dhp / 2));
        double lBarP = (l1 + l2) / 2, cBarP = (c1p + c2p) / 2;
        double hBarP;
        if (c1p * c2p == 0) hBarP = h1p + h2p;
        else if (Math.abs(h1p - h2p) <= 180) hBarP = (h1p + h2p) / 2;
        else if (h1p + h2p < 360) hBarP = (h1p + h2p + 360) / 2;
        else hBarP = (h1p + h2p - 360) / 2;
        double t = 1 - 0.17 * Math.cos(Math.toRadians(hBarP - 30)) + 0.24 * Math.cos(Math.toRadians(2 * hBarP))
                + 0.32 * Math.cos(Math.toRadians(3 * hBarP + 6)) - 0.20 * Math.cos(Math.toRadians(4 * hBarP - 63));
        double dTheta = 30 * Math.exp(-Math.pow((hBarP - 275) / 25, 2));
        double cp7 = Math.pow(cBarP, 7);
        double rc = 2 * Math.sqrt(cp7 / (cp7 + Math.pow(25, 7)));
        double sl = 1 + 0.015 * Math.pow(lBarP - 50, 2) / Math.sqrt(20 + Math.pow(lBarP - 50, 2));
        double sc = 1 + 0.045 * cBarP, sh = 1 + 0.015 * cBarP * t;
        double rt = -Math.sin(Math.toRadians(2 * dTheta)) * rc;
        double dl = dLp / sl, dc = dCp / sc, dh = dHp / sh;
        return Math.sqrt(dl * dl + dc * dc + dh * dh + rt * dc * dh);
    }

    private static double hue(double b, double ap) {
        if (b == 0 && ap == 0) return 0;
        double h = Math.toDegrees(Math.atan2(b, ap));
        return h < 0 ? h + 360 : h;
    }
}
