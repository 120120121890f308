package dev.gamagent.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Json;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a question is, as one hash: its text, hint, options (letter and text, in order), expected answer and images. Two
 * runs are compared on a question only when both asked it with the same content, whatever its id ({@link RunPairing}).
 * An image counts as the bytes the run read when it kept them (a file's JPEG or PNG), else as its pixels (a drawn or
 * scaled image): two runs that showed a model different pixels did not ask the same question.
 *
 * <p>{@code gam eval} writes each question's hash (by group: a circular question's rotation 0) into summary.json under
 * {@value #FIELD}; the records are not changed.
 */
public final class QuestionHashes {
    private QuestionHashes() { }

    /** The summary.json key: group id → content hash. */
    public static final String FIELD = "question_hashes";

    /** Hex digits kept of the SHA-256 (128 bits: no two of a benchmark's questions collide by chance). */
    private static final int HEX = 32;

    /** The content hash of a question with its images. */
    public static String of(KeyedQuestion q, List<Picture> images) {
        MessageDigest d = sha256();
        field(d, "text", q.text());
        field(d, "hint", q.hint());
        q.options().forEach((k, v) -> field(d, "option " + k, v));
        field(d, "answer", q.groundTruth());
        for (Picture p : images) field(d, "image", imageHash(p));
        return HexFormat.of().formatHex(d.digest()).substring(0, HEX);
    }

    private static String imageHash(Picture p) {
        MessageDigest d = sha256();
        if (!p.isDecoded()) {
            d.update(p.encoding().base64());
        } else {
            int w = p.width(), h = p.height();
            int[] row = new int[w];
            ByteBuffer b = ByteBuffer.allocate(4 * w);
            d.update(ByteBuffer.allocate(8).putInt(w).putInt(h).array());
            for (int y = 0; y < h; y++) {
                p.image().getRGB(0, y, w, 1, row, 0, w);
                b.clear();
                b.asIntBuffer().put(row);
                d.update(b.array());
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }

    /** A length-prefixed field, so "ab"+"c" and "a"+"bc" differ; null differs from "". */
    private static void field(MessageDigest d, String name, String value) {
        d.update(name.getBytes(StandardCharsets.UTF_8));
        if (value == null) { d.update((byte) 0); return; }
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        d.update((byte) 1);
        d.update(ByteBuffer.allocate(4).putInt(v.length).array());
        d.update(v);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** The summary field: group → hash, in group order. */
    public static JsonNode field(Map<String, String> hashes) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        new TreeMap<>(hashes).forEach(o::put);
        return o;
    }

    /** The hashes a summary.json holds, or null when it has none (written before they were recorded, or by {@code gam grade}). */
    public static Map<String, String> read(JsonNode summary) {
        JsonNode h = summary == null ? null : summary.get(FIELD);
        if (h == null || !h.isObject()) return null;
        Map<String, String> out = new LinkedHashMap<>();
        h.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    /**
     * The content hash of every question of the run by group: those hashed as they ran, the others (answered by an
     * earlier, resumed run) read again with their images.
     */
    public static Map<String, String> ofRun(List<EvalQuestion> originals, Set<String> badGroups, Map<String, String> hashed) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (EvalQuestion q : originals) {
            String group = groupOf(q);
            if (badGroups.contains(group)) continue;
            String h = hashed.get(group);
            if (h == null) {
                try {
                    var full = q.question();
                    h = QuestionHashes.of(full, full.images());
                } catch (RuntimeException unreadable) {
                    continue; // its images cannot be read again: the question is not compared across runs
                }
            }
            out.put(group, h);
        }
        return out;
    }

    /** A question's item id as the summary counts it: its group, or its id when it has none. */
    public static String groupOf(EvalQuestion q) { return q.group() == null ? q.id() : q.group(); }
}
