package dev.gamagent.api;

import dev.gamagent.config.Config;

import java.util.Map;
import java.util.Optional;

/** A strategy that turns a question into a final answer using backends (single, cot, gam, dream+gam, ...). */
public interface Method {
    /** The name users type: {@code single}, {@code gam}, {@code dream+debate}, ... */
    String name();

    /** Runs the method on one question. Never returns null; failures of every agent throw {@link MethodFailure}. */
    Answer run(Question question, RunContext context);

    /**
     * Where {@code config} names a backend for one of this method's agents, critics or judges: config key →
     * backend name (e.g. {@code gam.experts[1].backend → vllm-b}), so a run can check every name and server
     * before it starts. Empty when every agent uses the run's default backend.
     *
     * @throws dev.gamagent.config.Config.ConfigException when the configuration's agent backends are malformed
     */
    default Map<String, String> backendRefs(Config config) { return Map.of(); }

    /**
     * The model calls one question costs under {@code config}, read from the same settings the run reads (the cost
     * estimate and {@code gam reproduce} ask here); empty when the method states no count.
     *
     * @throws dev.gamagent.config.Config.ConfigException when the settings the count needs are malformed
     */
    default Optional<CallPlan> plannedCalls(Config config) { return Optional.empty(); }
}
