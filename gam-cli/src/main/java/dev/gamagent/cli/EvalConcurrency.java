package dev.gamagent.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * How many questions {@code gam eval} keeps in flight ({@code --concurrency}) and how many requests each
 * endpoint may have in flight ({@code --max-concurrent}), resolved so that neither silently caps the other.
 * Given one, the other follows from it: {@code --max-concurrent M} alone keeps M questions per endpoint in
 * flight; {@code --concurrency C} alone sets no per-endpoint limit (C questions bound the requests). Given
 * neither: the built-in model gets one question per core, a server 8 questions per endpoint. Given both
 * and C > M × endpoints, the limit caps what C asks for, and {@link #warnings()} says so.
 *
 * @param perEndpoint requests per endpoint; {@link #NO_LIMIT} when only the questions bound them
 */
public record EvalConcurrency(int questions, int perEndpoint, List<String> warnings) {
    /** A per-endpoint limit no run reaches (kept small enough that limit × endpoints fits an int). */
    public static final int NO_LIMIT = 1 << 16;
    static final int DEFAULT_PER_ENDPOINT = 8;

    public EvalConcurrency {
        warnings = List.copyOf(warnings);
    }

    /**
     * @param concurrency   {@code --concurrency}, or null when not given
     * @param maxConcurrent {@code --max-concurrent}, or null when not given
     * @param endpoints     how many endpoints requests are spread over ({@code --base-url} repeated)
     * @param local         the built-in model (in process: no endpoints, its limit is the cores)
     */
    public static EvalConcurrency resolve(Integer concurrency, Integer maxConcurrent, int endpoints, boolean local, int cores) {
        if (concurrency != null && concurrency < 1) throw new IllegalArgumentException("--concurrency must be at least 1, got " + concurrency);
        if (maxConcurrent != null && maxConcurrent < 1) throw new IllegalArgumentException("--max-concurrent must be at least 1, got " + maxConcurrent);
        int e = Math.max(1, endpoints);
        List<String> warnings = new ArrayList<>();
        if (local) {
            int q = concurrency != null ? concurrency : Math.max(1, cores);
            return new EvalConcurrency(q, maxConcurrent != null ? maxConcurrent : NO_LIMIT, warnings);
        }
        if (concurrency == null && maxConcurrent == null) return new EvalConcurrency(DEFAULT_PER_ENDPOINT * e, NO_LIMIT, warnings);
        if (concurrency == null) return new EvalConcurrency(maxConcurrent * e, maxConcurrent, warnings);
        if (maxConcurrent == null) return new EvalConcurrency(concurrency, NO_LIMIT, warnings);
        long slots = (long) maxConcurrent * e;
        if (concurrency > slots) {
            warnings.add(String.format(java.util.Locale.ROOT, "--max-concurrent %d × %d endpoint%s allows %d requests in flight, fewer than the "
                            + "%d questions --concurrency asks for: the rest wait in gam, not at the server. Leave out --max-concurrent "
                            + "(the questions then bound the requests), raise it to %d, or lower --concurrency to %d.",
                    maxConcurrent, e, e == 1 ? "" : "s", slots, concurrency, (concurrency + e - 1) / e, slots));
        }
        return new EvalConcurrency(concurrency, maxConcurrent, warnings);
    }
}
