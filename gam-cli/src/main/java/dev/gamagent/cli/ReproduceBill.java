package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.recipe.CostEstimate;
import dev.gamagent.eval.recipe.RecipePlan;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What a reproduction costs (calls, tokens, dollars, time) before it runs, and what its runs actually took against that. */
final class ReproduceBill {
    /** One run of a reproduction's plan with what the estimate needs. */
    record Planned(RecipePlan.EvalRun run, Config config, Path dir, Path file, List<CostEstimate.QuestionSize> sizes,
                   Map<String, CostEstimate.QuestionSize> byId, List<CostEstimate.MethodEstimate> estimates) { }

    private ReproduceBill() { }

    /** What a method's run actually took against its estimated ranges, scaled to the questions it answered. */
    static ObjectNode actual(Planned p, CostEstimate.MethodEstimate e, List<ResultRecord> records) {
        MethodUsage used = MethodUsage.of(e.method(), records);
        int answers = used.answers();
        // the range is for the questions of the plan; scale it to the questions answered
        double f = e.questions() == 0 ? 0 : (double) answers / e.questions();
        ObjectNode a = Json.MAPPER.createObjectNode();
        a.put("benchmark", p.run().benchmark().column());
        a.put("data", p.run().data());
        a.put("method", e.method());
        a.put("answers", answers);
        a.put("plannedQuestions", e.questions());
        range(a, "calls", used.calls(), e.calls().low() * f, e.calls().high() * f);
        range(a, "promptTokens", used.promptTokens(), e.promptTokens().low() * f, e.promptTokens().high() * f);
        range(a, "completionTokens", used.completionTokens(), e.completionTokens().low() * f, e.completionTokens().high() * f);
        // the estimate is of tokens sent; what the server's cache held it reported only after the fact
        if (used.cachedPromptTokens() != null) a.put("cachedPromptTokens", used.cachedPromptTokens());
        a.put("seconds", used.millis() / 1000.0);
        return a;
    }

    private static void range(ObjectNode a, String key, long value, double low, double high) {
        ObjectNode n = a.putObject(key);
        n.put("actual", value);
        n.put("estimateLow", Math.floor(low));
        n.put("estimateHigh", Math.ceil(high));
        n.put("inside", value >= Math.floor(low) && value <= Math.ceil(high));
    }

    /** One figure of {@link #actual} in words: the actual count, its estimated range, inside or OUTSIDE. */
    static String inside(JsonNode a, String key) {
        JsonNode n = a.get(key);
        return String.format(Locale.ROOT, "%,d (estimate %s–%s%s)", n.get("actual").asLong(), human(n.get("estimateLow").asDouble()),
                human(n.get("estimateHigh").asDouble()), n.get("inside").asBoolean() ? ", inside" : ", OUTSIDE");
    }

    /** The bill of a reproduction before it runs: each run's methods with their ranges, the totals, dollars and time. */
    static void print(List<Planned> plan, PriceTable.Price price, int inFlight, String model) {
        double callsLo = 0, callsHi = 0, promptLo = 0, promptHi = 0, complLo = 0, complHi = 0, dollarsLo = 0, dollarsHi = 0;
        double pCalls = 0, pPrompt = 0, pCompl = 0, pSeconds = 0, pDollars = 0, pComputed = 0;
        boolean piloted = false, computedKnown = true;
        for (Planned p : plan) {
            System.out.println("  " + p.run().benchmark().column() + " = " + p.run().data() + " (" + p.file().getFileName() + "): "
                    + p.sizes().size() + " questions" + (p.run().standIn() != null ? "; " + p.run().standIn() : "")
                    + (p.run().sweep() != null ? "; one full-length run, every K_max re-decided by gam sweep at no cost" : ""));
            System.out.printf(Locale.ROOT, "    %-16s %-9s %-24s %-24s %-24s%n", "method", "calls/q", "calls", "prompt tokens", "completion tokens");
            for (CostEstimate.MethodEstimate e : p.estimates()) {
                System.out.printf(Locale.ROOT, "    %-16s %-9s %-24s %-24s %-24s%n", e.method(), e.callsPerQuestion(), range(e.calls()),
                        range(e.promptTokens()), range(e.completionTokens()));
                callsLo += e.calls().low(); callsHi += e.calls().high();
                promptLo += e.promptTokens().low(); promptHi += e.promptTokens().high();
                complLo += e.completionTokens().low(); complHi += e.completionTokens().high();
                if (e.dollars() != null) { dollarsLo += e.dollars().low(); dollarsHi += e.dollars().high(); }
                if (e.pilot() != null) {
                    CostEstimate.Pilot q = e.pilot();
                    piloted = true;
                    System.out.printf(Locale.ROOT, "    %-16s from %d answers: calls %s, prompt tokens %s (95 %%: %s), completion tokens %s, %.2f s per question%n",
                            "", q.n(), human(q.calls()), human(q.promptTokens()), range(q.promptInterval()), human(q.completionTokens()), q.secondsPerQuestion());
                    if (q.computedPromptTokens() != null) {
                        System.out.printf(Locale.ROOT, "    %-16s of the prompt tokens sent, %s computed at the share the server reported cached in the pilot%n",
                                "", human(q.computedPromptTokens()));
                        pComputed += q.computedPromptTokens();
                    } else {
                        computedKnown = false;
                    }
                    pCalls += q.calls(); pPrompt += q.promptTokens(); pCompl += q.completionTokens();
                    pSeconds += q.secondsPerQuestion() * e.questions();
                    if (q.dollars() != null) pDollars += q.dollars();
                }
            }
        }
        System.out.printf(Locale.ROOT, "  total: calls %s, prompt tokens %s, completion tokens %s%n", human(callsLo) + "–" + human(callsHi),
                human(promptLo) + "–" + human(promptHi), human(complLo) + "–" + human(complHi));
        if (!(piloted && computedKnown)) {
            System.out.println("  prompt tokens are as sent; how many of them the server computes its prefix cache decides "
                    + "(--pilot N against a server that reports cached tokens measures it)");
        }
        if (price != null) System.out.printf(Locale.ROOT, "  dollars at %s's price (eval.prices): $%.2f–$%.2f%n", model, dollarsLo, dollarsHi);
        else System.out.println("  dollars: no price for " + model + " in eval.prices (a self-hosted model costs its server's time)");
        if (piloted) {
            System.out.printf(Locale.ROOT, "  from the pilot: calls %s, prompt tokens %s, completion tokens %s%s; time ≈ %s at %d questions in flight "
                            + "(the pilot's wall time per question; a busier server is slower)%n", human(pCalls), human(pPrompt), human(pCompl),
                    price != null ? String.format(Locale.ROOT, ", $%.2f", pDollars) : "", duration(pSeconds / Math.max(1, inFlight)), inFlight);
            if (computedKnown) System.out.printf(Locale.ROOT, "  from the pilot: prompt tokens computed ≈ %s of the %s sent%n", human(pComputed), human(pPrompt));
        } else {
            System.out.println("  time: depends on the server's speed; --pilot N measures it (at " + inFlight + " questions in flight)");
        }
    }

    private static String range(CostEstimate.Range r) { return human(r.low()) + "–" + human(r.high()); }

    static String human(double v) {
        if (v >= 1e9) return String.format(Locale.ROOT, "%.2fG", v / 1e9);
        if (v >= 1e6) return String.format(Locale.ROOT, "%.2fM", v / 1e6);
        if (v >= 1e4) return String.format(Locale.ROOT, "%.1fk", v / 1e3);
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    static String duration(double seconds) {
        if (seconds < 120) return String.format(Locale.ROOT, "%.0f s", seconds);
        if (seconds < 7200) return String.format(Locale.ROOT, "%.0f min", seconds / 60);
        return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
    }
}
