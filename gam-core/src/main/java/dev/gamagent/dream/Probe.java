package dev.gamagent.dream;

import dev.gamagent.backend.TokenCount;

/**
 * One probe: agent {@code agent} (index {@code agentIndex} of the inner method's panel, in its {@code role}, on
 * the backend named {@code backend}) answered at {@code scale} (images of {@code width}×{@code height} after
 * that backend's pixel cap) with ANLL uncertainty {@code u}; {@code error} set when the call failed (then u = 1).
 */
public record Probe(String agent, int agentIndex, String role, String backend, double scale, int width, int height,
                    String answer, String option, String key, double u, String signal, boolean confident, TokenCount tokens,
                    String error) {
    public Probe withConfident(boolean c) {
        return new Probe(agent, agentIndex, role, backend, scale, width, height, answer, option, key, u, signal, c, tokens, error);
    }

    public boolean ok() { return error == null; }
}
