package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Cost of a question: tokens × the model's price ({@code eval.prices}: model → {@code input}/{@code output}
 * dollars per million tokens), or, for models without a price (self-hosted, the local model), the GPU-hour
 * rate ({@code eval.gpu_hour_rate}, default an A100 at $4.10/h) × measured wall time.
 */
public record PriceTable(Map<String, Price> prices, double gpuHourRate) {
    public static final double DEFAULT_GPU_HOUR_RATE = 4.10;

    /** Dollars per million input and output tokens. */
    public record Price(double input, double output) { }

    /** A cost and how it was computed. */
    public record Cost(double dollars, String basis) { }

    public PriceTable {
        prices = Map.copyOf(prices);
    }

    public static PriceTable from(Config config) {
        Map<String, Price> p = new LinkedHashMap<>();
        JsonNode n = config.node("eval.prices");
        if (n.isObject()) {
            n.fields().forEachRemaining(e -> {
                JsonNode v = e.getValue();
                if (!v.has("input") || !v.has("output")) {
                    throw new Config.ConfigException("eval.prices." + e.getKey() + " needs numbers 'input' and 'output' ($ per million tokens)");
                }
                p.put(e.getKey(), new Price(v.get("input").asDouble(), v.get("output").asDouble()));
            });
        }
        return new PriceTable(p, config.number("eval.gpu_hour_rate", DEFAULT_GPU_HOUR_RATE));
    }

    /** The price for a backend name such as {@code openai:gpt-4o}: exact name, then the model part, then a key it contains. */
    public Price priceFor(String backendName) {
        if (backendName == null) return null;
        if (prices.containsKey(backendName)) return prices.get(backendName);
        int colon = backendName.indexOf(':');
        String model = colon >= 0 ? backendName.substring(colon + 1) : backendName;
        if (prices.containsKey(model)) return prices.get(model);
        String lower = model.toLowerCase(Locale.ROOT);
        Price best = null;
        int bestLen = 0;
        for (var e : prices.entrySet()) {
            String k = e.getKey().toLowerCase(Locale.ROOT);
            if (lower.contains(k) && k.length() > bestLen) { best = e.getValue(); bestLen = k.length(); }
        }
        return best;
    }

    /**
     * The cost of one record. When a panel mixed several backends ({@link ResultRecord#backends()}), each is
     * charged on its own (tokens × its model's price, or the GPU-hour rate × the question's wall time, as if
     * each self-hosted server were busy for the question) and the costs add up; else as {@link #cost(String, long, long, long)}.
     */
    public Cost cost(ResultRecord r) {
        var used = r.backends();
        if (used == null || used.isEmpty()) return cost(r.backend(), r.promptTokens(), r.completionTokens(), r.millis());
        if (used.size() == 1) return cost(used.values().iterator().next().backend(), r.promptTokens(), r.completionTokens(), r.millis());
        double dollars = 0;
        String basis = null;
        for (var t : used.values()) {
            Cost c = cost(t.backend(), t.promptTokens(), t.completionTokens(), r.millis());
            dollars += c.dollars();
            basis = basis == null ? c.basis() : basis.equals(c.basis()) ? basis : "mixed";
        }
        return new Cost(dollars, "per backend: " + basis);
    }

    public Cost cost(String backendName, long promptTokens, long completionTokens, long millis) {
        Price p = priceFor(backendName);
        if (p != null) return new Cost((promptTokens * p.input() + completionTokens * p.output()) / 1e6, "price table");
        return new Cost(gpuHourRate * millis / 3_600_000.0, String.format(Locale.ROOT, "GPU $%.2f/h × wall time", gpuHourRate));
    }
}
