package dev.gamagent.eval.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.eval.grade.GradingMode;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.eval.load.SkippedRow;
import dev.gamagent.eval.stats.Pairwise;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.uncertainty.SignalMix;
import dev.gamagent.util.AtomicFiles;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code report.html} and {@code gam report}'s comparison page: a page that opens from disk with no network. Tables are
 * plain HTML; the charts are drawn in the page by ECharts (bundled inline, SVG renderer); the answer list opens each
 * answer's debate in the trace viewer ({@code web/viewer.js}, shared with the {@code gam serve} page). The page carries
 * the summaries and one compact row per answer in a JSON script element; the debates themselves (traces and images)
 * are in a sidecar folder beside it ({@code report-debates/part-NNNN.js}, {@value ReportAnswers#PART_ROWS} answers each, in list
 * order), loaded when an answer is opened, so the page stays small at any number of questions. Text is only ever set
 * as text.
 */
public final class HtmlReport {
    private HtmlReport() { }


    /** Questions up to which {@link #thumbnails} embeds images (about 10–20 kB each, in the sidecar). */
    public static final int MAX_THUMBNAILS = 600;

    /** Images up to this width and size (base64 characters) are embedded as they were read, not re-encoded. */
    static final int ORIGINAL_MAX_WIDTH = 640, ORIGINAL_MAX_BASE64 = 96 * 1024;

    /** The page and its sidecar parts (file name → content), written together by {@link #write(Path, List, Pairwise.Report)}. */
    public record Page(String html, Map<String, String> parts) { }

    public static void write(Path file, RunSummary s) { write(file, s, List.of(), Map.of(), null); }

    public static void write(Path file, RunSummary s, List<ResultRecord> records, Map<String, String> images) {
        write(file, s, records, images, null);
    }

    /** One run's report; {@code paperFigures} (a reproduction's, or null) are marked beside ours on the accuracy plot. */
    public static void write(Path file, RunSummary s, List<ResultRecord> records, Map<String, String> images,
                             com.fasterxml.jackson.databind.JsonNode paperFigures) {
        write(file, s, records, images, paperFigures, null);
    }

    /** As above; {@code provenance} (or null) says in the header where the figures come from. */
    public static void write(Path file, RunSummary s, List<ResultRecord> records, Map<String, String> images,
                             com.fasterxml.jackson.databind.JsonNode paperFigures, Provenance provenance) {
        write(file, List.of(new ReportRun("", s, records, images, paperFigures, provenance)), s.statistics());
    }

    /**
     * {@code gam report}: several runs, every method a series "run / method"; {@code pairing} says which series were
     * compared (those of one benchmark, on the same questions) and warns of what was not.
     */
    public static void writeComparison(Path file, List<ReportRun> runs, RunPairing pairing) {
        write(file, runs, pairing.pairs(), pairing);
    }

    /**
     * Writes the page to {@code file}, its debates to the folder {@link #sidecar} beside it (parts left by an earlier
     * report there are removed first, so a smaller run does not show stale debates), and the question × method table
     * beside it as {@code NAME-answers.csv} and {@code NAME-answers.jsonl} ({@link AnswerTable}).
     */
    static void write(Path file, List<ReportRun> runs, Pairwise.Report pairs) { write(file, runs, pairs, null); }

    private static void write(Path file, List<ReportRun> runs, Pairwise.Report pairs, RunPairing pairing) {
        Path dir = sidecar(file);
        AnswerTable table = AnswerTable.of(runs, pairing);
        Page page = page(runs, pairs, pairing, table, dir.getFileName().toString(), answerFile(file, "csv").getFileName().toString());
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
            if (!table.rows().isEmpty()) {
                AtomicFiles.writeString(answerFile(file, "csv"), table.csv());
                AtomicFiles.writeString(answerFile(file, "jsonl"), table.jsonl());
            }
            AtomicFiles.writeString(file, page.html());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** The question × method table beside a page: {@code report.html} → {@code report-answers.csv} ({@code .jsonl}). */
    public static Path answerFile(Path file, String extension) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return file.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + "-answers." + extension);
    }

    /** The sidecar folder of a page: {@code report.html} → {@code report-debates}. */
    public static Path sidecar(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return file.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + "-debates");
    }

    /** The page of one run without answers (tables and plots only). */
    public static String render(RunSummary s) {
        List<ReportRun> runs = List.of(new ReportRun("", s, List.of()));
        return page(runs, s.statistics(), null, AnswerTable.of(runs, null), "report-debates", "report-answers.csv").html();
    }

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
     * A question of several images (a video's frames) gets its frames side by side ({@link dev.gamagent.image.internal.FrameStrip}),
     * which the trace viewer shows as a strip of frames in time order.
     */
    public static String thumbnail(EvalQuestion q) {
        try {
            var pics = q.question().images();
            if (pics.isEmpty()) return null;
            if (pics.size() > 1) return jpegDataUrl(dev.gamagent.image.internal.FrameStrip.of(pics));
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
    public static boolean showsAsItIs(dev.gamagent.image.Picture p) {
        return !p.isDecoded() && p.width() <= ORIGINAL_MAX_WIDTH && p.encoding().base64().length <= ORIGINAL_MAX_BASE64;
    }

    private static String jpegDataUrl(java.awt.image.BufferedImage rgb) throws IOException {
        var bytes = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(rgb, "jpg", bytes);
        return "data:image/jpeg;base64," + java.util.Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    /** The page over {@code runs} (one run: a report; several: a comparison) and its sidecar parts, which live in folder {@code sidecar}. */
    public static Page page(List<ReportRun> runs, Pairwise.Report pairs, String sidecar) {
        return page(runs, pairs, null, AnswerTable.of(runs, null), sidecar, "report-answers.csv");
    }

    /** As above, with the comparison's pairing (null for one run), the answer table and its CSV file's name beside the page. */
    static Page page(List<ReportRun> runs, Pairwise.Report pairs, RunPairing pairing, AnswerTable table, String sidecar, String csvName) {
        boolean comparison = runs.size() > 1;
        StringBuilder h = new StringBuilder();
        if (!comparison) {
            RunSummary s = runs.get(0).summary();
            head(h, "GAM-Agent evaluation: " + s.data());
            h.append("<header><h1>Evaluation of ").append(Html.esc(s.data())).append("</h1>\n<p>")
                    .append(s.questions()).append(" questions").append(s.circular() ? " (circular evaluation: a question counts only if every option rotation is right)" : "")
                    .append("; methods: ").append(Html.esc(String.join(", ", s.methods()))).append(".");
            if (s.command() != null) h.append(" Reproduce with <code>").append(Html.esc(s.command())).append("</code>.");
            h.append(" Multiple-choice grading: ").append(Html.esc(GradingMode.describeLabels(s.grading()))).append('.');
            h.append("</p>\n");
            Provenance p = runs.get(0).provenance();
            if (p != null) {
                h.append("<p class=provenance id=provenance>Run: ").append(Html.esc(p.describeRun() + "; " + p.describe())).append('.');
                if (p.file() != null) for (String m : p.marks()) h.append("<br><b>[").append(m).append("]</b> ").append(Html.esc(p.meaning(m))).append('.');
                h.append("</p>\n");
            }
            h.append("</header>\n");
        } else {
            head(h, "GAM-Agent run comparison");
            h.append("<header><h1>Run comparison</h1>\n<p>");
            for (ReportRun r : runs) {
                h.append("<b>").append(Html.esc(r.name())).append("</b>: ").append(Html.esc(r.summary().data())).append(", ")
                        .append(r.summary().questions()).append(" questions");
                String benchmark = pairing == null ? null : pairing.benchmarks().get(r.name());
                if (benchmark != null && !benchmark.equals(r.summary().data())) h.append(" (benchmark ").append(Html.esc(benchmark)).append(')');
                if (r.summary().command() != null) h.append(" (<code>").append(Html.esc(r.summary().command())).append("</code>)");
                h.append(". ");
            }
            h.append("</p>\n");
            for (ReportRun r : runs) {
                if (r.provenance() != null) h.append("<p class=provenance><b>").append(Html.esc(r.name())).append("</b>: ").append(Html.esc(r.provenance().describeRun() + "; " + r.provenance().describe())).append(".</p>\n");
            }
            if (pairing != null && !pairing.warnings().isEmpty()) {
                h.append("<div class=pairing-warnings id=pairing-warnings role=alert>");
                for (String w : pairing.warnings()) h.append("<p>⚠ ").append(Html.esc(w)).append("</p>");
                h.append("</div>\n");
            }
            h.append("</header>\n");
        }
        h.append("<nav class=toc><a href=\"#methods\">Methods</a> <a href=\"#pairs\">Differences</a> <a href=\"#plots\">Plots</a> "
                + "<a href=\"#answers\">Answers and debates</a> <a href=\"#answer-table\">Answers by question</a> <a href=\"#categories\">Categories</a> "
                + "<a href=\"#definitions\">Definitions</a></nav>\n");
        Map<String, MethodMetrics> all = new LinkedHashMap<>();
        for (ReportRun run : runs) {
            for (var m : run.summary().metrics().entrySet()) all.put(comparison ? run.name() + " / " + m.getKey() : m.getKey(), m.getValue());
        }
        h.append("<h2 id=methods>Methods</h2>\n");
        ReportTables.metricTable(h, all, comparison ? "run / method" : null, intervalLabel(runs, pairs));
        ReportTables.notes(h, all);
        ReportTables.backendTable(h, all);
        timingNote(h);
        if (!comparison) signals(h, runs.get(0).summary().signals());
        ReportTables.pairTable(h, pairs, comparison, pairing == null ? List.of() : pairing.warnings());
        ReportTables.flipTable(h, all);
        plots(h);
        samples(h, comparison);
        ReportTables.answerTable(h, table, csvName);
        h.append("<h2 id=categories>Accuracy per category</h2>\n");
        Map<String, Map<String, RunSummary.Cell>> cats = new LinkedHashMap<>(), l2 = new LinkedHashMap<>();
        for (ReportRun run : runs) {
            String prefix = comparison ? run.name() + " / " : "";
            if (run.summary().byCategory() != null) run.summary().byCategory().forEach((m, c) -> cats.put(prefix + m, c));
            if (run.summary().byL2Category() != null) run.summary().byL2Category().forEach((m, c) -> l2.put(prefix + m, c));
        }
        ReportTables.cellTable(h, "category", cats);
        if (!comparison) {
            h.append("<h2>Accuracy per l2-category</h2>\n");
            ReportTables.cellTable(h, "l2-category", l2);
            RunSummary s = runs.get(0).summary();
            if (!s.skipped().isEmpty()) {
                h.append("<h2>Skipped rows</h2>\n<ul>\n");
                for (SkippedRow r : s.skipped()) h.append("<li>row ").append(Html.esc(r.index())).append(": ").append(Html.esc(r.reason())).append("</li>\n");
                h.append("</ul>\n");
            }
        }
        ReportTables.definitions(h);
        ReportAnswers answers = ReportAnswers.of(runs, sidecar);
        scripts(h, runs, pairs, pairing, table, answers);
        return new Page(h.append("</body></html>\n").toString(), answers.parts());
    }

    /** How the accuracy intervals shown were computed ("Wilson score"), from the pairs or any run's summary. */
    private static String intervalLabel(List<ReportRun> runs, Pairwise.Report pairs) {
        if (pairs != null) return pairs.interval();
        for (ReportRun r : runs) if (r.summary().statistics() != null) return r.summary().statistics().interval();
        return null;
    }

    /** Which uncertainty signal each method's agents ran on (semantic = hedge words only: no log-probs, no sampling). */
    private static void signals(StringBuilder h, Map<String, Map<String, Long>> mix) {
        if (mix == null || mix.values().stream().allMatch(Map::isEmpty)) return;
        h.append("<p class=signals>Uncertainty signals (agent turns and probes):");
        for (var e : mix.entrySet()) {
            if (e.getValue().isEmpty()) continue;
            h.append(" <b>").append(Html.esc(e.getKey())).append("</b> ").append(Html.esc(SignalMix.describe(e.getValue()))).append(";");
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
    private static void scripts(StringBuilder h, List<ReportRun> runs, Pairwise.Report pairs, RunPairing pairing, AnswerTable table,
                                ReportAnswers answers) {
        h.append(ReportTables.SORT_SCRIPT);
        ObjectNode data = data(runs, pairs, answers);
        if (pairing != null) {
            data.set("warnings", Json.MAPPER.valueToTree(pairing.warnings()));
            ArrayNode list = (ArrayNode) data.get("runs");
            for (int i = 0; i < runs.size(); i++) ((ObjectNode) list.get(i)).put("benchmark", pairing.benchmarks().get(runs.get(i).name()));
        }
        if (pairing != null) {
            // the answers by question: each run's items (group ids) → one number per question compared by content
            Map<String, Integer> number = new LinkedHashMap<>();
            ArrayNode items = data.putArray("itemKeys");
            for (ReportRun r : runs) {
                ObjectNode mine = items.addObject();
                for (var e : pairing.keys().entrySet()) {
                    if (!e.getKey().startsWith(r.name() + " / ")) continue;
                    e.getValue().forEach((group, key) -> mine.put(group, number.computeIfAbsent(key, k -> number.size())));
                }
            }
        }
        h.append(DATA_OPEN).append(Html.safeJson(data)).append("</script>\n");
        for (String js : List.of("echarts.js", "colors.js", "viewer.js", "report.js")) {
            h.append("<script>/* ").append(js).append(" */\n").append(resource(js)).append("\n</script>\n");
        }
    }

    /**
     * The page's data: per run its summary and its questions' texts (for the search), the pairs, and the answers as
     * compact rows ({@link ReportAnswers}).
     */
    static ObjectNode data(List<ReportRun> runs, Pairwise.Report pairs, ReportAnswers answers) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("kind", runs.size() > 1 ? "comparison" : "run");
        if (pairs != null) root.set("pairs", Json.MAPPER.valueToTree(pairs));
        ArrayNode list = root.putArray("runs");
        for (ReportRun run : runs) {
            ObjectNode o = list.addObject();
            o.put("name", run.name());
            o.set("summary", Json.MAPPER.valueToTree(run.summary()));
            if (run.paperFigures() != null) o.set("paperFigures", run.paperFigures());
        }
        root.set("answers", answers.index());
        return root;
    }

    private static final String DATA_OPEN = "<script id=gam-data type=\"application/json\">";


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

    private static void head(StringBuilder h, String title) {
        h.append("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><meta name=viewport content=\"width=device-width, initial-scale=1\">")
                .append("<title>").append(Html.esc(title)).append("</title>\n<style>\n").append(resource("report.css")).append('\n')
                .append(resource("viewer.css")).append("</style></head><body>\n");
    }
}
