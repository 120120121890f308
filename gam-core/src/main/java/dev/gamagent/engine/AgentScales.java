package dev.gamagent.engine;

import java.util.List;

/**
 * DREAM's assignment of image scales to the agents of the method it wraps, handed down as a tag of the run context
 * ({@code RunContext.withTag(AgentScales.class, …)}, read by {@link AgentImages}): {@code perAgent} holds the scales of
 * each agent index (several scales: the agent receives each image at each scale, MixRes; an index past the list takes the
 * last entry) and {@code note} the sentence every debate prompt appends ("" for none). {@link #NONE}: no assignment.
 */
public record AgentScales(List<List<Double>> perAgent, String note) {
    public static final AgentScales NONE = new AgentScales(List.of(), "");

    public AgentScales {
        perAgent = perAgent.stream().map(List::copyOf).toList();
        note = note == null ? "" : note;
    }

    /** The scales agent {@code index} sees: its entry of the assignment, else {@code own} alone. */
    public List<Double> of(int index, double own) {
        if (perAgent.isEmpty()) return List.of(own);
        List<Double> mine = perAgent.get(Math.min(index, perAgent.size() - 1));
        return mine.isEmpty() ? List.of(own) : mine;
    }

    public boolean assigned() { return !perAgent.isEmpty(); }
}
