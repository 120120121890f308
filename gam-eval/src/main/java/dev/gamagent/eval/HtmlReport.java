package dev.gamagent.eval;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.eval.stats.Pairwise;
import dev.gamagent.uncertainty.SignalMix;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code report.html} and {@code gam report}'s comparison page: a page that opens from disk with no network. Tables are
 * plain HTML; the charts are drawn in the page by ECharts (bundled inline, SVG renderer); the answer list opens each
 * answer's debate in the trace viewer ({@code web/viewer.js}, shared with the {@code gam serve} page). The page carries
 * the summaries and one compact row per answer in a JSON script element; the debates themselves (traces and images)
 * are in a sidecar folder beside it ({@code report-debates/part-NNNN.js}, {@value #PART_ROWS} answers each, in list
 * order), loaded when an answer is opened, so the page stays small at any number of questions. Text is only ever set
 * as text.
 */
public final class HtmlReport {
    private HtmlReport() { }

    /**
     * One run to show: its name (empty for a single run), summary, the records behind it (may be empty), and small
     * images of its questions by question id (may be empty) for the trace viewer to draw claim regions on.
     */
    public record Run(String name, RunSummary summary, List<ResultRecord> records, Map<String, String> images) {
        public Run(String name, RunSummary summary, List<ResultRecord> records) { this(name, summary, records, Map.of()); }
    }

    /** Questions up to which {@link #thumbnails} embeds images (about 10–20 kB each, in the sidecar). */
    static final int MAX_THUMBNAILS = 600;

    /** Images up to this width and size (base64 characters) are embedded as they were read, not re-encoded. */
    static final int ORIGINAL_MAX_WIDTH = 640, ORIGINAL_MAX_BASE64 = 96 * 1024;

    /** Answers per sidecar part: opening one answer loads the debates of its neighbours in the list (the same question's other methods). */
    static final int PART_ROWS = 100;

    /** The page and its sidecar parts (file name → content), written together by {@link #write(Path, List, Pairwise.Report)}. */
    public record Page(String html, Map<String, String> parts) { }

    public static void write(Path file, RunSummary s) { write(file, s, List.of(), Map.of()); }

    public static void write(Path file, RunSummary s, List<ResultRecord> records, Map<String, String> images) {
        write(file, List.of(new Run("", s, records, images)), s.statistics());
    }

    /** {@code gam report}: several runs, every method a series "run / method"; {@code pairs} compares the series across runs. */
    public static void writeComparison(Path file, List<Run> runs, Pairwise.Report pairs) {
        write(file, runs, pairs);
    }

    /**
     * Writes the page to {@code file} and its debates to the folder {@link #sidecar} beside it (parts left by an earlier
     * report there are removed first, so a smaller run does not show stale debates).
     */
    static void write(Path file, List<Run> runs, Pairwise.Report pairs) {
        Path dir = sidecar(file);
        Page page = page(runs, pairs, dir.getFileName().toString());
        try {
            if (Files.isDirectory(dir)) {
                try (var old = Files.list(dir)) {
                    for (Path p : old.filter(p -> p.getFileName().toString().matches("part-\\d+\\.js")).toList()) Files.delete(p);
                }
            }
            if (!page.parts().isEmpty()) {
                Files.createDirectories(dir);
                for (var e : page.parts().entrySet()) Files.writeString(dir.resolve(e.getKey()), e.getValue());
            } else {
                Files.deleteIfExists(dir);
            }
            Files.writeString(file, page.html());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** The sidecar folder of a page: {@code report.html} → {@code report-debates}. */
    public static Path sidecar(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return file.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + "-debates");
    }

    /** The page of one run without answers (tables and plots only). */
    public static String render(RunSummary s) { return page(List.of(new Run("", s, List.of(), Map.of())), s.statistics(), "report-debates").html(); }

    /**
     * Each question's first image scaled to at most 420 px wide, as a JPEG data URL by question id; none when
     * there are more than {@value #MAX_THUMBNAILS} questions (the sidecar would grow too large). A small image read
     * from PNG or JPEG bytes is embedded as it is; others are decoded, scaled and encoded on all cores, since at a few
     * hundred questions this is most of the time the report takes.
     */
    public static Map<String, String> thumbnails(List<EvalQuestion> questions) {
        Map<String, String> out = new LinkedHashMap<>();
        if (questions.size() > MAX_THUMBNAILS) return out;
        String[] urls = new String[questions.size()];
        java.util.stream.IntStream.range(0, questions.size()).parallel().forEach(i -> urls[i] = thumbnail(questions.get(i)));
        for (int i = 0; i < urls.length; i++) if (urls[i] != null) out.put(questions.get(i).id(), urls[i]);
        return out;
    }

    /**
     * One question's thumbnail, or null when it has no image or its image cannot be read again (then it is shown without).
     * A question of several images (a video's frames) gets its frames side by side ({@link dev.gamagent.image.FrameStrip}),
     * which the trace viewer shows as a strip of frames in time order.
     */
    static String thumbnail(EvalQuestion q) {
        try {
            var pics = q.question().images();
            if (pics.isEmpty()) return null;
            if (pics.size() > 1) return jpegDataUrl(dev.gamagent.image.FrameStrip.of(pics));
            var p = pics.get(0);
            // an image still in the bytes it was read from and not much larger than the viewer draws it (420 px wide) goes
            // as it is: no decoding, no encoding (the viewer scales it)
            if (showsAsItIs(p)) return p.dataUrl();
            int w = Math.min(420, p.width()), h = Math.max(1, (int) Math.round(p.height() * (double) w / p.width()));
            // 3-byte BGR: the JPEG writer encodes its raster directly (from INT_RGB it copies pixel by pixel, most of the cost)
            java.awt.image.BufferedImage rgb = new java.awt.image.BufferedImage(w, h, java.awt.image.BufferedImage.TYPE_3BYTE_BGR);
            java.awt.Graphics2D g = rgb.createGraphics();
            g.setRenderingHint(java.awt.RenderingHints.KEY_INTERPOLATION, java.awt.RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            g.drawImage(p.image(), 0, 0, w, h, java.awt.Color.WHITE, null);
            g.dispose();
            return jpegDataUrl(rgb);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Whether a picture is shown as the bytes it was read from (not much larger than the viewer draws it): no decoding. */
    static boolean showsAsItIs(dev.gamagent.image.Picture p) {
        return !p.isDecoded() && p.width() <= ORIGINAL_MAX_WIDTH && p.encoding().base64().length <= ORIGINAL_MAX_BASE64;
    }

    private static String jpegDataUrl(java.awt.image.BufferedImage rgb) throws IOException {
        var bytes = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(rgb, "jpg", bytes);
        return "data:image/jpeg;base64," + java.util.Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    /** The page over {@code runs} (one run: a report; several: a comparison) and its sidecar parts, which live in folder {@code sidecar}. */
    public static Page page(List<Run> runs, Pairwise.Report pairs, String sidecar) {
        boolean comparison = runs.size() > 1;
        StringBuilder h = new StringBuilder();
        if (!comparison) {
            RunSummary s = runs.get(0).summary();
            head(h, "GAM-Agent evaluation: " + s.data());
            h.append("<header><h1>Evaluation of ").append(esc(s.data())).append("</h1>\n<p>")
                    .append(s.questions()).append(" questions").append(s.circular() ? " (circular evaluation: a question counts only if every option rotation is right)" : "")
                    .append("; methods: ").append(esc(String.join(", ", s.methods()))).append(".");
            if (s.command() != null) h.append(" Reproduce with <code>").append(esc(s.command())).append("</code>.");
            h.append(" Multiple-choice grading: ").append(esc(GradingMode.describeLabels(s.grading()))).append('.');
            h.append("</p></header>\n");
        } else {
            head(h, "GAM-Agent run comparison");
            h.append("<header><h1>Run comparison</h1>\n<p>");
            for (Run r : runs) {
                h.append("<b>").append(esc(r.name())).append("</b>: ").append(esc(r.summary().data())).append(", ")
                        .append(r.summary().questions()).append(" questions");
                if (r.summary().command() != null) h.append(" (<code>").append(esc(r.summary().command())).append("</code>)");
                h.append(". ");
            }
            h.append("</p></header>\n");
        }
        h.append("<nav class=toc><a href=\"#methods\">Methods</a> <a href=\"#pairs\">Differences</a> <a href=\"#plots\">Plots</a> "
                + "<a href=\"#answers\">Answers and debates</a> <a href=\"#categories\">Categories</a></nav>\n");
        Map<String, MethodMetrics> all = new LinkedHashMap<>();
        for (Run run : runs) {
            for (var m : run.summary().metrics().entrySet()) all.put(comparison ? run.name() + " / " + m.getKey() : m.getKey(), m.getValue());
        }
        h.append("<h2 id=methods>Methods</h2>\n");
        metricTable(h, all, comparison ? "run / method" : null, intervalLabel(runs, pairs));
        notes(h, all);
        backendTable(h, all);
        timingNote(h);
        if (!comparison) signals(h, runs.get(0).summary().signals());
        pairTable(h, pairs, comparison);
        flipTable(h, all);
        plots(h);
        samples(h, comparison);
        h.append("<h2 id=categories>Accuracy per category</h2>\n");
        Map<String, Map<String, RunSummary.Cell>> cats = new LinkedHashMap<>(), l2 = new LinkedHashMap<>();
        for (Run run : runs) {
            String prefix = comparison ? run.name() + " / " : "";
            if (run.summary().byCategory() != null) run.summary().byCategory().forEach((m, c) -> cats.put(prefix + m, c));
            if (run.summary().byL2Category() != null) run.summary().byL2Category().forEach((m, c) -> l2.put(prefix + m, c));
        }
        cellTable(h, "category", cats);
        if (!comparison) {
            h.append("<h2>Accuracy per l2-category</h2>\n");
            cellTable(h, "l2-category", l2);
            RunSummary s = runs.get(0).summary();
            if (!s.skipped().isEmpty()) {
                h.append("<h2>Skipped rows</h2>\n<ul>\n");
                for (SkippedRow r : s.skipped()) h.append("<li>row ").append(esc(r.index())).append(": ").append(esc(r.reason())).append("</li>\n");
                h.append("</ul>\n");
            }
        }
        h.append("<p class=note>Metric definitions: docs/metrics.md. Errors (backend failures) are excluded from every metric and retried on resume.</p>\n");
        Answers answers = answers(runs, sidecar);
        scripts(h, runs, pairs, answers);
        return new Page(h.append("</body></html>\n").toString(), answers.parts());
    }

    /** How the accuracy intervals shown were computed ("Wilson score"), from the pairs or any run's summary. */
    private static String intervalLabel(List<Run> runs, Pairwise.Report pairs) {
        if (pairs != null) return pairs.interval();
        for (Run r : runs) if (r.summary().statistics() != null) return r.summary().statistics().interval();
        return null;
    }

    /** Which uncertainty signal each method's agents ran on (semantic = hedge words only: no log-probs, no sampling). */
    private static void signals(StringBuilder h, Map<String, Map<String, Long>> mix) {
        if (mix == null || mix.values().stream().allMatch(Map::isEmpty)) return;
        h.append("<p class=signals>Uncertainty signals (agent turns and probes):");
        for (var e : mix.entrySet()) {
            if (e.getValue().isEmpty()) continue;
            h.append(" <b>").append(esc(e.getKey())).append("</b> ").append(esc(SignalMix.describe(e.getValue()))).append(";");
        }
        h.setLength(h.length() - 1);
        h.append(".</p>\n");
    }

    private static void timingNote(StringBuilder h) {
        h.append("<p class=note>s/q is each method's own wall time per question: in one run every method has its own "
                + "perception cache for the built-in model, so none is timed on image analysis another method already did. "
                + "Timings depend on the machine's load; compare methods within one run.</p>\n");
    }

    /** The figures the page's script fills; one heading per question the plot answers. */
    private static void plots(StringBuilder h) {
        h.append("<h2 id=plots>Plots</h2>\n<p class=note>Interactive: hover for values, click legend entries to hide series. "
                + "Drawn in the page by ECharts (bundled; no network needed). Bars on accuracies are 95&nbsp;% intervals.</p>\n");
        h.append("<figure class=wide><label class=axis-choice>cost axis <select id=cost-axis>"
                + "<option value=tokens>tokens / question</option><option value=dollars>$ / question</option>"
                + "<option value=seconds>seconds / question</option><option value=calls>calls / question</option></select></label>"
                + "<span id=cost-note class=note></span><div class=chart id=chart-cost></div></figure>\n");
        h.append("<figure class=wide><figcaption>Reliability diagrams (10 equal-width confidence bins; bar = accuracy in the bin, "
                + "label = answers in it; dashed = perfect calibration)</figcaption><div id=chart-reliability class=multiples></div></figure>\n");
        for (String id : List.of("chart-categories", "chart-flips", "chart-rounds", "chart-terminations", "chart-dream", "chart-usys",
                "chart-tokens", "chart-weights")) {
            h.append("<figure class=wide><div class=chart id=").append(id).append("></div></figure>\n");
        }
    }

    private static void samples(StringBuilder h, boolean comparison) {
        h.append("<h2 id=answers>Answers and debates</h2>\n<section id=samples class=samples>\n<div id=sample-filters class=filters></div>\n")
                .append("<div class=sample-split><div class=sample-list-box><div class=sample-scroll><table id=sample-list><colgroup>")
                .append("<col class=c-id><col class=c-method><col class=c-cat><col class=c-outcome><col class=c-stop><col class=c-conf>")
                .append("</colgroup><thead><tr><th>ques&shy;tion</th><th>")
                .append(comparison ? "run / method" : "method")
                .append("</th><th>cate&shy;gory</th><th>outcome · flip</th><th>stop · rounds</th><th>conf.</th></tr></thead>")
                .append("<tbody></tbody></table></div><div id=sample-pages class=pager></div></div>\n<div id=sample-view class=sample-view>"
                        + "<p class=note>Click an answer to see its debate: every round's answers, claims and critiques, DREAM's probes. "
                        + "The debates are read from the folder beside this page.</p></div></div>\n</section>\n");
    }

    /** ECharts, the viewer, the page script and the data, inline so the file works from disk with no network. */
    private static void scripts(StringBuilder h, List<Run> runs, Pairwise.Report pairs, Answers answers) {
        h.append(SORT_SCRIPT);
        h.append(DATA_OPEN).append(safeJson(data(runs, pairs, answers))).append("</script>\n");
        for (String js : List.of("echarts.js", "viewer.js", "report.js")) {
            h.append("<script>/* ").append(js).append(" */\n").append(resource(js)).append("\n</script>\n");
        }
    }

    /**
     * The page's data: per run its summary and its questions' texts (for the search), the pairs, and the answers as
     * compact rows ({@link Answers}).
     */
    static ObjectNode data(List<Run> runs, Pairwise.Report pairs, Answers answers) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("kind", runs.size() > 1 ? "comparison" : "run");
        if (pairs != null) root.set("pairs", Json.MAPPER.valueToTree(pairs));
        ArrayNode list = root.putArray("runs");
        for (Run run : runs) {
            ObjectNode o = list.addObject();
            o.put("name", run.name());
            o.set("summary", Json.MAPPER.valueToTree(run.summary()));
        }
        root.set("answers", answers.index());
        return root;
    }

    /**
     * The answers of every run, ordered by question (natural order: q2 before q10), then rotation, then the order of the
     * methods. {@code index} is what the page carries: {@code columns} names each row's fields, string fields that repeat
     * are numbers into {@code dict}, {@code partRows} answers share a sidecar part, {@code questions} holds each run's
     * question texts. {@code parts} are the sidecar files: {@code gamDebates(n, {traces: {row: trace}, images: {"run|id": url}})}.
     */
    record Answers(ObjectNode index, Map<String, String> parts) { }

    static final List<String> COLUMNS = List.of("id", "run", "method", "rotation", "category", "outcome", "flip", "termination",
            "rounds", "confidence", "uncertainty", "groundTruth", "branch", "calls", "millis", "error", "trace");
    private static final Set<String> DICT = Set.of("method", "category", "outcome", "flip", "termination", "branch");

    static Answers answers(List<Run> runs, String sidecar) {
        record Row(int run, String method, ResultRecord r, String flip, boolean debating) { }
        List<Row> rows = new ArrayList<>();
        for (int ri = 0; ri < runs.size(); ri++) {
            Run run = runs.get(ri);
            Map<String, List<ResultRecord>> byMethod = new LinkedHashMap<>();
            for (ResultRecord r : run.records()) byMethod.computeIfAbsent(r.method(), k -> new ArrayList<>()).add(r);
            for (var e : byMethod.entrySet()) {
                List<ResultRecord> rs = e.getValue();
                boolean debating = rs.stream().anyMatch(r -> !FlipAccounting.decisions(r).isEmpty());
                if (FullLengthRuns.recordedFull(rs)) {
                    // as in the summary: the method's name holds the re-decided answers, the forced debates are labelled
                    for (ResultRecord r : FullLengthRuns.redecided(rs)) rows.add(new Row(ri, e.getKey(), r, flip(r, debating), debating));
                    for (ResultRecord r : rs) rows.add(new Row(ri, e.getKey() + FullLengthRuns.FORCED_SUFFIX, r, flip(r, debating), debating));
                } else {
                    for (ResultRecord r : rs) rows.add(new Row(ri, e.getKey(), r, flip(r, debating), debating));
                }
            }
        }
        // by question, then rotation, then run and method in the order they came (the summary's method order); the
        // question ids are ranked once, so the sort compares numbers
        Map<String, Integer> methodRank = new LinkedHashMap<>();
        for (Row row : rows) methodRank.putIfAbsent(row.run() + "|" + row.method(), methodRank.size());
        List<String> groups = rows.stream().map(x -> groupOf(x.r())).distinct().sorted(HtmlReport::natural).toList();
        Map<String, Integer> groupRank = new java.util.HashMap<>();
        for (String g : groups) groupRank.put(g, groupRank.size());
        rows.sort(java.util.Comparator.comparingInt((Row x) -> groupRank.get(groupOf(x.r()))).thenComparingInt(x -> x.r().rotation())
                .thenComparingInt(x -> methodRank.get(x.run() + "|" + x.method())));
        ObjectNode index = Json.MAPPER.createObjectNode();
        ArrayNode cols = index.putArray("columns");
        COLUMNS.forEach(cols::add);
        index.put("sidecar", sidecar);
        index.put("partRows", PART_ROWS);
        ObjectNode dict = index.putObject("dict");
        Map<String, Map<String, Integer>> codes = new LinkedHashMap<>();
        for (String d : COLUMNS) if (DICT.contains(d)) { dict.putArray(d); codes.put(d, new LinkedHashMap<>()); }
        ArrayNode out = index.putArray("rows");
        ObjectNode questions = index.putObject("questions");
        Map<String, String> parts = new LinkedHashMap<>();
        ObjectNode part = null;
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            ResultRecord r = row.r();
            if (i % PART_ROWS == 0) {
                if (part != null) parts.put(partName(i / PART_ROWS - 1), partScript(i / PART_ROWS - 1, part));
                part = Json.MAPPER.createObjectNode();
                part.putObject("traces");
                part.putObject("images");
            }
            ArrayNode a = out.addArray();
            a.add(r.questionId());
            a.add(row.run());
            code(a, dict, codes, "method", row.method());
            a.add(r.rotation());
            code(a, dict, codes, "category", r.category());
            code(a, dict, codes, "outcome", r.outcome());
            code(a, dict, codes, "flip", row.flip());
            code(a, dict, codes, "termination", r.termination());
            a.add(r.rounds());
            a.add(Math.round(r.confidence() * 1000) / 1000.0);
            a.add(Math.round(r.uncertainty() * 1000) / 1000.0);
            if (r.groundTruth() == null) a.addNull(); else a.add(r.groundTruth());
            code(a, dict, codes, "branch", MethodMetrics.branchOf(r));
            a.add(r.calls());
            a.add(r.millis());
            if (r.error() == null) a.addNull(); else a.add(r.error());
            a.add(r.trace() != null ? 1 : 0);
            if (r.trace() != null) {
                ((ObjectNode) part.get("traces")).set(Integer.toString(i), r.trace());
                String text = r.trace().path("question").path("text").asText(null);
                ObjectNode q = questions.has(Integer.toString(row.run())) ? (ObjectNode) questions.get(Integer.toString(row.run()))
                        : questions.putObject(Integer.toString(row.run()));
                if (text != null && !q.has(r.questionId())) q.put(r.questionId(), text.length() > 300 ? text.substring(0, 300) : text);
            }
            String image = runs.get(row.run()).images().get(r.questionId());
            if (image != null) ((ObjectNode) part.get("images")).put(row.run() + "|" + r.questionId(), image);
        }
        if (part != null) parts.put(partName((rows.size() - 1) / PART_ROWS), partScript((rows.size() - 1) / PART_ROWS, part));
        index.put("parts", parts.size());
        return new Answers(index, parts);
    }

    private static void code(ArrayNode row, ObjectNode dict, Map<String, Map<String, Integer>> codes, String column, String value) {
        if (value == null) { row.addNull(); return; }
        Integer c = codes.get(column).get(value);
        if (c == null) {
            c = codes.get(column).size();
            codes.get(column).put(value, c);
            ((ArrayNode) dict.get(column)).add(value);
        }
        row.add(c);
    }

    static String partName(int n) { return String.format(Locale.ROOT, "part-%04d.js", n); }

    /** A sidecar part: a script (so a page opened from disk can load it, which it could not with fetch) handing its data to the page. */
    private static String partScript(int n, ObjectNode part) {
        return "gamDebates(" + n + ", " + safeJson(part).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029") + ");\n";
    }

    /** The flip the list shows: the recorded one, or for a debate method's question without rounds (DREAM's consensus) unchanged. */
    private static String flip(ResultRecord r, boolean debating) {
        if (r.isError()) return null;
        String flip = FlipAccounting.flipOf(r);
        if (flip == null && debating) flip = r.correct() ? "r→r" : "w→w";
        return flip;
    }

    private static String groupOf(ResultRecord r) { return r.group() == null ? r.questionId() : r.group(); }

    /** Question ids in natural order: runs of digits compare as numbers ("q2" before "q10"), the rest as text. */
    static int natural(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i), y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int si = i, sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) i++;
                while (j < b.length() && Character.isDigit(b.charAt(j))) j++;
                while (si < i - 1 && a.charAt(si) == '0') si++; // leading zeros do not change the number
                while (sj < j - 1 && b.charAt(sj) == '0') sj++;
                String da = a.substring(si, i), db = b.substring(sj, j);
                int c = da.length() != db.length() ? Integer.compare(da.length(), db.length()) : da.compareTo(db);
                if (c != 0) return c;
            } else {
                if (x != y) return Character.compare(x, y);
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    private static final String DATA_OPEN = "<script id=gam-data type=\"application/json\">";

    /**
     * Adds the paper's figures ({@code summary.json}'s {@code paper_figures}, written by {@code gam reproduce} after the run's
     * report) to a written report's data, where the accuracy plot marks them beside ours; does nothing when the report is
     * not there. Rewrites the page's data element only: the plots are drawn from it when the page opens.
     */
    public static void markPaperFigures(Path report, com.fasterxml.jackson.databind.JsonNode paperFigures) {
        if (!java.nio.file.Files.isRegularFile(report)) return;
        try {
            String html = java.nio.file.Files.readString(report, StandardCharsets.UTF_8);
            int at = html.indexOf(DATA_OPEN);
            int end = at < 0 ? -1 : html.indexOf("</script>", at);
            if (end < 0) throw new IllegalStateException(report + " has no report data element");
            com.fasterxml.jackson.databind.JsonNode root = Json.MAPPER.readTree(html.substring(at + DATA_OPEN.length(), end));
            com.fasterxml.jackson.databind.JsonNode runs = root.path("runs");
            if (runs.size() != 1 || !(runs.get(0) instanceof ObjectNode run)) {
                throw new IllegalStateException(report + " is not the report of one run");
            }
            run.set("paperFigures", paperFigures);
            java.nio.file.Files.writeString(report, html.substring(0, at + DATA_OPEN.length()) + safeJson(root) + html.substring(end),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot add the paper's figures to " + report + ": " + e.getMessage(), e);
        }
    }

    /** JSON inside a script element: '<', '>' and '&' only occur inside strings, where \\u escapes mean the same. */
    static String safeJson(com.fasterxml.jackson.databind.JsonNode data) {
        return Json.write(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
    }

    static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream("/web/" + name)) {
            if (in == null) {
                throw new IllegalStateException("resource /web/" + name + " is missing from the build; rebuild with `mvn -B package` "
                        + "(web/echarts.js is copied from the ECharts webjar at generate-resources)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource /web/" + name, e);
        }
    }

    private static void metricTable(StringBuilder h, Map<String, MethodMetrics> metrics, String firstHeader, String interval) {
        boolean vanilla = metrics.values().stream().anyMatch(m -> m.vanillaAccuracy() != null);
        // headers break inside long words (soft hyphens) so that eighteen columns fit a 1280 px window
        h.append("<div class=table-box><table id=metrics>\n<thead><tr><th>").append(firstHeader == null ? "method" : esc(firstHeader))
                .append("</th><th>ques&shy;tions</th><th>accu&shy;racy (%)</th><th title=\"").append(esc(interval == null ? "" : interval))
                .append("\">95&nbsp;% inter&shy;val</th>");
        if (vanilla) h.append("<th>accu&shy;racy, rota&shy;tion 0</th>");
        h.append("<th>un&shy;matched</th><th>errors</th><th>prompt tok/q</th><th>com&shy;pletion tok/q</th><th>cost/q ($)</th>"
                + "<th>calls/q</th><th>s/q</th><th>debate rate</th><th>mean rounds</th><th>ECE</th><th>AUROC (U)</th>"
                + "<th>bal. acc @θ_U</th><th>Spear&shy;man (U₀, rounds)</th></tr></thead>\n<tbody>\n");
        for (var e : metrics.entrySet()) {
            MethodMetrics m = e.getValue();
            boolean forced = e.getKey().endsWith(FullLengthRuns.FORCED_SUFFIX);
            h.append(forced ? "<tr class=forced title=\"gam.record_full=true: every debate forced to K_max; not the method's result\"><td>" : "<tr><td>")
                    .append(esc(e.getKey())).append("</td><td>").append(m.groups()).append("</td><td>").append(pct(m.accuracy())).append("</td><td>")
                    .append(m.accuracyCi() == null ? "–" : String.format(Locale.ROOT, "%.1f–%.1f", 100 * m.accuracyCi().lo(), 100 * m.accuracyCi().hi()))
                    .append("</td>");
            if (vanilla) h.append("<td>").append(pct(m.vanillaAccuracy())).append("</td>");
            String noU = m.uncertaintyNote() == null ? "" : " title=\"" + esc(m.uncertaintyNote()) + "\" class=hidden-metric";
            h.append("<td>").append(m.unmatched()).append("</td><td>").append(m.errors()).append("</td><td>")
                    .append(f1(m.promptTokensPerQuestion())).append("</td><td>").append(f1(m.completionTokensPerQuestion()))
                    .append("</td><td title=\"").append(esc(String.valueOf(m.costBasis()))).append("\">")
                    .append(m.costPerQuestion() == null ? "–" : String.format(Locale.ROOT, "%.6f", m.costPerQuestion())).append("</td><td>")
                    .append(f2(m.callsPerQuestion())).append("</td><td>").append(f2(m.secondsPerQuestion())).append("</td><td>").append(f3(m.debateTriggerRate()))
                    .append("</td><td>").append(f2(m.meanRounds())).append("</td><td>").append(f3(m.ece())).append("</td><td")
                    .append(m.auroc() == null ? noU : "").append('>').append(f3(m.auroc())).append("</td><td").append(m.balancedAccuracy() == null ? noU : "")
                    .append('>').append(f3(m.balancedAccuracy())).append("</td><td>").append(f3(m.spearmanInitialUncertaintyVsRounds())).append("</td></tr>\n");
        }
        h.append("</tbody></table></div>\n");
        if (interval != null) {
            h.append("<p class=note>Accuracy in %, with its 95&nbsp;% interval (").append(esc(interval))
                    .append(") over the graded questions (a circular group counts once).</p>\n");
        }
        if (metrics.keySet().stream().anyMatch(k -> k.endsWith(FullLengthRuns.FORCED_SUFFIX))) {
            h.append("<p class=note>This run was recorded with <code>gam.record_full=true</code>: its debates were forced to K_max. "
                    + "The method's row gives the default stopping rule's decisions at the recorded settings (what <code>gam sweep</code> "
                    + "computes; wall time pro-rated by calls); the row marked <i>forced full length</i> gives the forced debates' own figures.</p>\n");
        }
    }

    /** Why a figure of the table is not shown: no price for the built-in model, uncertainty metrics that are 0.5 by construction. */
    private static void notes(StringBuilder h, Map<String, MethodMetrics> metrics) {
        List<String> unpriced = new ArrayList<>();
        Map<String, List<String>> byReason = new LinkedHashMap<>();
        for (var e : metrics.entrySet()) {
            if (e.getValue().costPerQuestion() == null && PriceTable.UNPRICED.equals(e.getValue().costBasis())) unpriced.add(e.getKey());
            if (e.getValue().uncertaintyNote() != null) byReason.computeIfAbsent(e.getValue().uncertaintyNote(), k -> new ArrayList<>()).add(e.getKey());
        }
        List<String> unsure = new ArrayList<>();
        byReason.forEach((reason, methods) -> unsure.add("<b>" + esc(String.join(", ", methods)) + "</b>: " + esc(reason)));
        if (!unpriced.isEmpty()) {
            h.append("<p class=note id=no-dollars>No cost in dollars for ").append(esc(String.join(", ", unpriced)))
                    .append(": the built-in model runs on this machine's CPU, and a GPU's hourly rate would make more calls look cheaper. "
                            + "Set <code>eval.gpu_hour_rate</code> to price its time.</p>\n");
        }
        if (!unsure.isEmpty()) {
            h.append("<p class=note id=uncertainty-notes>AUROC(U) and bal. acc @θ_U are left out (–) where U cannot tell right from wrong answers: ")
                    .append(String.join("; ", unsure)).append(".</p>\n");
        }
    }

    /**
     * Every pair of methods on the questions both answered: the difference with its interval, the discordant counts,
     * McNemar's exact p and Holm's; a pair whose Holm p is not below α is greyed and marked "not significant". The
     * chart {@code chart-pairs} draws the same intervals around 0.
     */
    private static void pairTable(StringBuilder h, Pairwise.Report report, boolean comparison) {
        if (report == null || report.pairs().isEmpty()) return;
        h.append("<h2 id=pairs>Are the differences real?</h2>\n<p class=note>Each pair of ").append(comparison ? "series" : "methods")
                .append(" on the questions both answered").append(comparison ? " (paired by question id across runs)" : "").append(": ")
                .append(esc(report.test())).append("; Δ = accuracy of the first − the second, with its 95&nbsp;% interval (")
                .append(esc(report.differenceInterval())).append("). Greyed rows are not significant (Holm p ≥ ")
                .append(report.alpha()).append("): the data do not tell those two apart. Each interval is for its pair alone; the verdict "
                        + "is corrected for comparing ").append(report.pairs().size()).append(report.pairs().size() == 1 ? " pair" : " pairs")
                .append(" at once, so an interval that misses 0 can still be \"not significant\".</p>\n");
        h.append("<div class=table-box><table id=pairs-table>\n<thead><tr><th>pair</th><th>questions</th><th>Δ accuracy</th><th>95&nbsp;% interval</th>"
                + "<th>right only for the first</th><th>right only for the second</th><th>p (McNemar)</th><th>p (Holm)</th><th>verdict</th></tr></thead>\n<tbody>\n");
        for (Pairwise.Pair p : report.pairs()) {
            String verdict = p.n() == 0 ? "no shared question" : p.significant() ? "significant" : "not significant";
            h.append("<tr class=\"").append(p.significant() ? "sig" : "ns").append("\"><td>").append(esc(p.method())).append(" vs ")
                    .append(esc(p.versus())).append("</td><td>").append(p.n()).append("</td><td>")
                    .append(p.difference() == null ? "–" : String.format(Locale.ROOT, "%+.1f", 100 * p.difference())).append("</td><td>")
                    .append(p.differenceCi() == null ? "–" : String.format(Locale.ROOT, "%+.1f to %+.1f", 100 * p.differenceCi().lo(), 100 * p.differenceCi().hi()))
                    .append("</td><td>").append(p.onlyMethod()).append("</td><td>").append(p.onlyVersus()).append("</td><td>").append(pValue(p.p()))
                    .append("</td><td>").append(pValue(p.pHolm())).append("</td><td><span class=\"verdict ").append(p.significant() ? "sig" : "ns")
                    .append("\">").append(verdict).append("</span></td></tr>\n");
        }
        h.append("</tbody></table></div>\n<figure class=wide><div class=chart id=chart-pairs></div></figure>\n");
    }

    private static String pValue(double p) { return p < 0.0001 ? "&lt;0.0001" : String.format(Locale.ROOT, p < 0.01 ? "%.4f" : "%.3f", p); }

    private static String pct(Double v) { return v == null ? "–" : String.format(Locale.ROOT, "%.1f", 100 * v); }

    /** Debate methods only: how the answer after round 0 compares with the final one (docs/metrics.md, flips). */
    private static void flipTable(StringBuilder h, Map<String, MethodMetrics> metrics) {
        if (metrics.values().stream().allMatch(m -> m.flips() == null)) return;
        h.append("<h2>What the debate changed</h2>\n<div class=table-box><table id=flips>\n<tr><th>method</th><th>questions</th><th>wrong→right</th>"
                + "<th>right→wrong</th><th>right→right</th><th>wrong→wrong</th><th>answer changed</th>"
                + "<th>agent turns</th><th>agent changed</th><th>agent w→r</th><th>agent r→w</th></tr>\n");
        for (var e : metrics.entrySet()) {
            FlipAccounting.Flips f = e.getValue().flips();
            if (f == null) continue;
            h.append("<tr><td>").append(esc(e.getKey())).append("</td><td>").append(f.questions()).append("</td><td>").append(f.wrongToRight())
                    .append("</td><td>").append(f.rightToWrong()).append("</td><td>").append(f.rightToRight()).append("</td><td>")
                    .append(f.wrongToWrong()).append("</td><td>").append(f.changed()).append("</td><td>").append(f.agents().transitions())
                    .append("</td><td>").append(f.agents().changed()).append("</td><td>").append(f.agents().wrongToRight())
                    .append("</td><td>").append(f.agents().rightToWrong()).append("</td></tr>\n");
        }
        h.append("</table></div>\n<p class=note>Decision after round 0 vs final answer, per question; agent columns count one agent's "
                + "answer in consecutive rounds.</p>\n");
    }

    /** Only for panels that mixed backends: what each backend cost per question, per method. */
    private static void backendTable(StringBuilder h, Map<String, MethodMetrics> metrics) {
        if (metrics.values().stream().allMatch(m -> m.backends() == null)) return;
        h.append("<h2>Tokens and cost per backend</h2>\n<div class=table-box><table>\n<tr><th>method</th><th>backend</th><th>model</th><th>calls/q</th>"
                + "<th>prompt tok/q</th><th>completion tok/q</th><th>cost/q ($)</th></tr>\n");
        for (var e : metrics.entrySet()) {
            if (e.getValue().backends() == null) continue;
            for (var b : e.getValue().backends().entrySet()) {
                MethodMetrics.BackendUse u = b.getValue();
                h.append("<tr><td>").append(esc(e.getKey())).append("</td><td>").append(esc(b.getKey())).append("</td><td>")
                        .append(esc(u.model() == null ? u.backend() : u.model())).append("</td><td>").append(f2(u.callsPerQuestion()))
                        .append("</td><td>").append(f1(u.promptTokensPerQuestion())).append("</td><td>").append(f1(u.completionTokensPerQuestion()))
                        .append("</td><td title=\"").append(esc(String.valueOf(u.costBasis()))).append("\">")
                        .append(u.costPerQuestion() == null ? "–" : String.format(Locale.ROOT, "%.6f", u.costPerQuestion())).append("</td></tr>\n");
            }
        }
        h.append("</table></div>\n");
    }

    /**
     * One row per category (its full name), the number of questions, then one accuracy column per method;
     * a click on a header sorts by that column (again: the other way). Cells carry their sort key in data-v.
     */
    private static void cellTable(StringBuilder h, String title, Map<String, Map<String, RunSummary.Cell>> byMethod) {
        Set<String> cats = new LinkedHashSet<>();
        for (var m : byMethod.values()) cats.addAll(m.keySet());
        h.append("<div class=table-box><table class=sortable>\n<thead><tr><th>").append(esc(title)).append("</th><th>questions</th>");
        for (String m : byMethod.keySet()) h.append("<th>").append(esc(m)).append("</th>");
        h.append("</tr></thead>\n<tbody>\n");
        for (String c : cats.stream().sorted().toList()) {
            int n = 0;
            for (var m : byMethod.values()) if (m.get(c) != null) n = Math.max(n, m.get(c).n());
            h.append("<tr><td data-v=\"").append(esc(c)).append("\">").append(esc(c)).append("</td><td data-v=\"").append(n).append("\">")
                    .append(n).append("</td>");
            for (var m : byMethod.values()) {
                RunSummary.Cell cell = m.get(c);
                Double acc = cell == null ? null : cell.accuracy();
                h.append("<td data-v=\"").append(acc == null ? "" : String.format(Locale.ROOT, "%.6f", acc)).append('"')
                        .append(cell == null ? "" : " title=\"n=" + cell.n() + (cell.ci() == null ? "" : String.format(Locale.ROOT,
                                ", 95%% interval %.1f–%.1f %%", 100 * cell.ci().lo(), 100 * cell.ci().hi())) + "\"").append('>')
                        .append(cell == null ? "" : f3(acc)).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody></table></div>\n");
    }

    /** Sorts a table.sortable by the clicked column: a column of numbers numerically, else as text; empty cells last. */
    private static final String SORT_SCRIPT = """
            <script>
            document.querySelectorAll('table.sortable th').forEach(function (th) {
              th.style.cursor = 'pointer';
              th.title = 'sort by this column';
              th.addEventListener('click', function () {
                var body = th.closest('table').tBodies[0], col = th.cellIndex, asc = th.dataset.dir !== 'asc';
                th.closest('tr').querySelectorAll('th').forEach(function (o) { delete o.dataset.dir; });
                th.dataset.dir = asc ? 'asc' : 'desc';
                var rows = Array.prototype.slice.call(body.rows);
                var numeric = rows.every(function (r) { var v = r.cells[col].dataset.v; return v === '' || !isNaN(Number(v)); });
                rows.sort(function (a, b) {
                  var x = a.cells[col].dataset.v, y = b.cells[col].dataset.v;
                  if (x === '' || y === '') return (x === '') - (y === '');
                  var d = numeric ? Number(x) - Number(y) : x.localeCompare(y);
                  return asc ? d : -d;
                });
                rows.forEach(function (r) { body.appendChild(r); });
              });
            });
            </script>
            """;

    private static void head(StringBuilder h, String title) {
        h.append("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><meta name=viewport content=\"width=device-width, initial-scale=1\">")
                .append("<title>").append(esc(title)).append("</title>\n<style>\n").append(resource("report.css")).append('\n')
                .append(resource("viewer.css")).append("</style></head><body>\n");
    }

    static String esc(String s) {
        if (s == null) return "";
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String f3(Double v) { return v == null ? "–" : String.format(Locale.ROOT, "%.3f", v); }

    private static String f2(double v) { return String.format(Locale.ROOT, "%.2f", v); }

    private static String f1(double v) { return String.format(Locale.ROOT, "%.1f", v); }
}
