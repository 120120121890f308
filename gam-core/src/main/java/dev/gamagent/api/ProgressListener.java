package dev.gamagent.api;

import java.util.Map;

/** Receives progress events while a method runs (round started, agent answered, weights updated...). */
@FunctionalInterface
public interface ProgressListener {
    ProgressListener NONE = (type, data) -> { };

    /** @param type a short event name, e.g. {@code round_started}, {@code agent_answered}, {@code weights} */
    void event(String type, Map<String, Object> data);
}
