package dev.gamagent.eval.load.mvbench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where a snapshot of MVBench's repository is and what its rows are, in the layout VLMEvalKit's MVBench
 * classes expect after their download (vlmeval/dataset/mvbench.py at e8e78f05, {@code prepare_dataset}).
 *
 * <p>Looked for, in order: {@code <data dir>/MVBench} (main branch) or {@code <data dir>/MVBench_MP4} (video
 * branch), a copy of the snapshot; the Hugging Face hub cache layout under the data directory
 * ({@code <data dir>/datasets--OpenGVLab--MVBench/snapshots/<commit>}, the commit named by
 * {@code refs/main} or {@code refs/video}); and the hub cache where VLMEvalKit downloads it
 * ({@code $HF_HUB_CACHE}, {@code $HUGGINGFACE_HUB_CACHE}, {@code $HF_HOME/hub}, else
 * {@code ~/.cache/huggingface/hub}), so a snapshot VLMEvalKit already fetched is used as it is.
 *
 * <p>Main branch: {@code json/<task>.json} for each of the 20 tasks, and the videos under {@code video/}
 * as VLMEvalKit leaves them after unzipping {@code video/*.zip} (a video still under
 * {@code video/data0613/}, where VLMEvalKit's {@code move_files} would take it from, is found there too).
 * Video branch: {@code test.json} ({@code root}: task → folder, {@code meta}: task → rows) and the mp4 files.
 */
public final class MvBenchLayout {
    private MvBenchLayout() { }

    /**
     * One question as VLMEvalKit's generated {@code MVBench.tsv} / {@code MVBench_MP4.tsv} holds it; {@code index}
     * is its position among all rows, as there. {@code start}/{@code end} are null when the row has none.
     * {@code problem} says why an item of the annotation file cannot be used (null when it can); its other
     * fields are then what could be read.
     */
    public record Row(int index, String task, String prefix, String dataType, boolean bound, Double start, Double end,
                      String video, String question, String answer, List<String> candidates, String problem) {
        public Row {
            candidates = candidates == null ? List.of() : List.copyOf(candidates);
        }

        static Row unusable(int index, String task, String prefix, String problem) {
            return new Row(index, task, prefix, null, false, null, null, null, null, null, List.of(), problem);
        }
    }

    /** VLMEvalKit's {@code HFCacheRoot()}: the hub cache it downloads datasets into. */
    public static List<Path> defaultHubCaches() {
        List<Path> out = new ArrayList<>();
        for (String var : List.of("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME")) {
            String v = System.getenv(var);
            if (v == null || v.isBlank()) continue;
            Path p = Path.of(v);
            out.add(p.getFileName() != null && p.getFileName().toString().equals("hub") ? p : p.resolve("hub"));
        }
        out.add(Path.of(System.getProperty("user.home"), ".cache", "huggingface", "hub"));
        return out;
    }

    /**
     * The snapshot's root for {@code variant}: the first place that holds the branch's layout.
     *
     * @throws IllegalArgumentException naming every place looked at and what each lacked
     */
    public static Path locate(MvBenchVariant variant, Path dataDir, List<Path> hubCaches) {
        List<String> looked = new ArrayList<>();
        for (Path c : candidates(variant, dataDir, hubCaches, looked)) {
            String lacks = lacks(variant, c);
            if (lacks == null) return c;
            looked.add(c + " (" + lacks + ")");
        }
        String want = variant.mp4() ? "test.json and the mp4 files of the repository's video branch"
                : "json/ (the 20 annotation files) and video/ of the repository's main branch";
        throw new IllegalArgumentException(variant.datasetName() + ": no snapshot of " + MvBenchVariant.REPOSITORY + " found; looked in "
                + String.join("; ", looked) + ". Put a snapshot (" + want + ") in " + (dataDir == null ? "the data directory"
                : dataDir.resolve(variant.dataset())) + ", e.g. huggingface-cli download " + MvBenchVariant.REPOSITORY
                + " --repo-type dataset" + (variant.mp4() ? " --revision video" : "") + " --local-dir " + variant.dataset()
                + (variant.mp4() ? "" : ", then unzip video/*.zip inside video/"));
    }

    /**
     * Where a snapshot for {@code variant} may be, most preferred first (whether or not it holds the layout):
     * what a benchmarks-by-name catalogue lists as this dataset's candidates.
     */
    public static List<Path> candidates(MvBenchVariant variant, Path dataDir, List<Path> hubCaches) {
        return candidates(variant, dataDir, hubCaches, new ArrayList<>());
    }

    private static List<Path> candidates(MvBenchVariant variant, Path dataDir, List<Path> hubCaches, List<String> looked) {
        List<Path> out = new ArrayList<>();
        if (dataDir != null) {
            out.add(dataDir.resolve(variant.dataset()));
            out.addAll(hubSnapshots(dataDir, variant.branch(), looked));
        }
        for (Path hub : hubCaches) out.addAll(hubSnapshots(hub, variant.branch(), looked));
        return out;
    }

    /** Snapshots of the repository in a hub cache under {@code hub}: the branch's commit first, then the others, newest first. */
    private static List<Path> hubSnapshots(Path hub, String branch, List<String> looked) {
        Path repo = hub.resolve("datasets--" + MvBenchVariant.REPOSITORY.replace("/", "--"));
        if (!Files.isDirectory(repo)) {
            looked.add(repo + " (absent)");
            return List.of();
        }
        List<Path> out = new ArrayList<>();
        try {
            Path ref = repo.resolve("refs").resolve(branch);
            if (Files.isRegularFile(ref)) out.add(repo.resolve("snapshots").resolve(Files.readString(ref).strip()));
        } catch (IOException e) {
            looked.add(repo.resolve("refs").resolve(branch) + " (unreadable: " + e.getMessage() + ")");
        }
        Path snapshots = repo.resolve("snapshots");
        if (Files.isDirectory(snapshots)) {
            try (Stream<Path> s = Files.list(snapshots)) {
                s.filter(Files::isDirectory).filter(p -> !out.contains(p))
                        .sorted(Comparator.comparing((Path p) -> p.toFile().lastModified()).reversed()).forEach(out::add);
            } catch (IOException e) {
                looked.add(snapshots + " (unreadable: " + e.getMessage() + ")");
            }
        }
        return out;
    }

    /** What {@code root} lacks to be the variant's snapshot, or null when it has it. */
    public static String lacks(MvBenchVariant variant, Path root) {
        if (!Files.isDirectory(root)) return "absent";
        if (variant.mp4()) return Files.isRegularFile(root.resolve("test.json")) ? null : "no test.json";
        if (!Files.isDirectory(root.resolve("json"))) return "no json/ folder";
        List<String> missing = new ArrayList<>();
        for (MvBenchTask t : MvBenchTask.values()) if (!Files.isRegularFile(root.resolve("json").resolve(t.jsonFile()))) missing.add(t.jsonFile());
        if (!missing.isEmpty()) return "json/ lacks " + String.join(", ", missing);
        if (!Files.isDirectory(root.resolve("video"))) return "no video/ folder";
        try (Stream<Path> s = Files.list(root.resolve("video"))) {
            List<Path> entries = s.toList();
            boolean zipsOnly = !entries.isEmpty() && entries.stream().allMatch(p -> p.getFileName().toString().endsWith(".zip"));
            if (zipsOnly) return "the videos are still zipped: unzip video/*.zip inside video/, as VLMEvalKit's prepare_dataset does";
        } catch (IOException e) {
            return "video/ unreadable (" + e.getMessage() + ")";
        }
        return null;
    }

    /** Every row of the snapshot at {@code root}, in VLMEvalKit's order. */
    public static List<Row> rows(MvBenchVariant variant, Path root) {
        return variant.mp4() ? mp4Rows(root) : mainRows(root);
    }

    private static List<Row> mainRows(Path root) {
        List<Row> rows = new ArrayList<>();
        for (MvBenchTask t : MvBenchTask.values()) {
            Path file = root.resolve("json").resolve(t.jsonFile());
            JsonNode items = read(file);
            if (!items.isArray()) throw new IllegalArgumentException(file + ": expected a JSON list of questions");
            for (int i = 0; i < items.size(); i++) {
                JsonNode d = items.get(i);
                String where = "json/" + t.jsonFile() + " item " + i;
                try {
                    rows.add(new Row(rows.size(), t.label(), t.prefix(), t.dataType(), t.bounded(), seconds(d, "start", where),
                            seconds(d, "end", where), text(d, "video", where), text(d, "question", where), text(d, "answer", where),
                            candidates(d, where), null));
                } catch (IllegalArgumentException e) {
                    rows.add(Row.unusable(rows.size(), t.label(), t.prefix(), e.getMessage()));
                }
            }
        }
        return rows;
    }

    private static List<Row> mp4Rows(Path root) {
        Path file = root.resolve("test.json");
        JsonNode json = read(file);
        JsonNode prefixes = json.path("root"), meta = json.path("meta");
        if (!prefixes.isObject() || !meta.isObject()) throw new IllegalArgumentException(file + ": expected an object with 'root' and 'meta'");
        List<Row> rows = new ArrayList<>();
        for (var it = meta.fields(); it.hasNext(); ) {
            var task = it.next();
            if (!prefixes.has(task.getKey())) throw new IllegalArgumentException(file + ": task '" + task.getKey() + "' has rows in 'meta' but no folder in 'root'");
            String prefix = prefixes.get(task.getKey()).asText();
            if (!task.getValue().isArray()) throw new IllegalArgumentException(file + ": meta['" + task.getKey() + "'] is not a list");
            for (int i = 0; i < task.getValue().size(); i++) {
                JsonNode d = task.getValue().get(i);
                String where = "test.json meta['" + task.getKey() + "'] item " + i;
                try {
                    rows.add(new Row(rows.size(), task.getKey(), prefix, "video", false, null, null, text(d, "video", where),
                            text(d, "question", where), text(d, "answer", where), candidates(d, where), null));
                } catch (IllegalArgumentException e) {
                    rows.add(Row.unusable(rows.size(), task.getKey(), prefix, e.getMessage()));
                }
            }
        }
        return rows;
    }

    /**
     * Where a row's video is: {@code root/prefix/video} (VLMEvalKit's path), else the same place under
     * {@code video/data0613/}, where the snapshot keeps some videos until VLMEvalKit moves them.
     */
    public static Path videoPath(Path root, Row row) {
        Path p = root.resolve(row.prefix()).resolve(row.video());
        if (Files.exists(p) || !row.prefix().startsWith("video/")) return p;
        Path staged = root.resolve("video").resolve("data0613").resolve(row.prefix().substring("video/".length())).resolve(row.video());
        return Files.exists(staged) ? staged : p;
    }

    private static JsonNode read(Path file) {
        try {
            return Json.MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": not readable JSON (" + firstLine(e.getMessage()) + ")", e);
        }
    }

    private static String text(JsonNode d, String field, String where) {
        JsonNode v = d.get(field);
        if (v == null || v.isNull()) throw new IllegalArgumentException(where + ": missing '" + field + "'");
        return v.asText();
    }

    private static Double seconds(JsonNode d, String field, String where) {
        JsonNode v = d.get(field);
        if (v == null || v.isNull()) return null;
        if (v.isNumber()) return v.asDouble();
        try {
            return Double.parseDouble(v.asText().strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": '" + field + "' is not a number of seconds: '" + v.asText() + "'");
        }
    }

    private static List<String> candidates(JsonNode d, String where) {
        JsonNode c = d.get("candidates");
        if (c == null || !c.isArray() || c.isEmpty()) throw new IllegalArgumentException(where + ": 'candidates' is not a non-empty list");
        List<String> out = new ArrayList<>();
        c.forEach(x -> out.add(x.asText()));
        return out;
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }
}
