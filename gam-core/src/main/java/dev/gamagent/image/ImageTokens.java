package dev.gamagent.image;

/**
 * Image-token estimates by model family, for servers that report no usage (each family's own published rule):
 * Families: {@code qwen} (Qwen2.5-VL, 28×28 patches), {@code openai} (512-px tiles), {@code internvl}
 * (448-px tiles).
 */
public final class ImageTokens {
    private ImageTokens() { }

    public static long estimate(String family, int width, int height) {
        String f = family == null ? "qwen" : family.toLowerCase(java.util.Locale.ROOT);
        if (f.contains("openai") || f.contains("gpt")) return openAi(width, height, true);
        if (f.contains("intern")) return internVl(width, height, 12);
        return qwen(width, height, 3136, 12_845_056);
    }

    /** Qwen2.5-VL: resize to multiples of 28 within [minPixels, maxPixels]; tokens = (h/28)·(w/28). */
    public static long qwen(int width, int height, long minPixels, long maxPixels) {
        double w = Math.max(28, Math.round(width / 28.0) * 28.0), h = Math.max(28, Math.round(height / 28.0) * 28.0);
        if (w * h > maxPixels) {
            double beta = Math.sqrt((double) width * height / maxPixels);
            w = Math.max(28, Math.floor(width / beta / 28) * 28);
            h = Math.max(28, Math.floor(height / beta / 28) * 28);
        } else if (w * h < minPixels) {
            double beta = Math.sqrt((double) minPixels / ((double) width * height));
            w = Math.ceil(width * beta / 28) * 28;
            h = Math.ceil(height * beta / 28) * 28;
        }
        return (long) ((w / 28) * (h / 28));
    }

    /** OpenAI high detail: fit in 2048², shortest side to 768, 85 + 170 per 512-px tile; low: 85. */
    public static long openAi(int width, int height, boolean highDetail) {
        if (!highDetail) return 85;
        double w = width, h = height;
        double s = Math.min(1, 2048 / Math.max(w, h));
        w *= s; h *= s;
        double s2 = Math.min(1, 768 / Math.min(w, h));
        w *= s2; h *= s2;
        long tiles = (long) Math.ceil(w / 512) * (long) Math.ceil(h / 512);
        return 85 + 170 * tiles;
    }

    /** InternVL: 256 tokens per 448-px tile up to {@code maxTiles}, plus a thumbnail tile when tiled. */
    public static long internVl(int width, int height, int maxTiles) {
        long tiles = (long) Math.ceil(width / 448.0) * (long) Math.ceil(height / 448.0);
        tiles = Math.max(1, Math.min(maxTiles, tiles));
        return 256 * (tiles + (tiles > 1 ? 1 : 0));
    }
}
