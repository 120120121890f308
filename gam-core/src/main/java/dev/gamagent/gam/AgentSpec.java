package dev.gamagent.gam;

import dev.gamagent.engine.Role;

/**
 * One configured GAM agent: a stable id (kept across rounds), its role, the backend name it uses
 * (null = the run's default backend; resolved with {@code RunContext.backendFor}) and its image scale.
 */
record AgentSpec(String id, Role role, String backend, double scale) {
    public AgentSpec {
        if (!(scale > 0)) throw new IllegalArgumentException("agent " + id + ": scale must be > 0, got " + scale);
    }
}
