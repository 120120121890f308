package dev.gamagent.bench.golden;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;

/**
 * A run's results as a golden record (issue 29): every line of {@code results.jsonl} with its trace, the times taken
 * removed (keys in {@link #TIMING}), object keys sorted, lines ordered by question, rotation and method, so two runs
 * of the same code give the same bytes and a refactoring that changes any answer, trace field or token count does not.
 *
 * <p>Usage: {@code GoldenRecord RESULTS.jsonl OUT.jsonl.gz}: writes the record (gzip, fixed header time) and prints
 * its SHA-256 and line count.
 */
public final class GoldenRecord {
    /** What a run measures of the clock, not of the method: left out of the record. */
    static final Set<String> TIMING = Set.of("millis");

    private GoldenRecord() { }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: GoldenRecord RESULTS.jsonl OUT.jsonl.gz");
            System.exit(2);
        }
        List<String> lines = normalise(Path.of(args[0]));
        byte[] text = record(lines);
        // Java's gzip header holds no time of writing: the same record gives the same file
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(Path.of(args[1])))) {
            out.write(text);
        }
        System.out.println(sha256(text) + "  " + lines.size() + " lines  " + args[0]);
    }

    /**
     * The SHA-256 that {@code bench/golden.sh} records for a run's {@code results.jsonl} (the record's bytes before gzip):
     * what {@code bench/doc-tables.sh} stamps on the tables it regenerates and {@code DocTablesTest} recomputes.
     */
    public static String sha256Of(Path results) throws IOException {
        return sha256(record(normalise(results)));
    }

    private static byte[] record(List<String> lines) {
        return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** The file's records, normalised and in a fixed order. */
    static List<String> normalise(Path results) throws IOException {
        List<JsonNode> records = new ArrayList<>();
        for (String l : Files.readAllLines(results, StandardCharsets.UTF_8)) {
            if (!l.isBlank()) records.add(canonical(Json.MAPPER.readTree(l)));
        }
        records.sort(Comparator.comparing((JsonNode r) -> r.path("questionId").asText()).thenComparingInt(r -> r.path("rotation").asInt())
                .thenComparing(r -> r.path("method").asText()));
        List<String> out = new ArrayList<>();
        for (JsonNode r : records) out.add(Json.MAPPER.writeValueAsString(r));
        return out;
    }

    /** A copy without timing keys, with every object's keys in sorted order. */
    static JsonNode canonical(JsonNode n) {
        if (n.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!TIMING.contains(k)) sorted.put(k, canonical(n.get(k)));
            }
            ObjectNode o = Json.MAPPER.createObjectNode();
            sorted.forEach(o::set);
            return o;
        }
        if (n.isArray()) {
            ArrayNode a = Json.MAPPER.createArrayNode();
            for (JsonNode x : n) a.add(canonical(x));
            return a;
        }
        return n;
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
