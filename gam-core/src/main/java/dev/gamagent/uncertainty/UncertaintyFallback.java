package dev.gamagent.uncertainty;

import dev.gamagent.config.Config;

import java.util.Locale;

/**
 * What an agent's uncertainty comes from when its backend gives no log-probs (docs/GAM.md, "Without
 * log-probs"): {@code semantic} (Φ_sem, hedge words and a reported confidence; no extra cost) or
 * {@code sampling} (each answer drawn {@code samples} times at {@code temperature}; U from their agreement).
 * Read from {@code <section>.uncertainty_fallback}, {@code <section>.samples}, {@code <section>.sampling_temperature}.
 */
public record UncertaintyFallback(boolean sampling, int samples, double temperature) {
    public static final UncertaintyFallback SEMANTIC = new UncertaintyFallback(false, 1, 0);

    public UncertaintyFallback {
        if (sampling && samples < 2) throw new IllegalArgumentException("sampling needs at least 2 samples, got " + samples);
        if (sampling && !(temperature > 0)) throw new IllegalArgumentException("sampling needs a temperature above 0, got " + temperature);
    }

    /** The fallback configured in {@code section} ("gam", "dream"); errors name the key and the values allowed. */
    public static UncertaintyFallback from(Config c, String section) {
        String key = section + ".uncertainty_fallback";
        String mode = c.string(key).strip().toLowerCase(Locale.ROOT);
        if (mode.equals("semantic")) return SEMANTIC;
        if (!mode.equals("sampling")) {
            throw new Config.ConfigException(key + " = '" + mode + "' is not known; use 'semantic' or 'sampling'");
        }
        int n = c.integer(section + ".samples");
        // at T = 1 the sample frequencies estimate the model's own answer distribution; lower T overstates agreement
        double t = c.number(section + ".sampling_temperature");
        if (n < 2) throw new Config.ConfigException(section + ".samples = " + n + ": sampling needs at least 2 samples (default 3)");
        if (!(t > 0)) throw new Config.ConfigException(section + ".sampling_temperature = " + t + ": sampling needs a temperature above 0 (default 1.0)");
        return new UncertaintyFallback(true, n, t);
    }

    public String label() { return sampling ? "sampling" : "semantic"; }

    /**
     * What a run says once when {@code method}'s agents fell back to {@code semantic}: why that is weak and what
     * the sampling option costs (n samples per expert call: n× its completion tokens, and n× its prompt tokens
     * on wire formats without {@code n}).
     */
    public static String semanticNotice(String method) {
        String section = method.startsWith("dream+") ? "dream" : "gam";
        boolean canSample = method.equals("gam") || method.endsWith("+gam") || method.startsWith("dream+");
        String s = method + ": the backend gave no log-probabilities, so agents' uncertainty fell back to 'semantic' (hedge words "
                + "and a reported confidence; on real models' replies it ranks right above wrong answers no better than chance, "
                + "see docs/GAM.md).";
        if (!canSample) return s;
        return s + " --set " + section + ".uncertainty_fallback=sampling draws each answer 3 times instead ("
                + section + ".samples, default 3): one request with n=3 where the server takes n (vLLM, OpenAI, Gemini), "
                + "else 3 calls (Ollama, Anthropic, llama.cpp); about 3x the completion tokens of those calls"
                + (section.equals("dream") ? " (DREAM's probes; the inner gam has gam.uncertainty_fallback)." : ".");
    }
}
