package dev.gamagent.backend;

/**
 * What a backend can do. {@code maxTopLogprobs} is the largest top-k the server accepts (0 = no
 * alternatives); {@code logprobs} false means only text comes back and the engine uses semantic uncertainty.
 */
public record Capabilities(boolean images, boolean logprobs, int maxTopLogprobs, boolean multipleChoices,
                           boolean structuredOutput, long maxImagePixels) {
    public static final long DEFAULT_MAX_PIXELS = 12_845_056L; // Qwen2.5-VL's default max_pixels

    public Capabilities withLogprobs(boolean on, int maxTop) {
        return new Capabilities(images, on, on ? maxTop : 0, multipleChoices, structuredOutput, maxImagePixels);
    }

    /** The best uncertainty signal this backend can give. */
    public UncertaintySignal bestSignal() {
        if (logprobs && maxTopLogprobs >= 2) return UncertaintySignal.TOP_K;
        if (logprobs) return UncertaintySignal.CHOSEN;
        return UncertaintySignal.SEMANTIC;
    }
}
