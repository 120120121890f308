package dev.gamagent.eval.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.grade.GradingMode;
import dev.gamagent.eval.grade.OpenAnswerMatcher;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where one run's figures come from, read from its summary (summary.json as written): the benchmark file and how its md5
 * compares with the published one, how many of the file's questions ran, the stand-in it is for, the grading rule and
 * judge, and whether that grading is comparable with the papers'. The paper's table (a column each) and the run's
 * report header print it; a figure from a file that is not the official one, from part of a benchmark, or graded in a
 * way the papers did not, is marked ({@link #marks}).
 *
 * @param column        the paper's column the run stands for (a reproduction's), or null
 * @param benchmark     the benchmark's name gam knows it by, or null for a file gam does not know
 * @param file          the file's name (not its directory: the table is shared)
 * @param path          where the file was read
 * @param md5           {@code official} (its md5 is the published one), {@code differs} (it is not), {@code unknown} (no
 *                      md5 is published, or gam does not know the file)
 * @param check         the data file's check in full ({@code recorded_now}, {@code differs}, …)
 * @param rowsRun       the file's rows that became the run's questions (null: not recorded)
 * @param rowsInFile    all of the file's rows (null: not counted)
 * @param limit         {@code --limit} (0: none)
 * @param category      the one category run, or null
 * @param standIn       why this file stands in for the paper's split, or null
 * @param grading       the grading rule(s): the catalogue's kind and the modes the records name
 * @param judge         the judge backend, or null
 * @param comparable    whether the grading is the one the papers' harnesses use
 * @param comparability why not (or why it is), one line
 * @param model         the model the run asked (summary.json's {@code run.model}), or null (not recorded)
 * @param backend       the run's backend kind ({@code run.backend}), or null
 * @param configDigest  the first 12 hex digits of the SHA-256 of every setting that can change an answer or a grade
 *                      (the run identity's settings, {@code run.config_sha256}), or null
 * @param commit        the git commit gam ran from ({@link CheckoutCommit}), or null
 * @param date          when the summary was written (UTC, ISO 8601), or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Provenance(String column, String benchmark, String file, String path, String md5, String check, Integer rowsRun,
                         Long rowsInFile, int limit, String category, String standIn, String grading, String judge, boolean comparable,
                         String comparability, String model, String backend, String configDigest, String commit, String date) {
    /** The summary key of what ran: model, backend, configuration digest, commit and date ({@link #runField}). */
    public static final String RUN_FIELD = "run";

    /** The summary field {@value #RUN_FIELD}; null values are left out. */
    public static JsonNode runField(String model, String backend, String configSha256, String commit, java.time.Instant date) {
        com.fasterxml.jackson.databind.node.ObjectNode o = dev.gamagent.util.Json.MAPPER.createObjectNode();
        if (model != null) o.put("model", model);
        if (backend != null) o.put("backend", backend);
        if (configSha256 != null) o.put("config_sha256", configSha256);
        if (commit != null) o.put("commit", commit);
        if (date != null) o.put("date", java.time.format.DateTimeFormatter.ISO_INSTANT.format(date.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)));
        return o;
    }

    /** The summary key a run's provenance is written under. */
    public static final String SUMMARY_FIELD = "provenance";
    /** Marks of a figure: a file that is not the official one, part of a benchmark, a grading the papers did not use. */
    public static final String UNOFFICIAL = "u", PARTIAL = "p", NOT_COMPARABLE = "g";

    /** Catalogue gradings whose answers are open text: the papers' harnesses extract them with a judge model. */
    private static final List<String> OPEN_GRADINGS = List.of("open", "mathvista");

    /**
     * The provenance summary.json records: its {@code data_file}, {@code judge}, {@code grading}, {@code grading_rules},
     * {@code paper_figures} (a reproduction's column and stand-in) and, when the grading said so, {@code grading_comparable}
     * and {@code grading_comparability}. Without those two, multiple-choice and yes/no grading is comparable, and open answers
     * graded without a judge are not.
     */
    public static Provenance of(JsonNode summary) {
        JsonNode df = summary.path("data_file");
        JsonNode pf = summary.path("paper_figures");
        String path = text(df, "file");
        String file = path == null ? null : fileName(path);
        JsonNode official = df.path("official");
        String md5 = official.isBoolean() ? (official.asBoolean() ? "official" : "differs") : "unknown";
        Integer rowsRun = df.hasNonNull("rows_run") ? df.get("rows_run").asInt() : null;
        Long rowsInFile = df.hasNonNull("rows_in_file") ? df.get("rows_in_file").asLong() : null;
        String catalogueGrading = text(df, "grading");
        String modes = text(summary, "grading");
        String judge = text(summary, "judge");
        boolean open = catalogueGrading != null && OPEN_GRADINGS.contains(catalogueGrading);
        List<String> matcher = new ArrayList<>();
        summary.path("grading_rules").fieldNames().forEachRemaining(rule -> {
            if (isOpenRule(rule)) matcher.add(rule);
        });
        open = open || !matcher.isEmpty() && !"yes-no".equals(catalogueGrading);
        List<String> parts = new ArrayList<>();
        if (catalogueGrading != null) parts.add(catalogueGrading);
        if (modes != null) parts.add(GradingMode.describeLabels(modes));
        if (!matcher.isEmpty()) parts.add("open answers by gam's matcher (" + String.join(", ", matcher) + ")");
        String grading = parts.isEmpty() ? null : String.join("; ", parts);
        boolean comparable;
        String why;
        if (summary.path("grading_comparable").isBoolean()) {
            comparable = summary.get("grading_comparable").asBoolean();
            why = text(summary, "grading_comparability");
            if (why == null) why = comparable ? "graded as the papers' harness grades it" : "not graded as the papers' harness grades it";
        } else if (open && judge == null) {
            comparable = false;
            why = "open answers graded by gam's rules without a judge; the papers' harnesses extract them with a judge model";
        } else {
            comparable = true;
            why = open ? "open answers with the judge " + judge : "multiple-choice or yes/no answers graded by rule, as the harnesses do";
        }
        JsonNode run = summary.path(RUN_FIELD);
        String digest = text(run, "config_sha256");
        return new Provenance(text(pf, "column"), text(df, "name"), file, path, md5, text(df, "check"), rowsRun, rowsInFile,
                df.path("limit").asInt(0), text(df, "category"), text(pf, "stand_in"), grading, judge, comparable, why,
                text(run, "model"), text(run, "backend"), digest == null ? null : digest.substring(0, Math.min(12, digest.length())),
                text(run, "commit"), text(run, "date"));
    }

    /** The same provenance as the paper's column {@code column}, standing in for its split as {@code standIn} says (or null). */
    public Provenance forColumn(String column, String standIn) {
        return new Provenance(column, benchmark, file, path, md5, check, rowsRun, rowsInFile, limit, category,
                standIn != null ? standIn : this.standIn, grading, judge, comparable, comparability, model, backend, configDigest, commit, date);
    }

    /** A rule of {@link OpenAnswerMatcher} or MathVista's prefetch: an open answer read without a judge. */
    private static boolean isOpenRule(String rule) {
        if (rule.startsWith("mathvista:")) return true;
        return Arrays.stream(OpenAnswerMatcher.Match.values()).anyMatch(m -> m.name().toLowerCase(Locale.ROOT).equals(rule));
    }

    /** Not the official file: its md5 differs from the published one, or it is a file gam does not know. */
    @JsonIgnore public boolean unofficial() { return "differs".equals(md5) || benchmark == null; }

    /** Part of the benchmark: {@code --limit} or one category left some of the file's rows out. */
    @JsonIgnore public boolean partial() {
        return (limit > 0 || category != null) && rowsRun != null && rowsInFile != null && rowsRun < rowsInFile;
    }

    /** The marks of a figure from this run: {@link #UNOFFICIAL}, {@link #PARTIAL}, {@link #NOT_COMPARABLE}, in that order. */
    public List<String> marks() {
        List<String> out = new ArrayList<>();
        if (unofficial()) out.add(UNOFFICIAL);
        if (partial()) out.add(PARTIAL);
        if (!comparable) out.add(NOT_COMPARABLE);
        return List.copyOf(out);
    }

    /** What a mark means for this run, one line (for the note under a table). */
    public String meaning(String mark) {
        String what = column != null ? column : benchmark != null ? benchmark : file;
        return switch (mark) {
            case UNOFFICIAL -> what + ": " + file + (benchmark == null ? " is a file gam does not know, not the official benchmark"
                    : " is not the official file (its md5 differs from the published one)") + "; its figures are not comparable with published ones";
            case PARTIAL -> what + ": " + questions() + "; a figure on part of the benchmark is not the benchmark's";
            case NOT_COMPARABLE -> what + ": grading not comparable with the paper's: " + comparability;
            default -> throw new IllegalArgumentException("no mark '" + mark + "'");
        };
    }

    /** "20 of 20 questions", "3 of 4,329 questions (--limit 3)". */
    public String questions() {
        if (rowsRun == null) return "questions not recorded";
        String of = rowsInFile == null ? rowsRun + " questions" : String.format(Locale.ROOT, "%,d of %,d questions", rowsRun, rowsInFile);
        List<String> why = new ArrayList<>();
        if (limit > 0) why.add("--limit " + limit);
        if (category != null) why.add("category " + category);
        return of + (why.isEmpty() ? "" : " (" + String.join(", ", why) + ")");
    }

    /** One line of what ran: model and backend, configuration digest, commit, date (a report's header puts it before {@link #describe}). */
    public String describeRun() {
        List<String> parts = new ArrayList<>();
        // a run without --model (the built-in model, a server's own default) names its backend only
        if (model != null) parts.add("model " + model + (backend == null ? "" : " on " + backend));
        else if (backend != null) parts.add("backend " + backend);
        if (configDigest != null) parts.add("configuration " + configDigest);
        parts.add("commit " + (commit == null ? "not recorded" : commit.substring(0, Math.min(12, commit.length()))));
        parts.add(date == null ? "date not recorded" : date);
        return String.join("; ", parts);
    }

    /** One line: file, md5 check, questions, stand-in, grading, judge, comparability. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (file == null) {
            parts.add("no data file (questions given to gam directly, as the demo's)");
        } else {
            parts.add(file + (benchmark != null && !stem(file).equals(benchmark) ? " (" + benchmark + ")" : ""));
            parts.add("md5 " + switch (md5) {
                case "official" -> "official";
                case "differs" -> "differs from the published one";
                default -> benchmark == null ? "unknown (a file gam does not know)" : "unknown (none is published)";
            });
            parts.add(questions());
        }
        if (standIn != null) parts.add("stand-in: " + standIn);
        parts.add("grading: " + (grading == null ? "not recorded" : grading));
        parts.add("judge: " + (judge == null ? "none" : judge));
        parts.add(comparable ? "comparable" : "NOT comparable: " + comparability);
        return String.join("; ", parts);
    }

    private static String stem(String name) {
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    private static String fileName(String path) {
        Path p = Path.of(path).getFileName();
        return p == null ? path : p.toString();
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() || v.isMissingNode() ? null : v.asText();
    }

    /** The summary's provenance when it was written with one, else read from its other keys. */
    public static Provenance ofSummary(JsonNode summary) {
        JsonNode p = summary.get(SUMMARY_FIELD);
        if (p != null && p.isObject()) {
            return dev.gamagent.util.Json.MAPPER.convertValue(p, Provenance.class);
        }
        return of(summary);
    }

    /** For {@code Map.of}-style callers: a run's summary fields (summary.json's own and those added) as one tree. */
    static JsonNode tree(RunSummary s, Map<String, JsonNode> added) {
        com.fasterxml.jackson.databind.node.ObjectNode t = dev.gamagent.util.Json.MAPPER.valueToTree(s);
        added.forEach(t::set);
        return t;
    }

    /** A run's provenance from its summary and the fields added to it. */
    public static Provenance of(RunSummary s, Map<String, JsonNode> added) { return of(tree(s, added)); }
}
