package dev.gamagent.eval.data;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.EditDistance;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The benchmarks gam knows by name, read from the resource {@code /datasets/catalogue.json} (data, not
 * code). Every field is checked when it is read, so a typo in the catalogue fails the build's tests
 * rather than a user's download.
 *
 * @param vlmEvalKitCommit the VLMEvalKit commit the URLs and md5 values were read from
 * @param redirectDomains  domains the catalogue's hosts send downloads on to (Hugging Face's file storage): a
 *                         redirect to them or their subdomains is followed ({@link DownloadHosts})
 * @param unsupported      VLMEvalKit's datasets (of the committed table) that are not entries, each with what it needs
 */
public record DatasetCatalogue(List<DatasetEntry> entries, String vlmEvalKitCommit, String vlmEvalKitDate, List<String> redirectDomains,
                               List<Unsupported> unsupported) {
    public static final String RESOURCE = "/datasets/catalogue.json";

    /** The kinds of storage entries may name; a new kind (video) is added here. */
    public static final List<DatasetKind> KINDS = List.of(DatasetKind.VLMEVALKIT_TSV, DatasetKind.M3MAD_JSON, DatasetKind.MVBENCH_SNAPSHOT);

    private static final Set<String> FIELDS = Set.of("name", "kind", "file", "url", "md5", "bytes", "grading", "answers", "stand_in",
            "submit_to", "papers", "defined_in", "build", "note");
    private static final Set<String> GRADINGS = Set.of("multiple-choice", "yes-no", "mathvista", "open", "m3mad", "mvbench",
            "vqa-score", "vqa-match", "anls", "relaxed", "exact", "exact-max", "contains", "mtvqa", "ocrbench", "tallyqa", "zerobench", "exact-text", "spatial-mcq", "boxed-option", "medqbench-option");

    /**
     * A VLMEvalKit dataset gam does not support by name, and what it would need.
     *
     * @param needs what stands in the way: a judge model, video, a grading gam does not implement, no download URL ...
     */
    public record Unsupported(String name, String needs, String definedIn) { }

    public DatasetCatalogue {
        entries = List.copyOf(entries);
        redirectDomains = List.copyOf(redirectDomains);
        unsupported = unsupported == null ? List.of() : List.copyOf(unsupported);
    }

    /**
     * The catalogue shipped in the jar: the hand-kept entries of {@code catalogue.json} (gam's own benchmarks, stand-ins,
     * notes), then every dataset of the committed VLMEvalKit table ({@link VlmEvalKitTable}) that gam grades by
     * VLMEvalKit's own rule; the table's other datasets are {@link #unsupported()}.
     */
    public static DatasetCatalogue builtIn() {
        DatasetCatalogue hand;
        try (InputStream in = DatasetCatalogue.class.getResourceAsStream(RESOURCE)) {
            if (in == null) throw new IllegalStateException("resource " + RESOURCE + " is missing from the jar");
            hand = parse(Json.MAPPER.readTree(in), RESOURCE);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
        return hand.with(VlmEvalKitTable.read(hand.vlmEvalKitCommit()));
    }

    /**
     * This catalogue and the datasets of {@code table} it does not name: those gam grades by VLMEvalKit's rule as entries
     * (kind {@code vlmevalkit-tsv}, the table's URL, md5 and grading), the others as {@link Unsupported}. A name that
     * differs from a known one only in case is not added (its file would take the other's place on a case-blind disk).
     */
    public DatasetCatalogue with(VlmEvalKitTable table) {
        List<DatasetEntry> out = new ArrayList<>(entries);
        List<Unsupported> rest = new ArrayList<>(unsupported);
        Map<String, String> known = new LinkedHashMap<>();
        for (DatasetEntry e : entries) known.put(e.name().toLowerCase(Locale.ROOT), e.name());
        for (VlmEvalKitTable.Row r : table.rows()) {
            if (find(r.name()) != null && find(r.name()).name().equals(r.name())) continue;
            String definedIn = r.definedIn() + " " + r.cls();
            String clash = known.get(r.name().toLowerCase(Locale.ROOT));
            if (clash != null) {
                rest.add(new Unsupported(r.name(), "its name differs from " + clash + " only in case (one file name on a case-blind disk)", definedIn));
            } else if (r.supportedBy(table.supportedGradings())) {
                out.add(new DatasetEntry(r.name(), DatasetKind.VLMEVALKIT_TSV.name(), DatasetKind.VLMEVALKIT_TSV.defaultFile(r.name()), r.url(), r.md5(),
                        null, r.grading(), true, null, null, List.of(), definedIn, null, null));
                known.put(r.name().toLowerCase(Locale.ROOT), r.name());
            } else {
                rest.add(new Unsupported(r.name(), needs(r), definedIn));
            }
        }
        return new DatasetCatalogue(out, vlmEvalKitCommit, vlmEvalKitDate, redirectDomains, rest);
    }

    private static String needs(VlmEvalKitTable.Row r) {
        if ("VIDEO".equals(r.modality())) return "video (a video benchmark)";
        if (!"IMAGE".equals(r.modality())) return "text only (" + r.modality() + ")";
        if (r.url() == null) return "a download VLMEvalKit does not publish as one TSV (its class fetches or builds the data); grading: " + r.grading();
        if (r.grading().equals("judge")) return "a judge model (VLMEvalKit's " + r.evaluate() + " evaluate() asks one)";
        if (r.grading().startsWith("other: ")) return r.grading().substring("other: ".length());
        return "grading " + r.grading() + ", which gam does not implement";
    }

    /** Reads and checks a catalogue; {@code source} names it in errors. */
    public static DatasetCatalogue parse(JsonNode root, String source) {
        JsonNode list = root.path("datasets");
        if (!list.isArray()) throw new IllegalArgumentException(source + ": no 'datasets' list");
        List<DatasetEntry> out = new ArrayList<>();
        Map<String, DatasetEntry> byName = new LinkedHashMap<>();
        for (JsonNode n : list) {
            String name = text(n, "name");
            String where = source + ": dataset '" + name + "'";
            if (name == null || !name.matches("[A-Za-z0-9_.-]+")) throw new IllegalArgumentException(source + ": a dataset without a valid name: " + n);
            n.fieldNames().forEachRemaining(f -> {
                if (!FIELDS.contains(f)) throw new IllegalArgumentException(where + ": unknown field '" + f + "' (known: " + FIELDS + ")");
            });
            DatasetKind kind = kind(text(n, "kind"), where);
            if (kind.snapshot() && !name.equals(DatasetKind.variant(name).datasetName())) {
                throw new IllegalArgumentException(where + ": spelled unlike VLMEvalKit's " + DatasetKind.variant(name).datasetName());
            }
            String md5 = text(n, "md5");
            if (md5 != null && !md5.matches("[0-9a-f]{32}")) throw new IllegalArgumentException(where + ": md5 '" + md5 + "' is not 32 hex digits");
            String url = text(n, "url");
            if (url != null && !url.startsWith("https://") && !url.startsWith("http://")) {
                throw new IllegalArgumentException(where + ": url '" + url + "' is not an http(s) URL");
            }
            Long bytes = null;
            if (n.hasNonNull("bytes")) {
                if (!n.get("bytes").isIntegralNumber() || n.get("bytes").asLong() <= 0) {
                    throw new IllegalArgumentException(where + ": bytes '" + n.get("bytes") + "' is not a positive whole number");
                }
                bytes = n.get("bytes").asLong();
            }
            String grading = text(n, "grading");
            if (!GRADINGS.contains(grading)) throw new IllegalArgumentException(where + ": grading '" + grading + "' is not one of " + GRADINGS);
            List<String> papers = new ArrayList<>();
            n.path("papers").forEach(p -> papers.add(p.asText()));
            String file = text(n, "file");
            DatasetEntry e = new DatasetEntry(name, kind.name(), file != null ? file : kind.defaultFile(name), url, md5, bytes, grading,
                    !n.has("answers") || n.get("answers").asBoolean(), text(n, "stand_in"), text(n, "submit_to"), papers,
                    text(n, "defined_in"), text(n, "build"), text(n, "note"));
            if (url == null && e.build() == null) throw new IllegalArgumentException(where + ": neither a url nor a build command");
            if (byName.put(name.toLowerCase(Locale.ROOT), e) != null) throw new IllegalArgumentException(where + ": listed twice");
            out.add(e);
        }
        for (DatasetEntry e : out) {
            if (e.standIn() != null && !byName.containsKey(e.standIn().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException(source + ": dataset '" + e.name() + "': stand_in '" + e.standIn() + "' is not in the catalogue");
            }
        }
        List<String> domains = new ArrayList<>();
        root.path("redirect_domains").path("domains").forEach(d -> {
            if (!d.isTextual() || !d.asText().matches("[a-z0-9-]+(\\.[a-z0-9-]+)+")) {
                throw new IllegalArgumentException(source + ": redirect_domains: '" + d.asText() + "' is not a domain name");
            }
            domains.add(d.asText());
        });
        JsonNode vk = root.path("vlmevalkit");
        return new DatasetCatalogue(out, vk.path("commit").asText(null), vk.path("date").asText(null), domains, List.of());
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** The kind named {@code name}. */
    public static DatasetKind kind(String name, String where) {
        for (DatasetKind k : KINDS) if (k.name().equals(name)) return k;
        throw new IllegalArgumentException(where + ": kind '" + name + "' is not one of "
                + KINDS.stream().map(DatasetKind::name).toList());
    }

    /** The entry called {@code name} (exact, then ignoring case), or null. */
    public DatasetEntry find(String name) {
        for (DatasetEntry e : entries) if (e.name().equals(name)) return e;
        for (DatasetEntry e : entries) if (e.name().equalsIgnoreCase(name)) return e;
        return null;
    }

    /** The entry called {@code name}; an unknown name is an error naming the nearest known ones. */
    public DatasetEntry require(String name) {
        DatasetEntry e = find(name);
        if (e != null) return e;
        List<String> near = nearest(name, 3);
        throw new IllegalArgumentException("'" + name + "' is neither a file nor a benchmark gam knows"
                + (near.isEmpty() ? "" : "; did you mean " + String.join(", ", near) + "?") + " ('gam data list' shows them all)");
    }

    /** The {@code n} known names closest to {@code name} (case ignored), nearest first. */
    public List<String> nearest(String name, int n) {
        String lower = name.toLowerCase(Locale.ROOT);
        return entries.stream().map(DatasetEntry::name)
                .sorted(Comparator.comparingInt((String s) -> EditDistance.between(lower, s.toLowerCase(Locale.ROOT))).thenComparing(s -> s))
                .filter(s -> EditDistance.between(lower, s.toLowerCase(Locale.ROOT)) <= Math.max(3, lower.length() / 3))
                .limit(n).toList();
    }
}
