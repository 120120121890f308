package dev.gamagent.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A {@link ProgressEvent}'s data as the stream writes it: its fields in the order they are put. */
final class EventData {
    private final Map<String, Object> map = new LinkedHashMap<>();

    EventData put(String name, Object value) {
        map.put(name, value);
        return this;
    }

    Map<String, Object> map() { return Collections.unmodifiableMap(map); }
}
