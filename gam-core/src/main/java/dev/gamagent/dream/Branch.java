package dev.gamagent.dream;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The four branches of DREAM's probe round (DREAM §3.1, Fig. 2 and Fig. 4; docs/design.md §7), each knowing which scales
 * every agent then debates at and what note the debate prompts carry. Whether every readable probe agreed (our
 * Consensus) is recorded beside the branch, not as a fifth one ({@link ResolutionAssignment.Agreement}), so branch shares
 * compare with DREAM's Figure 4.
 */
sealed interface Branch {
    /** The name written to the trace: {@code StaticAll}, {@code PerAgent}, ... */
    String label();

    /** One list of scales per agent index (several scales: the agent receives each image at each). */
    List<List<Double>> assignment(int agents);

    /** The sentence appended to every debate prompt, or "". */
    default String note() { return ""; }

    /** No probe was confident: every agent debates at the base scale. */
    record StaticAll() implements Branch {
        public String label() { return "StaticAll"; }

        public List<List<Double>> assignment(int agents) { return repeat(List.of(1.0), agents); }
    }

    /** Confident answers agree and each agent has a confident scale: each agent at its own best scale. */
    record PerAgent(List<Double> bestScale) implements Branch {
        public PerAgent { bestScale = List.copyOf(bestScale); }

        public String label() { return "PerAgent"; }

        public List<List<Double>> assignment(int agents) {
            List<List<Double>> out = new ArrayList<>();
            for (int i = 0; i < agents; i++) out.add(List.of(bestScale.get(Math.min(i, bestScale.size() - 1))));
            return out;
        }
    }

    /**
     * Confident answers agree but an agent that answered had no confident scale: everyone gets the confident scales. When
     * they are one scale the payload is not mixed: no note, so each agent's round-0 request is its probe at that scale and
     * the probe's reply is its round-0 answer (docs/design.md §7), as under PerAgent.
     */
    record MixRes(List<Double> scales) implements Branch {
        public MixRes { scales = List.copyOf(scales); }

        public String label() { return "MixRes"; }

        public List<List<Double>> assignment(int agents) { return repeat(scales, agents); }

        @Override public String note() {
            if (scales.size() < 2) return "";
            return "You receive each image at several resolutions (" + describe(scales) + " of the original size): "
                    + "use the fine detail of the larger copies and the overview of the smaller ones.";
        }
    }

    /**
     * Confident answers disagree: everyone gets every probe scale and is told only that the probes disagreed
     * (docs/design.md §7: probe answers never reach the debate, so the note names none of them).
     */
    record ConflictMixRes(List<Double> scales) implements Branch {
        public ConflictMixRes { scales = List.copyOf(scales); }

        public String label() { return "ConflictMixRes"; }

        public List<List<Double>> assignment(int agents) { return repeat(scales, agents); }

        @Override public String note() {
            return "Quick probe answers disagreed at different resolutions. You receive each image at resolutions "
                    + describe(scales) + ": check the details at every resolution before you answer.";
        }
    }

    private static List<List<Double>> repeat(List<Double> scales, int agents) {
        List<List<Double>> out = new ArrayList<>();
        for (int i = 0; i < agents; i++) out.add(List.copyOf(scales));
        return out;
    }

    private static String describe(List<Double> scales) {
        return scales.stream().map(s -> String.format(Locale.ROOT, "%sx", s == Math.rint(s) ? Long.toString(s.longValue()) : s.toString()))
                .collect(Collectors.joining(", "));
    }
}
