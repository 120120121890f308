package dev.gamagent.eval.data;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * VLMEvalKit's dataset tables at the pinned commit, as {@code bench/vlmevalkit-catalogue.py} extracted them into the
 * resource {@code /datasets/vlmevalkit-<commit8>.json}: every download key with its URL, md5, class, task type, modality
 * and how VLMEvalKit grades it; and the word tables of VLMEvalKit's VQA answer normalisation. The catalogue
 * ({@link DatasetCatalogue#builtIn()}) supports by name every image row with a URL whose grading is in
 * {@link #supportedGradings()}.
 *
 * @param commit            the VLMEvalKit commit the tables were read at
 * @param rows              one per download key, in the file's order
 * @param supportedGradings the gradings gam implements (VLMEvalKit's rule-based ones)
 * @param normalisation     {@code vqa_eval.py}'s articles, number words and contractions, and smp's punctuation list
 */
public record VlmEvalKitTable(String commit, List<Row> rows, Set<String> supportedGradings, JsonNode normalisation) {
    /**
     * One download key.
     *
     * @param grading  VLMEvalKit's grading: a rule gam implements, or what it needs ({@code judge}, {@code video},
     *                 {@code other: …})
     * @param definedIn the file defining the class's DATASET_URL
     * @param evaluate the file and class whose evaluate() grades it
     */
    public record Row(String name, String url, String md5, String cls, String definedIn, String list, String type, String modality,
                      String evaluate, String grading) {
        /** Whether gam grades it by VLMEvalKit's own rule and can download it. */
        public boolean supportedBy(Set<String> gradings) {
            return "IMAGE".equals(modality) && url != null && gradings.contains(grading);
        }
    }

    public VlmEvalKitTable {
        rows = List.copyOf(rows);
        supportedGradings = Set.copyOf(supportedGradings);
    }

    /** The resource holding the table of {@code commit}. */
    public static String resource(String commit) { return "/datasets/vlmevalkit-" + commit.substring(0, 8) + ".json"; }

    private static final String PINNED = "e8e78f05f3080fe28154f2130321f17951c3be94";
    private static final VlmEvalKitTable BUILT_IN = read(PINNED);

    /** The committed table of the catalogue's commit. */
    public static VlmEvalKitTable builtIn() { return BUILT_IN; }

    /** The committed table of {@code commit}. */
    public static VlmEvalKitTable read(String commit) {
        String name = resource(commit);
        try (InputStream in = VlmEvalKitTable.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("resource " + name + " is missing from the jar (bench/vlmevalkit-catalogue.py writes it)");
            return parse(Json.MAPPER.readTree(in), name);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + name + ": " + e.getMessage(), e);
        }
    }

    static VlmEvalKitTable parse(JsonNode root, String source) {
        String commit = root.path("vlmevalkit").path("commit").asText("");
        if (!commit.matches("[0-9a-f]{40}")) throw new IllegalArgumentException(source + ": no 40-digit vlmevalkit.commit");
        List<Row> rows = new ArrayList<>();
        for (JsonNode n : root.path("datasets")) {
            rows.add(new Row(text(n, "name"), text(n, "url"), text(n, "md5"), text(n, "class"), text(n, "defined_in"), text(n, "list"),
                    text(n, "type"), text(n, "modality"), text(n, "evaluate"), text(n, "grading")));
        }
        List<String> gradings = new ArrayList<>();
        root.path("supported_gradings").forEach(g -> gradings.add(g.asText()));
        return new VlmEvalKitTable(commit, rows, Set.copyOf(gradings), root.path("vqa_normalisation"));
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** The row of {@code name} (exact), or null. */
    public Row find(String name) {
        for (Row r : rows) if (r.name().equals(name)) return r;
        return null;
    }
}
