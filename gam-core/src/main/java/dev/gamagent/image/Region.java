package dev.gamagent.image;

/** A rectangle in normalised image coordinates: (x0,y0) top-left, (x1,y1) bottom-right, all in [0,1]. */
public record Region(double x0, double y0, double x1, double y1) {
    public Region {
        double ax = clamp(Math.min(x0, x1)), bx = clamp(Math.max(x0, x1));
        double ay = clamp(Math.min(y0, y1)), by = clamp(Math.max(y0, y1));
        x0 = ax; x1 = bx; y0 = ay; y1 = by;
    }

    public static final Region FULL = new Region(0, 0, 1, 1);

    public double area() { return (x1 - x0) * (y1 - y0); }

    @com.fasterxml.jackson.annotation.JsonIgnore // a derived property: traces carry x0, y0, x1, y1 only
    public boolean isEmpty() { return x1 <= x0 || y1 <= y0; }

    /** Grows the region by {@code margin} (fraction of its own size) on each side, clipped to the image. */
    public Region expand(double margin) {
        double w = x1 - x0, h = y1 - y0;
        return new Region(x0 - w * margin, y0 - h * margin, x1 + w * margin, y1 + h * margin);
    }

    @Override public String toString() {
        return String.format(java.util.Locale.ROOT, "[%.3f,%.3f,%.3f,%.3f]", x0, y0, x1, y1);
    }

    private static double clamp(double v) { return Double.isNaN(v) ? 0 : Math.max(0, Math.min(1, v)); }
}
