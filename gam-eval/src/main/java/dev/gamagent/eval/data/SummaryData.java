package dev.gamagent.eval.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Adds a field to a written {@code summary.json}: the benchmark file's provenance ({@code data_file}), the benchmark's own score. */
public final class SummaryData {
    private SummaryData() { }

    /** Sets {@code field} in {@code summaryJson}; does nothing when the file is not there (the run failed before writing it). */
    public static void addTo(Path summaryJson, String field, JsonNode value) {
        if (!Files.isRegularFile(summaryJson)) return;
        try {
            JsonNode root = Json.MAPPER.readTree(summaryJson.toFile());
            if (!(root instanceof ObjectNode o)) return;
            o.set(field, value);
            Files.writeString(summaryJson, Json.writePretty(o));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot add the data file's provenance to " + summaryJson + ": " + e.getMessage(), e);
        }
    }
}
