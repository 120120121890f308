package dev.gamagent.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.store.ResultRecord;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Cost of a question: tokens × the model's price ({@code eval.prices}: model → {@code input}/{@code output}
 * dollars per million tokens), or, for models without a price (self-hosted), the GPU-hour rate
 * ({@code eval.gpu_hour_rate}, default an A100 at $4.10/h) × measured wall time. The built-in model runs on this
 * machine's CPU, not on a rented GPU: it has no price unless the user gives a rate ({@code rateGiven}), so the
 * report shows no dollars for it rather than a GPU's hourly rate that would make more calls look cheaper.
 */
public record PriceTable(Map<String, Price> prices, double gpuHourRate, boolean rateGiven) {
    /** The built-in model's name, whichever backend serves it ({@code local:gam-perception}, or over HTTP from {@code gam local-server}). */
    static final String BUILT_IN_MODEL = "gam-perception";

    /** The basis of a cost that was not priced: the built-in model without a rate. */
    public static final String UNPRICED = "no price: the built-in model runs on this machine's CPU (set eval.gpu_hour_rate to price its time)";

    /** A table without an explicit GPU-hour rate. */
    public PriceTable(Map<String, Price> prices, double gpuHourRate) { this(prices, gpuHourRate, false); }

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
                p.put(e.getKey(), new Price(Config.numberAt("eval.prices." + e.getKey() + ".input", v.get("input")),
                        Config.numberAt("eval.prices." + e.getKey() + ".output", v.get("output"))));
            });
        }
        boolean given = config.given("eval.gpu_hour_rate");
        return new PriceTable(p, config.number("eval.gpu_hour_rate"), given);
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
     * The cost of one record: the sum of {@link #costs(ResultRecord)} when a panel mixed several backends, else
     * {@link #cost(String, long, long, long)} of the backend that answered.
     */
    public Cost cost(ResultRecord r) {
        ResultRecord.Cost spent = r.cost();
        var used = spent.backends();
        if (used == null || used.isEmpty()) return cost(spent.backend(), spent.promptTokens(), spent.completionTokens(), spent.millis());
        if (used.size() == 1) return cost(used.values().iterator().next().backend(), spent.promptTokens(), spent.completionTokens(), spent.millis());
        double dollars = 0;
        String basis = null;
        for (Cost c : costs(r).values()) {
            dollars += c.dollars();
            basis = basis == null ? c.basis() : basis.equals(c.basis()) ? basis : "mixed";
        }
        return new Cost(dollars, "per backend: " + basis);
    }

    /**
     * Each backend name's share of a record's cost: a priced model's tokens × its price; a model without a price
     * is charged the GPU-hour rate × the question's wall time once (one server busy for the question), shared by
     * the names that reach it (e.g. {@code default} and {@code local} on the built-in model) by their tokens.
     */
    public Map<String, Cost> costs(ResultRecord r) {
        Map<String, Cost> out = new LinkedHashMap<>();
        var used = r.cost().backends();
        if (used == null) return out;
        Map<String, Long> tokensByServer = new LinkedHashMap<>();
        Map<String, Integer> namesByServer = new LinkedHashMap<>();
        for (var t : used.values()) {
            if (priceFor(t.backend()) != null) continue;
            tokensByServer.merge(t.backend(), t.totalTokens(), Long::sum);
            namesByServer.merge(t.backend(), 1, Integer::sum);
        }
        for (var e : used.entrySet()) {
            var t = e.getValue();
            Cost whole = cost(t.backend(), t.promptTokens(), t.completionTokens(), r.cost().millis());
            if (priceFor(t.backend()) != null) {
                out.put(e.getKey(), whole);
                continue;
            }
            long server = tokensByServer.get(t.backend());
            double share = server > 0 ? (double) t.totalTokens() / server : 1.0 / namesByServer.get(t.backend());
            out.put(e.getKey(), new Cost(whole.dollars() * share, whole.basis()));
        }
        return out;
    }

    public Cost cost(String backendName, long promptTokens, long completionTokens, long millis) {
        Price p = priceFor(backendName);
        if (p != null) return new Cost((promptTokens * p.input() + completionTokens * p.output()) / 1e6, "price table");
        if (!rateGiven && builtIn(backendName)) return new Cost(0, UNPRICED);
        return new Cost(gpuHourRate * millis / 3_600_000.0, String.format(Locale.ROOT, "GPU $%.2f/h × wall time", gpuHourRate));
    }

    /** Whether a backend name ({@code kind:model}) names the built-in model. */
    static boolean builtIn(String backendName) {
        if (backendName == null) return false;
        int colon = backendName.indexOf(':');
        return (colon >= 0 ? backendName.substring(colon + 1) : backendName).equals(BUILT_IN_MODEL);
    }
}
