package dev.gamagent.eval;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.backend.internal.SecretScrubber;
import dev.gamagent.config.Config;
import dev.gamagent.eval.data.DataFiles;
import dev.gamagent.eval.grade.Grader;
import dev.gamagent.eval.grade.GradingMode;
import dev.gamagent.eval.grade.PaperGrading;
import dev.gamagent.eval.load.BenchmarkLoader;
import dev.gamagent.eval.load.CircularExpansion;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.eval.load.Images;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.eval.load.SkippedRow;
import dev.gamagent.eval.report.HtmlReport;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.report.Provenance;
import dev.gamagent.eval.report.QuestionHashes;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.eval.store.RunIdentity;
import dev.gamagent.gam.GamSettings;
import dev.gamagent.image.DecodeBudget;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * One evaluation run end to end: check the run identity, expand (circular), run what is missing, then
 * write {@code summary.json} and {@code report.html} from everything stored for these questions and methods.
 */
public final class Evaluation {
    private Evaluation() { }

    /**
     * What to run and where. {@code command} is written into the report so the numbers can be repeated.
     * {@code identity} (null = not checked) must match the one stored in {@code out}, unless {@code forceNew}
     * moves the earlier run aside first.
     */
    record Plan(Dataset dataset, boolean circular, List<String> methods, Path out, int concurrency, String command,
                       RunIdentity identity, boolean forceNew) {
        Plan(Dataset dataset, boolean circular, List<String> methods, Path out, int concurrency, String command) {
            this(dataset, circular, methods, out, concurrency, command, null, false);
        }
    }

    /** Every pair of the run failed; the summary and report were still written. */
    public static final class AllPairsFailed extends IllegalStateException {
        public AllPairsFailed(String message) { super(message); }
    }

    /** What a run wrote: its summary (as in summary.json), the lines to print about the benchmark, and the files. */
    public record Result(RunSummary summary, List<String> notes, List<Path> files, Provenance provenance) {
        public Result(RunSummary summary, List<String> notes, List<Path> files) { this(summary, notes, files, null); }
    }

    /**
     * The one way into an evaluation ({@code gam eval}, {@code gam demo}, {@code gam reproduce}): resolve the benchmark
     * (a file, a benchmark's name, an MVBench snapshot, or questions already loaded), read its grading rule, check the run
     * identity, run what is missing, store it, and write summary.json once (with the data file's provenance, the
     * submission of a split without public answers, the benchmark's own score and a reproduction's paper figures) and
     * report.html.
     *
     * @param panel the default backend and the named ones the methods' agents may use
     * @param judge the judge of open answers (null: none)
     */
    public static Result run(EvalRequest req, NamedBackends panel, Backend judge, EvalRequest.Progress progress) {
        PrintStream err = progress.err();
        if (req.grading() != null) GradingMode.of(req.grading()); // a bad --grading is refused before anything is read
        Config config = req.config();
        DataFiles.DataFile file = null;
        Dataset ds;
        if (req.data() instanceof EvalRequest.Named named) {
            file = BenchmarkResolver.resolve(named.data(), named.files(), err);
            // decode within one budget for the run and keep each image at most as large as a backend of the run can use
            long keep = panel.defaultBackend().capabilities().maxImagePixels();
            if (!panel.entries().isEmpty()) keep = Math.max(keep, dev.gamagent.backend.Capabilities.DEFAULT_MAX_PIXELS);
            // one VideoFrames (one on-disk frame cache) for every question's video; a benchmark's name picks its variant (MVBench_64frame)
            var images = Images.from(config, DecodeBudget.megapixels(config.number("image.decode_budget_megapixels")), keep)
                    .withVideos(req.frames(), BenchmarkResolver.videoDataset(named.data()));
            // one read of the file indexes its rows and hashes it for the run identity
            ds = BenchmarkLoader.load(file.path(), req.filter(), images, indexing(file.path(), err));
            file = file.withSha256(ds.sha256());
            if (ds.questions().isEmpty()) {
                throw new IllegalArgumentException(file.path() + ": no usable questions"
                        + (req.filter().category() != null ? " in category '" + req.filter().category() + "'" : "")
                        + (ds.skipped().isEmpty() ? "" : " (" + ds.skipped().size() + " rows skipped, first: " + ds.skipped().get(0) + ")"));
            }
        } else {
            ds = ((EvalRequest.Loaded) req.data()).dataset();
        }
        config = BenchmarkResolver.grading(file, ds, config, req.grading());
        boolean circular = req.circular() != null ? req.circular()
                : file != null && CircularExpansion.defaultFor(file.path().getFileName().toString());
        RunIdentity identity = req.identity() == null ? null : RunIdentity.of(ds.name(), ds.sha256() != null ? ds.sha256() : "(not hashed)",
                req.identity().kind(), req.identity().model(), req.identity().judge(), config);
        Plan plan = new Plan(ds, circular, req.methods(), req.out(), req.concurrency(), req.command(), identity, req.forceNew());
        DataFiles.DataFile data = file;
        Config graded = config;
        Dataset dataset = ds;
        String judgeName = judge == null ? null : req.identity() != null && req.identity().judge() != null ? req.identity().judge() : judge.name();
        List<String> notes = new ArrayList<>();
        Finish finish = (records, e) -> {
            Map<String, com.fasterxml.jackson.databind.JsonNode> fields = new java.util.LinkedHashMap<>();
            if (data != null) {
                BenchmarkResolver.Additions a = BenchmarkResolver.additions(data, dataset, req.filter(), judgeName, req.out(), records, e);
                fields.putAll(a.fields());
                notes.addAll(a.notes());
            }
            // whether the grading is the paper harness's (paper tables mark a column whose grading is not)
            PaperGrading.Verdict v = PaperGrading.of(data == null ? null : data.entry(), graded, judge, records);
            fields.putAll(PaperGrading.fields(v));
            if (!v.comparable() && data != null && data.entry() != null) notes.add("grading not comparable with the paper's: " + v.why());
            if (req.paperFigures() != null) {
                try {
                    com.fasterxml.jackson.databind.JsonNode figures = req.paperFigures().of(records);
                    if (figures != null) fields.put(PAPER_FIGURES, figures);
                } catch (RuntimeException ex) {
                    e.println("warning: could not add the paper's figures to the summary and report: " + ex.getMessage());
                }
            }
            return fields;
        };
        Ran ran = run(plan, panel, judge, config, req.secrets(), err, progress.display(), finish);
        return new Result(ran.summary(), List.copyOf(notes), List.of(req.out().resolve("results.jsonl"), req.out().resolve(SUMMARY),
                req.out().resolve("report.html")), ran.provenance());
    }

    /** summary.json's field with a reproduction's paper figures; the report marks them. */
    static final String PAPER_FIGURES = "paper_figures";
    /** The summary's file in a run's directory. */
    static final String SUMMARY = RunSummary.FILE;

    /** What is added to summary.json once the run's records are known, before it is written. */
    @FunctionalInterface
    interface Finish {
        Map<String, com.fasterxml.jackson.databind.JsonNode> fields(List<ResultRecord> records, PrintStream err);

        Finish NOTHING = (records, err) -> Map.of();
    }

    /** Progress of the one read that indexes the file: a line every 2 s (none for a file read in less). */
    private static BenchmarkLoader.Progress indexing(Path data, PrintStream err) {
        long start = System.nanoTime();
        long[] last = {start};
        return (bytes, size) -> {
            long now = System.nanoTime();
            if (now - last[0] < 2_000_000_000L) return;
            last[0] = now;
            err.printf(java.util.Locale.ROOT, "indexing %s: %.0f of %.0f MB (%.0f s)%n", data, bytes / 1e6, size / 1e6, (now - start) / 1e9);
        };
    }

    /** A run whose agents all use {@code backend} (tests). */
    static RunSummary run(Plan plan, Backend backend, Backend judge, Config config, PrintStream err,
                          LongFunction<EvalRunner.ProgressSink> progress) {
        return run(plan, NamedBackends.of(backend), judge, config, SecretScrubber.NONE, err, progress, Finish.NOTHING).summary();
    }

    /** A run's summary and, for a benchmark read from a file, where its figures come from (else null). */
    private record Ran(RunSummary summary, Provenance provenance) { }

    /**
     * @param backends the default backend and the named ones the methods' agents may use
     * @param progress makes the progress display for the number of pending pairs
     * @param finish   what summary.json adds from the run's records
     */
    private static Ran run(Plan plan, NamedBackends backends, Backend judge, Config config, SecretScrubber secrets, PrintStream err,
                                  LongFunction<EvalRunner.ProgressSink> progress, Finish finish) {
        printSkipped(plan.dataset().name(), plan.dataset().skipped(), err);
        if (plan.forceNew()) {
            Path moved = ResultStore.moveAside(plan.out());
            if (moved != null) err.println("--force-new: moved the earlier run's files to " + moved);
        }
        List<EvalQuestion> questions = plan.circular() ? CircularExpansion.expand(plan.dataset().questions()) : plan.dataset().questions();
        EvalRunner.Stats stats;
        RunSummary summary;
        Provenance provenance = null;
        boolean thumbnails = plan.dataset().questions().size() <= HtmlReport.MAX_THUMBNAILS;
        try (ResultStore store = new ResultStore(plan.out())) {
            if (plan.identity() != null) checkIdentity(plan, store, err);
            EvalRunner runner = new EvalRunner(backends, config, new Grader(config, judge), store, plan.concurrency(), secrets);
            // thumbnails are made while the questions wait on the model, on threads of their own, from copies of the images
            java.util.concurrent.ExecutorService thumbs = thumbnails ? java.util.concurrent.Executors.newFixedThreadPool(
                    Math.max(1, Runtime.getRuntime().availableProcessors()), r -> {
                        Thread t = new Thread(r, "gam-eval-thumbnail");
                        t.setDaemon(true);
                        t.setPriority(Thread.MIN_PRIORITY);
                        return t;
                    }) : null;
            List<java.util.concurrent.Future<?>> made = java.util.Collections.synchronizedList(new ArrayList<>());
            ThumbnailCache drawn = new ThumbnailCache();
            // each question's content hash while its images are in memory (gam report compares runs on the same content)
            Map<String, String> hashes = new java.util.concurrent.ConcurrentHashMap<>();
            runner.onEachQuestion((eq, q) -> {
                if (eq.rotation() == 0) hashes.put(QuestionHashes.groupOf(eq), QuestionHashes.of(eq.shell(), q.images()));
                if (thumbnails && !(eq.rotation() > 0 && eq.id().contains("#r")) && !q.images().isEmpty()) { // a rotation shows its question's image
                    // a video's frames all: the report shows them as a strip (HtmlReport.thumbnail)
                    List<dev.gamagent.image.Picture> pics = List.copyOf(q.images());
                    made.add(thumbs.submit(() -> thumbnail(store, eq, pics, drawn)));
                }
            });
            EvalRunner.ProgressSink[] sink = {r -> { }};
            try {
                stats = runner.run(questions, plan.methods(), n -> sink[0] = progress.apply(n), r -> sink[0].finished(r));
                synchronized (made) {
                    for (var f : made) {
                        try {
                            f.get();
                        } catch (java.util.concurrent.ExecutionException failedThumbnail) {
                            // that question is shown without its image
                        }
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("evaluation interrupted; rerun the same command to resume", e);
            } finally {
                if (thumbs != null) thumbs.shutdownNow();
            }
            long ended = System.nanoTime();
            printSkipped(plan.dataset().name(), stats.skipped(), err);
            if (stats.alreadyDone() > 0) err.println("resumed: " + stats.alreadyDone() + " question × method pairs were already done in " + plan.out());
            if (stats.errors() > 0 && !stats.allFailed()) {
                err.println(stats.errors() + " pairs failed (recorded as 'error'); rerun the same command to retry them");
            }
            Set<String> ids = new HashSet<>();
            Set<String> badGroups = badGroups(stats);
            for (EvalQuestion q : questions) if (!badGroups.contains(q.group())) ids.add(q.id());
            Set<String> methods = Set.copyOf(plan.methods());
            List<SkippedRow> skipped = new ArrayList<>(plan.dataset().skipped());
            skipped.addAll(stats.skipped());
            // the summary reads the stored records once; the report reads them again as it writes, holding none
            List<ResultRecord> records = new ArrayList<>();
            store.forEach(ids, methods, r -> records.add(forSummary(r)));
            summary = RunSummary.compute(plan.dataset().name(), plan.methods(), plan.circular(),
                    (int) questions.stream().map(EvalQuestion::group).distinct().filter(g -> !badGroups.contains(g)).count(), skipped,
                    records, PriceTable.from(config), GamSettings.stopping(config).thetaU(), plan.command());
            String firstError = stats.allFailed()
                    ? records.stream().filter(ResultRecord::isError).map(r -> r.grade().error()).findFirst().orElse("?") : null;
            Map<String, com.fasterxml.jackson.databind.JsonNode> added = new java.util.LinkedHashMap<>(finish.fields(records, err));
            records.clear(); // the report reads them again from the store, one at a time
            added.put(QuestionHashes.FIELD, QuestionHashes.field(QuestionHashes.ofRun(plan.dataset().questions(), badGroups, hashes)));
            added.put(Provenance.RUN_FIELD, runField(plan, backends, config));
            // where the figures come from, once every other field is known: the report's header and a reproduction's table say it
            provenance = Provenance.of(summary, added);
            added.put(Provenance.SUMMARY_FIELD, dev.gamagent.util.Json.MAPPER.valueToTree(provenance));
            summary.write(plan.out().resolve(SUMMARY), added);
            long summarised = System.nanoTime();
            Map<String, String> images = thumbnails ? thumbnails(store, plan.dataset().questions()) : Map.of();
            Path report = plan.out().resolve("report.html");
            HtmlReport.write(report, summary, store.view(ids, methods), images, added.get(PAPER_FIGURES), provenance);
            err.printf(java.util.Locale.ROOT, "wrote summary.json in %.2f s and report.html (%.1f MB) in %.2f s%n", (summarised - ended) / 1e9,
                    size(report) / 1e6, (System.nanoTime() - summarised) / 1e9);
            if (stats.allFailed()) {
                throw new AllPairsFailed("all " + stats.errors() + " question × method pairs failed, nothing was graded; first failure: "
                        + firstError + " (the pairs are recorded as 'error' in " + plan.out() + "; rerun the same command to retry them)");
            }
        }
        return new Ran(summary, provenance);
    }

    /**
     * What ran, for the report's header: the model and backend (the run identity's, else the default backend's name), the
     * SHA-256 of every setting that can change an answer or a grade (the identity's settings), gam's commit, and now.
     */
    private static com.fasterxml.jackson.databind.JsonNode runField(Plan plan, NamedBackends backends, Config config) {
        RunIdentity id = plan.identity() != null ? plan.identity() : RunIdentity.of(plan.dataset().name(), "", backends.defaultBackend().name(), null, null, config);
        String model = plan.identity() != null ? id.model() : null;
        String digest;
        try {
            digest = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(dev.gamagent.util.Json.write(id.settings()).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
        return Provenance.runField(model, plan.identity() != null ? id.backend() : backends.defaultBackend().name(), digest,
                dev.gamagent.eval.report.CheckoutCommit.ofGam(), java.time.Instant.now());
    }


    /** Trace fields of each agent that hold words, not figures: no summary figure reads them. */
    static final List<String> AGENT_TEXT = List.of("claims", "raw", "prompt", "prompts", "messages", "reasoning");
    /** The same of each critique. */
    static final List<String> CRITIQUE_TEXT = List.of("claimText", "reason", "correction", "raw", "prompt", "prompts");

    /**
     * A stored record as the summary reads it: its trace without the words (claims, raw replies, prompts, critique
     * texts), which are most of a debate's trace, so the summary of thousands of debates holds their figures only.
     * The report reads the records whole, again, from the store.
     */
    static ResultRecord forSummary(ResultRecord r) {
        if (!(r.trace().json() instanceof com.fasterxml.jackson.databind.node.ObjectNode t)) return r;
        t.remove(List.of("prompts", "messages"));
        for (com.fasterxml.jackson.databind.JsonNode round : t.path("rounds")) {
            if (round instanceof com.fasterxml.jackson.databind.node.ObjectNode o) o.remove(List.of("prompts", "messages"));
            for (com.fasterxml.jackson.databind.JsonNode a : round.path("agents")) {
                if (a instanceof com.fasterxml.jackson.databind.node.ObjectNode o) o.remove(AGENT_TEXT);
            }
            for (com.fasterxml.jackson.databind.JsonNode c : round.path("critiques")) {
                if (c instanceof com.fasterxml.jackson.databind.node.ObjectNode o) o.remove(CRITIQUE_TEXT);
            }
        }
        for (com.fasterxml.jackson.databind.JsonNode p : t.path("extra").path("probes")) {
            if (p instanceof com.fasterxml.jackson.databind.node.ObjectNode o) o.remove(AGENT_TEXT);
        }
        return r;
    }

    private static long size(Path f) {
        try {
            return java.nio.file.Files.size(f);
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    /** Skipped rows, one line each up to {@value #SKIPPED_SHOWN}; the rest are counted (all are in summary.json). */
    private static void printSkipped(String data, List<SkippedRow> rows, PrintStream err) {
        for (int i = 0; i < rows.size() && i < SKIPPED_SHOWN; i++) err.println("skipped " + data + " " + rows.get(i));
        if (rows.size() > SKIPPED_SHOWN) err.println("skipped " + (rows.size() - SKIPPED_SHOWN) + " more rows of " + data
                + " (every skipped row is listed in summary.json)");
    }

    static final int SKIPPED_SHOWN = 20;

    /**
     * A question's report thumbnail, kept with the results. It is made from a copy of the image, so the picture the
     * question sends is not decoded (and its pixels not held) while the question waits on the model.
     */
    private static void thumbnail(ResultStore store, EvalQuestion eq, List<dev.gamagent.image.Picture> pics, ThumbnailCache made) {
        String key = ThumbnailCache.keyOf(pics);
        String url = key == null ? null : made.get(key);
        if (url != null) {
            store.putThumbnail(eq.id(), url);
            return;
        }
        List<dev.gamagent.image.Picture> copies = pics.size() == 1 ? List.of(thumbnailSource(pics.get(0)))
                : pics.stream().map(Evaluation::thumbnailSource).toList();
        KeyedQuestion q = KeyedQuestion.unkeyed(new dev.gamagent.api.Question(eq.id(), copies, "", null, Map.of()));
        HtmlReport.thumbnails(List.of(new EvalQuestion(q, eq.group(), 0, eq.split()))).forEach((id, u) -> {
            store.putThumbnail(id, u);
            if (key != null) made.put(key, u);
        });
    }

    /**
     * Thumbnails already made in this run, by the images' encoded bytes (SHA-256): questions that show the same image
     * (two questions on one MME picture, rows naming another row's image, a benchmark's repeated photos) decode and
     * draw it once. Bounded (least recently used out); a decoded picture, which has no bytes of its own yet, is not kept.
     */
    static final class ThumbnailCache {
        private static final int ENTRIES = 256;
        private final Map<String, String> urls = new java.util.LinkedHashMap<>(16, 0.75f, true) {
            @Override protected boolean removeEldestEntry(Map.Entry<String, String> e) { return size() > ENTRIES; }
        };

        static String keyOf(List<dev.gamagent.image.Picture> pics) {
            try {
                java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
                for (dev.gamagent.image.Picture p : pics) {
                    if (p.isDecoded()) return null;
                    md.update(p.encoding().base64());
                    md.update((byte) 0);
                }
                return java.util.HexFormat.of().formatHex(md.digest());
            } catch (java.security.NoSuchAlgorithmException e) {
                return null;
            }
        }

        synchronized String get(String key) { return urls.get(key); }

        synchronized void put(String key, String url) { urls.put(key, url); }
    }

    /** The width the report draws a question's image at (HtmlReport's thumbnails). */
    static final int THUMBNAIL_WIDTH = 420;

    /**
     * The copy of a question's image a thumbnail is made from: read again from its bytes, every n-th pixel of every
     * n-th row (n: how many times the thumbnail's width it is, rounded down) and downscaled to the thumbnail's size, so
     * a 1-MP photo is not decoded whole for a 420-px picture; a PNG or JPEG the report shows as its own bytes (up to
     * 640 px wide) stays its bytes: it was decoded and drawn again for nothing.
     */
    static dev.gamagent.image.Picture thumbnailSource(dev.gamagent.image.Picture p) {
        if (p.isDecoded() || HtmlReport.showsAsItIs(p)) return p;
        long rows = Math.max(1, (long) Math.ceil(THUMBNAIL_WIDTH * (double) p.height() / Math.max(1, p.width())));
        return new dev.gamagent.image.ImageLoader(dev.gamagent.image.ImageLoader.DEFAULT_MAX_PIXELS).keepingAtMost(THUMBNAIL_WIDTH * rows)
                .encoded(p.source(), p.encoding().bytes());
    }

    /** The kept thumbnails of these questions; those missing (a run stored before thumbnails were kept) are made now. */
    private static Map<String, String> thumbnails(ResultStore store, List<EvalQuestion> questions) {
        Set<String> ids = new HashSet<>();
        for (EvalQuestion q : questions) ids.add(q.id());
        Map<String, String> kept = store.thumbnails(ids);
        List<EvalQuestion> missing = questions.stream().filter(q -> !kept.containsKey(q.id())).toList();
        if (missing.isEmpty()) return orderedBy(questions, kept);
        Map<String, String> made = HtmlReport.thumbnails(missing);
        made.forEach(store::putThumbnail);
        kept.putAll(made);
        return orderedBy(questions, kept);
    }

    private static Map<String, String> orderedBy(List<EvalQuestion> questions, Map<String, String> byId) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (EvalQuestion q : questions) if (byId.containsKey(q.id())) out.put(q.id(), byId.get(q.id()));
        return out;
    }

    /** Rows skipped when their images turned out undecodable: their groups are left out of the summary. */
    private static Set<String> badGroups(EvalRunner.Stats stats) {
        Set<String> out = new HashSet<>();
        for (SkippedRow r : stats.skipped()) out.add(r.index());
        return out;
    }

    /**
     * Refuses to add records to a directory holding another run's; a directory without an identity (new, or
     * written before identities existed) takes this run's.
     */
    private static void checkIdentity(Plan plan, ResultStore store, PrintStream err) {
        RunIdentity stored = store.identity();
        if (stored == null) {
            if (store.size() > 0) {
                err.println("note: " + plan.out() + " holds " + store.size() + " results from before run identities were stored; "
                        + "assuming they were made with the same data, backend, model and settings");
            }
            store.identity(plan.identity());
            return;
        }
        List<String> diffs = plan.identity().differencesFrom(stored);
        if (diffs.isEmpty()) return;
        throw new IllegalArgumentException(plan.out() + " holds " + store.size() + " results of a different run ("
                + String.join("; ", diffs) + "); resuming would mix them. Use the same data, backend, model and settings to resume, "
                + "or start over with --force-new (moves the old results aside) or another --out");
    }
}
