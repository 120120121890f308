package dev.gamagent.image.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Image tokens as each model family's own processor counts them, budget included: an image is first resized, tiled or
 * capped the way the family's processor does it, and its tokens are counted after that, so an image upscaled past a
 * pixel budget costs no more tokens than one at the budget, and one shrunk below a floor costs what the floor costs.
 * Used for the built-in model's and the simulator's usage and for servers that report none ({@code image.tokens},
 * {@code --image-tokens}). Each rule cites the processor it follows; docs/performance.md ("Image tokens by model
 * family") lists them, and {@code ImageTokensTest} checks each on five sizes worked out by hand from the rule.
 *
 * <p>A rule is named {@code family} or {@code family:key=value,...} ({@code qwen:max_pixels=1003520}); only the image's
 * own placeholder tokens are counted, not the one or two tokens a chat template puts around them.
 */
public final class ImageTokens {
    private ImageTokens() { }

    /** One family's rule: the tokens one image of {@code width}×{@code height} pixels costs. */
    public sealed interface Rule permits Qwen, InternVl, Gemma3, LlavaNext, OpenAiTiles, OpenAiPatches, Gemini, Anthropic {
        long tokens(int width, int height);

        /** The rule as it is named, with every setting ({@code qwen:min_pixels=3136,max_pixels=12845056}). */
        String spec();
    }

    /** A family and its default settings ({@code key=value,...}). */
    private record Preset(String family, String settings) { }

    /** The rules by name (aliases included), each a family with its default settings. */
    private static final Map<String, Preset> PRESETS = presets();

    private static Map<String, Preset> presets() {
        Map<String, Preset> out = new LinkedHashMap<>();
        Preset qwen = new Preset("qwen", "min_pixels=3136,max_pixels=12845056");
        Preset internvl = new Preset("internvl", "min_num=1,max_num=12");
        Preset openai = new Preset("openai", "detail=high");
        Preset patches = new Preset("openai-patches", "multiplier=1.0");
        out.put("qwen", qwen);
        out.put("qwen2.5-vl", qwen);
        out.put("qwen-vlmevalkit", new Preset("qwen", "min_pixels=1003520,max_pixels=12845056"));
        out.put("internvl", internvl);
        out.put("internvl3", internvl);
        out.put("internvl-vlmevalkit", new Preset("internvl", "min_num=1,max_num=6"));
        out.put("gemma3", new Preset("gemma3", ""));
        out.put("gemma-3", new Preset("gemma3", ""));
        out.put("llava-next", new Preset("llava-next", ""));
        out.put("llava-v1.6", new Preset("llava-next", ""));
        out.put("openai", openai);
        out.put("gpt-4o", openai);
        out.put("openai-low", new Preset("openai", "detail=low"));
        out.put("openai-patches", patches);
        out.put("gpt-4.1", patches);
        out.put("gpt-4.1-mini", new Preset("openai-patches", "multiplier=1.62"));
        out.put("gpt-4.1-nano", new Preset("openai-patches", "multiplier=2.46"));
        out.put("o4-mini", new Preset("openai-patches", "multiplier=1.72"));
        out.put("gemini", new Preset("gemini", ""));
        out.put("anthropic", new Preset("anthropic", ""));
        out.put("claude", new Preset("anthropic", ""));
        return Collections.unmodifiableMap(out);
    }

    /** The names {@link #rule} accepts, for messages and help texts. */
    public static List<String> names() { return List.copyOf(PRESETS.keySet()); }

    /**
     * The rule named {@code spec}: a family ({@link #names}), optionally with settings after a colon that replace the
     * family's defaults ({@code internvl:max_num=6}). An unknown name or setting is an error that names the known ones.
     */
    public static Rule rule(String spec) {
        if (spec == null || spec.isBlank()) throw new IllegalArgumentException("an image-token family is needed; known: " + String.join(", ", names()));
        String s = spec.strip().toLowerCase(Locale.ROOT);
        int colon = s.indexOf(':');
        Preset preset = PRESETS.get(colon < 0 ? s : s.substring(0, colon));
        if (preset == null) {
            throw new IllegalArgumentException("unknown image-token family '" + spec.strip() + "'; known: " + String.join(", ", names()));
        }
        Map<String, String> settings = settings(preset.settings(), spec);
        if (colon >= 0) settings.putAll(settings(s.substring(colon + 1), spec));
        Settings given = new Settings(spec.strip(), settings);
        Rule r = switch (preset.family()) {
            case "qwen" -> new Qwen(given.whole("min_pixels"), given.whole("max_pixels"));
            case "internvl" -> new InternVl((int) given.whole("min_num"), (int) given.whole("max_num"));
            case "gemma3" -> new Gemma3();
            case "llava-next" -> new LlavaNext();
            case "openai" -> new OpenAiTiles(given.oneOf("detail", "high", "low").equals("high"));
            case "openai-patches" -> new OpenAiPatches(given.positive("multiplier"));
            case "gemini" -> new Gemini();
            case "anthropic" -> new Anthropic();
            default -> throw new IllegalStateException("no rule for family " + preset.family());
        };
        given.checkAllRead();
        return r;
    }

    /** Tokens of one image by the rule named {@code family} (see {@link #rule}). */
    public static long estimate(String family, int width, int height) { return rule(family).tokens(width, height); }

    private static Map<String, String> settings(String list, String spec) {
        Map<String, String> out = new LinkedHashMap<>();
        if (list.isBlank()) return out;
        for (String kv : list.split(",")) {
            int eq = kv.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("image-token family '" + spec.strip() + "': '" + kv.strip() + "' is not key=value");
            out.put(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
        }
        return out;
    }

    /** A family's settings, each read once; one left unread was misspelt or belongs to another family. */
    private static final class Settings {
        private final String spec;
        private final Map<String, String> values;
        private final java.util.Set<String> read = new java.util.HashSet<>();

        Settings(String spec, Map<String, String> values) {
            this.spec = spec;
            this.values = values;
        }

        private String get(String key) {
            read.add(key);
            return values.get(key);
        }

        long whole(String key) {
            String v = get(key);
            try {
                long n = Long.parseLong(v);
                if (n < 1) throw new NumberFormatException();
                return n;
            } catch (NumberFormatException | NullPointerException e) {
                throw new IllegalArgumentException("image-token family '" + spec + "': " + key + " must be a whole number ≥ 1, got " + v);
            }
        }

        double positive(String key) {
            String v = get(key);
            try {
                double d = Double.parseDouble(v);
                if (!(d > 0)) throw new NumberFormatException();
                return d;
            } catch (NumberFormatException | NullPointerException e) {
                throw new IllegalArgumentException("image-token family '" + spec + "': " + key + " must be a number above 0, got " + v);
            }
        }

        String oneOf(String key, String... allowed) {
            String v = get(key);
            if (!List.of(allowed).contains(v)) {
                throw new IllegalArgumentException("image-token family '" + spec + "': " + key + " must be one of " + List.of(allowed) + ", got " + v);
            }
            return v;
        }

        void checkAllRead() {
            for (String k : values.keySet()) {
                if (!read.contains(k)) throw new IllegalArgumentException("image-token family '" + spec + "' has no setting '" + k + "'");
            }
        }
    }

    /**
     * Qwen2.5-VL ({@code smart_resize} of transformers' {@code Qwen2VLImageProcessor}, and qwen_vl_utils): both sides
     * rounded to a multiple of 28 (14-px patches merged 2×2; Python's {@code round}, halves to even); if that exceeds
     * {@code maxPixels}, both sides are scaled by √(maxPixels / (w·h)) and floored to multiples of 28; if it falls below
     * {@code minPixels}, scaled by √(minPixels / (w·h)) and ceiled. Tokens = (h/28)·(w/28). The model's own
     * preprocessor_config.json (what vLLM and {@code AutoProcessor} load) has 3,136 and 12,845,056 (16,384·28²);
     * VLMEvalKit's Qwen2.5-VL wrapper sets 1,003,520 (1,280·28²) and 12,845,056 ({@code qwen-vlmevalkit}).
     */
    public record Qwen(long minPixels, long maxPixels) implements Rule {
        public Qwen {
            if (minPixels > maxPixels) throw new IllegalArgumentException("qwen: min_pixels " + minPixels + " is above max_pixels " + maxPixels);
        }

        public long tokens(int width, int height) {
            long[] hw = resized(width, height);
            return (hw[0] / 28) * (hw[1] / 28);
        }

        /** The height and width the processor resizes to. */
        public long[] resized(int width, int height) {
            long h = Math.max(28, (long) Math.rint(height / 28.0) * 28), w = Math.max(28, (long) Math.rint(width / 28.0) * 28);
            if (h * w > maxPixels) {
                double beta = Math.sqrt((double) height * width / maxPixels);
                h = Math.max(28, (long) Math.floor(height / beta / 28) * 28);
                w = Math.max(28, (long) Math.floor(width / beta / 28) * 28);
            } else if (h * w < minPixels) {
                double beta = Math.sqrt((double) minPixels / ((double) height * width));
                h = (long) Math.ceil(height * beta / 28) * 28;
                w = (long) Math.ceil(width * beta / 28) * 28;
            }
            return new long[]{h, w};
        }

        public String spec() { return "qwen:min_pixels=" + minPixels + ",max_pixels=" + maxPixels; }
    }

    /**
     * InternVL3 ({@code dynamic_preprocess} of the model card and of OpenGVLab/InternVL, image_size 448): the tile grid
     * (i×j tiles, minNum ≤ i·j ≤ maxNum) whose aspect ratio i/j is closest to the image's, ties to the larger grid when
     * the image's area exceeds half the grid's; then, when there is more than one tile, a 448² thumbnail of the whole
     * image. 256 tokens a tile (448/14 = 32 patches a side, pixel shuffle 0.5: 16² = 256). The model card and
     * transformers' processor allow 12 tiles; VLMEvalKit allows 6 on most benchmarks ({@code internvl-vlmevalkit}).
     */
    public record InternVl(int minNum, int maxNum) implements Rule {
        public InternVl {
            if (minNum > maxNum) throw new IllegalArgumentException("internvl: min_num " + minNum + " is above max_num " + maxNum);
        }

        public long tokens(int width, int height) {
            int[] grid = grid(width, height);
            int tiles = grid[0] * grid[1];
            return 256L * (tiles + (tiles > 1 ? 1 : 0));
        }

        /** The tile grid, {columns, rows}. */
        public int[] grid(int width, int height) {
            List<int[]> ratios = new ArrayList<>();
            for (int i = 1; i <= maxNum; i++) {
                for (int j = 1; j <= maxNum; j++) if (i * j >= minNum && i * j <= maxNum) ratios.add(new int[]{i, j});
            }
            // by area, as the processor sorts them; among equal areas its order is a set's, which only matters when two
            // grids of one area tie, and i/j and j/i never both beat the 1×1 family's distance
            ratios.sort(Comparator.<int[]>comparingInt(r -> r[0] * r[1]).thenComparingInt(r -> r[0]));
            double aspect = (double) width / height, area = (double) width * height;
            double best = Double.POSITIVE_INFINITY;
            int[] chosen = {1, 1};
            for (int[] r : ratios) {
                double diff = Math.abs(aspect - (double) r[0] / r[1]);
                if (diff < best) {
                    best = diff;
                    chosen = r;
                } else if (diff == best && area > 0.5 * 448 * 448 * r[0] * r[1]) {
                    chosen = r;
                }
            }
            return chosen;
        }

        public String spec() { return "internvl:min_num=" + minNum + ",max_num=" + maxNum; }
    }

    /**
     * Gemma 3 (transformers' {@code Gemma3Processor}): every image is resized to 896×896 and costs
     * {@code image_seq_length} = 256 tokens whatever its size; pan and scan (extra crops) is off by default
     * ({@code do_pan_and_scan} false) and not modelled.
     */
    public record Gemma3() implements Rule {
        public long tokens(int width, int height) { return 256; }

        public String spec() { return "gemma3"; }
    }

    /**
     * LLaVA-NeXT, the llava-v1.6 rule (haotian-liu/LLaVA {@code mm_utils.select_best_resolution} and
     * {@code llava_arch.unpad_image}, CLIP ViT-L/14 at 336 px): the grid pinpoint (336×672, 672×336, 672×672, 1008×336,
     * 336×1008) that keeps the most of the image's pixels when fitted in it, ties to the least wasted area; its tiles'
     * 24×24 features form a (rows·24)×(columns·24) map, cropped back to the image's aspect ratio (the padding rows or
     * columns removed), plus one newline token per row of the cropped map, plus the 576 tokens of the 336² base image.
     */
    public record LlavaNext() implements Rule {
        /** The grid pinpoints, {width, height}, a fresh copy each time (the caller keeps the one it chooses). */
        private static int[][] pinpoints() { return new int[][] {{336, 672}, {672, 336}, {672, 672}, {1008, 336}, {336, 1008}}; }

        public long tokens(int width, int height) {
            int[] best = pinpoint(width, height);
            long ch = best[1] / 336 * 24, cw = best[0] / 336 * 24;
            if ((double) width / height > (double) cw / ch) {
                long newHeight = (long) (height * ((double) cw / width));
                ch -= 2 * ((ch - newHeight) / 2);
            } else {
                long newWidth = (long) (width * ((double) ch / height));
                cw -= 2 * ((cw - newWidth) / 2);
            }
            return 576 + ch * cw + ch;
        }

        /** The chosen pinpoint, {width, height}. */
        public int[] pinpoint(int width, int height) {
            int[] best = null;
            long maxEffective = 0, minWasted = Long.MAX_VALUE;
            for (int[] p : pinpoints()) {
                double scale = Math.min((double) p[0] / width, (double) p[1] / height);
                long dw = (long) (width * scale), dh = (long) (height * scale);
                long effective = Math.min(dw * dh, (long) width * height), wasted = (long) p[0] * p[1] - effective;
                if (effective > maxEffective || (effective == maxEffective && wasted < minWasted)) {
                    maxEffective = effective;
                    minWasted = wasted;
                    best = p;
                }
            }
            return best;
        }

        public String spec() { return "llava-next"; }
    }

    /**
     * OpenAI's {@code detail} tiles (GPT-4o, GPT-4 Turbo; the vision guide's "Calculating costs"): low detail costs 85;
     * high detail scales the image down to fit 2048×2048, then down so its shorter side is at most 768, and costs 85 plus
     * 170 per 512-px tile covering it.
     */
    public record OpenAiTiles(boolean highDetail) implements Rule {
        public long tokens(int width, int height) {
            if (!highDetail) return 85;
            double w = width, h = height;
            double s = Math.min(1, 2048 / Math.max(w, h));
            w *= s;
            h *= s;
            double s2 = Math.min(1, 768 / Math.min(w, h));
            w *= s2;
            h *= s2;
            return 85 + 170 * (long) Math.ceil(w / 512) * (long) Math.ceil(h / 512);
        }

        public String spec() { return "openai:detail=" + (highDetail ? "high" : "low"); }
    }

    /**
     * OpenAI's 32-px patches (GPT-4.1, GPT-4.1-mini/nano, o4-mini; the same guide): the patches covering the image, at
     * most 1,536: a larger image is scaled by √(1536·32² / (w·h)), then again so its width is a whole number of patches;
     * the patches are multiplied by the model's factor (1.62 for GPT-4.1-mini, 2.46 nano, 1.72 o4-mini), rounded.
     */
    public record OpenAiPatches(double multiplier) implements Rule {
        public long tokens(int width, int height) {
            long patches = ceilDiv(width, 32) * ceilDiv(height, 32);
            if (patches > 1536) {
                double shrink = Math.sqrt(1536.0 * 32 * 32 / ((double) width * height));
                double w = width * shrink, h = height * shrink;
                double fit = Math.floor(w / 32) / (w / 32);
                w *= fit;
                h *= fit;
                patches = Math.min(1536, (long) Math.ceil(w / 32) * (long) Math.ceil(h / 32));
            }
            return Math.round(patches * multiplier);
        }

        public String spec() { return "openai-patches:multiplier=" + multiplier; }
    }

    /** Gemini (its vision docs): 258 tokens when both sides are at most 384 px, else 258 per 768-px tile. */
    public record Gemini() implements Rule {
        public long tokens(int width, int height) {
            if (width <= 384 && height <= 384) return 258;
            return 258L * ceilDiv(width, 768) * ceilDiv(height, 768);
        }

        public String spec() { return "gemini"; }
    }

    /** Anthropic (its vision docs): w·h/750 after fitting the long side to 1568 px. */
    public record Anthropic() implements Rule {
        public long tokens(int width, int height) {
            double s = Math.min(1.0, 1568.0 / Math.max(width, height));
            return (long) Math.ceil(width * s * height * s / 750.0);
        }

        public String spec() { return "anthropic"; }
    }

    private static long ceilDiv(long a, long b) { return (a + b - 1) / b; }

    /** Kept for callers that name the Qwen2.5-VL budget directly (see {@link Qwen}). */
    public static long qwen(int width, int height, long minPixels, long maxPixels) { return new Qwen(minPixels, maxPixels).tokens(width, height); }

    /** OpenAI's tile rule (see {@link OpenAiTiles}). */
    public static long openAi(int width, int height, boolean highDetail) { return new OpenAiTiles(highDetail).tokens(width, height); }
}
