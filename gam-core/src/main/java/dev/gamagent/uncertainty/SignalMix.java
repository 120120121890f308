package dev.gamagent.uncertainty;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.UncertaintySignal;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which uncertainty signal each method's agents ran on (docs/metrics.md, "Signal mix"): agent turns of every
 * round, and DREAM's probes, counted by their trace {@code signal} (logprobs-topk, logprobs-chosen, sampling,
 * semantic, fixed). A method whose turns are mostly {@code semantic} ran GAM without a real uncertainty signal.
 */
public final class SignalMix {
    private SignalMix() { }

    /** Signal → number of agent turns and probes, over the traces (a null trace counts nothing). */
    public static Map<String, Long> of(List<JsonNode> traces) {
        Map<String, Long> out = new TreeMap<>();
        for (JsonNode t : traces) count(t, out);
        return out;
    }

    /** Adds one trace's agent turns and probes to {@code out}. */
    public static void count(JsonNode trace, Map<String, Long> out) {
        if (trace == null) return;
        for (JsonNode round : trace.path("rounds")) {
            for (JsonNode a : round.path("agents")) {
                String s = a.path("signal").asText("");
                if (!s.isEmpty()) out.merge(s, 1L, Long::sum);
            }
        }
        for (JsonNode p : trace.path("extra").path("probes")) {
            String s = p.path("signal").asText("");
            if (!s.isEmpty()) out.merge(s, 1L, Long::sum);
        }
    }

    /** Whether any agent turn or probe of this trace fell back to hedge words ({@code semantic}). */
    public static boolean usedSemantic(JsonNode trace) {
        Map<String, Long> m = new TreeMap<>();
        count(trace, m);
        return m.containsKey(UncertaintySignal.SEMANTIC.label());
    }

    /** "logprobs-topk 39%, fixed 61%" (shares of the turns), or "-" when there were none. */
    public static String describe(Map<String, Long> mix) {
        long total = mix == null ? 0 : mix.values().stream().mapToLong(Long::longValue).sum();
        if (total == 0) return "-";
        StringBuilder sb = new StringBuilder();
        mix.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue())).forEach(e -> {
            if (sb.length() > 0) sb.append(", ");
            sb.append(e.getKey()).append(' ').append(String.format(Locale.ROOT, "%.0f%%", 100.0 * e.getValue() / total));
        });
        return sb.toString();
    }
}
