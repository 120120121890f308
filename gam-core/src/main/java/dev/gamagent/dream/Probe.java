package dev.gamagent.dream;

import dev.gamagent.backend.TokenCount;

/**
 * One probe: agent {@code agent} (index {@code agentIndex} of the inner method's panel, in its {@code role}, on
 * the backend named {@code backend}) answered at {@code scale} (images of {@code width}×{@code height} after
 * that backend's pixel cap) with ANLL uncertainty {@code u}; {@code error} set when the call failed (then u = 1).
 * {@code request} says what was asked: {@code round-0} (the inner method's own round-0 request, docs/design.md §7) or
 * {@code dream_probe} (DREAM's one-line prompt, for a method whose agents speak in turn); {@code reused} is true when
 * the inner method's round 0 sent exactly this request and got this reply instead of a second call: its tokens are
 * then counted in round 0, not in the probe round. {@code frames} is how many images the probe sent (a video's frames,
 * every one at this scale; {@code width}×{@code height} is the first's size) and {@code pixels} their pixels together,
 * so a probe of 8 frames is seen to cost 8 frames' pixels (its {@code tokens} are the server's count for all of them).
 */
public record Probe(String agent, int agentIndex, String role, String backend, double scale, int width, int height,
                    String answer, String option, String key, double u, String signal, boolean confident, TokenCount tokens,
                    String error, String request, boolean reused, int frames, long pixels) {
    /** A probe of one image of {@code width}×{@code height} (none when the width is 0). */
    public Probe(String agent, int agentIndex, String role, String backend, double scale, int width, int height, String answer,
                 String option, String key, double u, String signal, boolean confident, TokenCount tokens, String error) {
        this(agent, agentIndex, role, backend, scale, width, height, answer, option, key, u, signal, confident, tokens, error,
                "dream_probe", false, width > 0 ? 1 : 0, (long) width * height);
    }

    public Probe withConfident(boolean c) {
        return new Probe(agent, agentIndex, role, backend, scale, width, height, answer, option, key, u, signal, c, tokens, error,
                request, reused, frames, pixels);
    }

    public Probe withReused(boolean r) {
        return new Probe(agent, agentIndex, role, backend, scale, width, height, answer, option, key, u, signal, confident, tokens,
                error, request, r, frames, pixels);
    }

    /** This probe's images: {@code frames} of them, {@code pixels} together. */
    Probe withImages(int n, long px) {
        return new Probe(agent, agentIndex, role, backend, scale, width, height, answer, option, key, u, signal, confident, tokens,
                error, request, reused, n, px);
    }

    public boolean ok() { return error == null; }
}
