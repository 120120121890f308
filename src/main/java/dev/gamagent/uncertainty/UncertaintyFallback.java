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
        String mode = c.string(key, "semantic").strip().toLowerCase(Locale.ROOT);
        if (mode.equals("semantic")) return SEMANTIC;
        if (!mode.equals("sampling")) {
            throw new Config.ConfigException(key + " = '" + mode + "' is not known; use 'semantic' or 'sampling'");
        }
        int n = c.integer(section + ".samples", 3);
        double t = c.number(section + ".sampling_temperature", 0.7);
        if (n < 2) throw new Config.ConfigException(section + ".samples = " + n + ": sampling needs at least 2 samples (default 3)");
        if (!(t > 0)) throw new Config.ConfigException(section + ".sampling_temperature = " + t + ": sampling needs a temperature above 0 (default 0.7)");
        return new UncertaintyFallback(true, n, t);
    }

    public String label() { return sampling ? "sampling" : "semantic"; }
}
