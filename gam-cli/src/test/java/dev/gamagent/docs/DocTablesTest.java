package dev.gamagent.docs;

import dev.gamagent.bench.golden.GoldenRecord;
import dev.gamagent.bench.sim.ModelServerSimulator;
import dev.gamagent.bench.sim.SimulatorSettings;
import dev.gamagent.cli.DemoRun;
import dev.gamagent.eval.BenchTables;
import dev.gamagent.testing.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 39, item 6: no figure in the docs that the code no longer prints. Three checks:
 * <ul>
 *   <li>every table {@code bench/doc-tables.sh} regenerates is stamped with the golden record of the code that made it
 *   (the hashes {@code bench/golden.sh} computes for {@code gam demo}'s and a 13-method simulator run's answers and traces);
 *   this test computes today's from the demo it shares with {@code ReadmeDemoTableTest} and the same simulator run
 *   (zero latency, about 20 s), so any change that moves an answer, a trace or a token count fails here until the script
 *   has rewritten the tables. The runs behind most tables take 40 minutes, too long for {@code mvn verify}: the stamp is
 *   how they are checked;</li>
 *   <li>the tables it can recompute cheaply are compared cell for cell: the demo's (README, video.md; {@code s/q}, a
 *   time, left out) and the image tokens per family (performance.md);</li>
 *   <li>every other table of figures in the docs (a Markdown table most of whose cells are numbers, or a code block of
 *   such lines) says how it was made: a {@code <!-- figures: once -->} line before it (a measurement made once on its
 *   own data, e.g. on fresh seeds: its section names the command, the commit and the date) or
 *   {@code <!-- figures: timing -->} (times, throughput, memory: the command, the date and the machine); the tables
 *   {@code ./test reliability} writes are its own.</li>
 * </ul>
 */
class DocTablesTest {
    static final String RERUN = "; run bench/doc-tables.sh (about 40 minutes on 2 cores), which regenerates them from today's code";

    @TempDir Path tmp;

    /** Every regenerated table in the docs, in document order. */
    static List<DocTables.Block> allBlocks() throws Exception {
        List<DocTables.Block> out = new ArrayList<>();
        for (Path doc : DocTables.documents()) out.addAll(DocTables.blocks(doc, Files.readString(doc)));
        return out;
    }

    @Test void everyRegeneratedTableWasMadeByTodaysCode() throws Exception {
        List<DocTables.Block> blocks = allBlocks();
        assertThat(blocks).as("regenerated tables in the docs").hasSizeGreaterThanOrEqualTo(8);
        DemoRun demo = DemoRun.get();
        assertThat(demo.run().code()).as(demo.run().err()).isZero();
        DocTables.Fingerprint today = new DocTables.Fingerprint(GoldenRecord.sha256Of(demo.results()), simulatorRecord());
        List<String> stale = new ArrayList<>();
        for (DocTables.Block b : blocks) {
            if (!today.equals(b.stamp())) stale.add(b.where() + " " + b.name() + " (" + (b.stamp() == null ? "never regenerated" : b.stamp()) + ")");
        }
        assertThat(stale).as("tables made by other code than today's, whose golden record is " + today + RERUN).isEmpty();
    }

    /** The SHA-256 of the simulator run bench/golden.sh makes (its methods, questions and simulator, read from the script). */
    String simulatorRecord() throws Exception {
        String golden = Files.readString(Path.of("bench/golden.sh"));
        Matcher methods = Pattern.compile("(?m)^methods=\"([^\"]+)\"").matcher(golden);
        Matcher generate = Pattern.compile("bench generate --n (\\d+) --seed (\\d+)").matcher(golden);
        Matcher slots = Pattern.compile("serve-sim --port 0 --latency-ms \\d+ --slots (\\d+)").matcher(golden);
        assertThat(methods.find() && generate.find() && slots.find()).as("bench/golden.sh's methods, generated questions and simulator").isTrue();
        Path data = tmp.resolve("sim.tsv"), out = tmp.resolve("sim");
        CommandRun gen = CommandRun.main("bench", "generate", "--n", generate.group(1), "--seed", generate.group(2), "--out", data.toString());
        assertThat(gen.code()).as(gen.err()).isZero();
        // the simulator's replies depend on the request alone, not on its latency: zero here, 5 ms in bench/golden.sh
        try (ModelServerSimulator sim = new ModelServerSimulator(SimulatorSettings.fixed(Duration.ZERO, Integer.parseInt(slots.group(1))))) {
            CommandRun eval = CommandRun.main("eval", "--data", data.toString(), "--methods", methods.group(1), "--backend", "openai",
                    "--base-url", sim.baseUrl(), "--model", SimulatorSettings.DEFAULT_MODEL, "--out", out.toString());
            assertThat(eval.code()).as(eval.err()).isZero();
        }
        return GoldenRecord.sha256Of(out.resolve("results.jsonl"));
    }

    /** The tables this test recomputes: name → the text the script would write. */
    static Map<String, String> recomputed() {
        DemoRun demo = DemoRun.get();
        assertThat(demo.run().code()).as(demo.run().err()).isZero();
        List<String> printed = demo.printedTables();
        Map<String, String> out = new LinkedHashMap<>();
        out.put("demo", "```\n" + String.join("\n", printed) + "\n```");
        out.put("demo-methods", "```\n" + String.join("\n", printed.subList(0, Math.max(0, printed.indexOf("")))) + "\n```");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BenchTables.imageTokens(List.of("448x336", "768x576"), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        out.put("dream-imagetokens", bytes.toString(StandardCharsets.UTF_8).strip());
        return out;
    }

    @Test void theTablesCheapToRecomputeAreWhatTheCodePrintsToday() throws Exception {
        Map<String, String> now = recomputed();
        Set<String> seen = new TreeSet<>();
        List<String> differ = new ArrayList<>();
        for (DocTables.Block b : allBlocks()) {
            String expected = now.get(b.name());
            if (expected == null) continue;
            seen.add(b.name());
            if (!withoutTimes(b.text()).equals(withoutTimes(expected))) {
                differ.add(b.where() + " " + b.name() + ":\n" + b.text() + "\n--- what the code prints today ---\n" + expected);
            }
        }
        assertThat(seen).as("the recomputed tables have their markers in the docs").isEqualTo(new TreeSet<>(now.keySet()));
        assertThat(differ).as("regenerated tables that differ from what today's code prints (s/q, a time, left out)" + RERUN).isEmpty();
    }

    /** A table's lines, each split into cells, with the cells of an {@code s/q} column (a time) replaced by "*". */
    static List<List<String>> withoutTimes(String table) {
        List<List<String>> out = new ArrayList<>();
        int time = -1;
        for (String l : table.strip().lines().toList()) {
            List<String> cells = new ArrayList<>(Arrays.asList(l.strip().split("\\s+")));
            if (l.startsWith("method ")) time = cells.indexOf("s/q");
            else if (l.isBlank()) time = -1;
            else if (time >= 0 && time < cells.size()) cells.set(time, "*");
            out.add(cells);
        }
        return out;
    }

    @Test void theScriptRegeneratesEveryMarkedTableAndNoOther() throws Exception {
        Set<String> inScript = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\s*table ([a-z0-9-]+) ").matcher(Files.readString(Path.of("bench/doc-tables.sh")));
        while (m.find()) inScript.add(m.group(1));
        Map<String, String> where = new LinkedHashMap<>();
        for (DocTables.Block b : allBlocks()) {
            String before = where.putIfAbsent(b.name(), b.where());
            assertThat(before).as(b.where() + ": the table name " + b.name() + " is used at " + before + " too").isNull();
        }
        assertThat(where.keySet()).as("tables marked in the docs vs tables bench/doc-tables.sh writes").containsExactlyInAnyOrderElementsOf(inScript);
    }

    // ---- the structural check: every other table of figures says how it was measured ----

    /**
     * A table of figures outside the regenerated ones: where it starts, its marker's kind ({@code once}, {@code timing},
     * {@code none}; null without one) and its section's text (from the heading of level 1 or 2 above it to the next).
     */
    record FigureTable(Path doc, int line, String kind, String section) {
        String where() { return doc + ":" + line; }
    }

    private static final Pattern FIGURE_CELL = Pattern.compile("^[*`]*[~≈<>≤≥±+\\-−]?\\s*\\d.*");
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.])[+\\-]?\\d[\\d,.]*%?(?![\\w])");
    private static final Pattern COMMAND_LINE = Pattern.compile("^\\s*(\\$ |\\./|bench/|mvn |java |for |git |curl |vllm |#|[A-Z_]+=).*");
    private static final Pattern MARKER = Pattern.compile("<!-- figures: (once|timing|none) -->");
    private static final Pattern COMMAND = Pattern.compile("`(\\./gam|gam |bench/|mvn |java |\\./test|GAM_)[^`]*`|```[a-z]*\\n\\s*(\\$ )?(\\./gam|gam |bench/|mvn |java |for )");
    private static final Pattern DATE = Pattern.compile("\\b20\\d\\d-\\d\\d-\\d\\d\\b");
    private static final Pattern COMMIT = Pattern.compile("\\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\\b");
    private static final Pattern MACHINE = Pattern.compile("machine|\\bcores?\\b");

    /** The block names ./test reliability writes ({@code Suite.report("NAME", ...)}, {@code ReliabilityReport.replace}) in the tests' sources. */
    static Set<String> reliabilityBlocks() throws Exception {
        Set<String> names = new LinkedHashSet<>();
        Pattern call = Pattern.compile("(?:ReliabilityReport\\.replace|Suite\\.report)\\(\\s*\"([^\"]+)\"");
        for (String module : List.of("gam-core", "gam-cli", "gam-eval", "gam-server", "gam-local")) {
            Path root = Path.of(module, "src/test/java");
            if (!Files.isDirectory(root)) continue;
            try (Stream<Path> s = Files.walk(root)) {
                for (Path p : s.filter(f -> f.toString().endsWith(".java")).toList()) {
                    Matcher m = call.matcher(Files.readString(p));
                    while (m.find()) names.add(m.group(1));
                }
            }
        }
        return names;
    }

    /** The tables of figures of one document that are neither regenerated nor written by ./test reliability. */
    static List<FigureTable> figureTables(Path doc, String text, Set<String> generated) {
        List<String> lines = text.lines().toList();
        List<FigureTable> out = new ArrayList<>();
        int section = 0; // the line of the last heading of level 1 or 2
        String inside = null; // the doc-table or reliability block we are in
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.startsWith("# ") || l.startsWith("## ")) section = i;
            Matcher open = Pattern.compile("^<!-- (doc-table [a-z0-9-]+:.*|([a-z0-9:-][^ ]*)) -->$").matcher(l.strip());
            if (inside == null && open.matches() && (open.group(1).startsWith("doc-table ") || generated.contains(open.group(2)))) {
                inside = open.group(1).startsWith("doc-table ") ? "/doc-table" : "/" + open.group(2);
                continue;
            }
            if (inside != null) {
                if (l.strip().startsWith("<!-- " + inside)) inside = null;
                continue;
            }
            if (l.startsWith("```")) {
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).startsWith("```")) end++;
                boolean tagged = l.length() > 3 && !l.substring(3).strip().equals("text");
                long figureLines = lines.subList(i + 1, Math.min(end, lines.size())).stream()
                        .filter(x -> !COMMAND_LINE.matcher(x).matches() && NUMBER.matcher(x).results().count() >= 3).count();
                if (!tagged && figureLines >= 2) out.add(figure(doc, lines, i, section));
                i = end;
                continue;
            }
            if (l.startsWith("|") && i + 1 < lines.size() && lines.get(i + 1).matches("\\|\\s*:?-{3,}.*")) {
                int end = i + 2;
                int cells = 0, figures = 0;
                while (end < lines.size() && lines.get(end).startsWith("|")) {
                    List<String> row = Arrays.asList(lines.get(end).strip().replaceAll("^\\||\\|$", "").split("\\|", -1));
                    for (String c : row.subList(Math.min(1, row.size()), row.size())) {
                        String t = c.strip();
                        if (t.isEmpty() || t.equals("-") || t.equals("–") || t.equals("—")) continue;
                        cells++;
                        if (FIGURE_CELL.matcher(t).matches()) figures++;
                    }
                    end++;
                }
                if (cells > 0 && figures * 5 >= cells * 2) out.add(figure(doc, lines, i, section)); // 40 % or more

                i = end - 1;
            }
        }
        return out;
    }

    private static FigureTable figure(Path doc, List<String> lines, int at, int section) {
        int prev = at - 1;
        while (prev >= 0 && lines.get(prev).isBlank()) prev--;
        Matcher m = prev >= 0 ? MARKER.matcher(lines.get(prev).strip()) : null;
        String kind = m != null && m.matches() ? m.group(1) : null;
        int next = at + 1;
        while (next < lines.size() && !lines.get(next).startsWith("# ") && !lines.get(next).startsWith("## ")) next++;
        return new FigureTable(doc, at + 1, kind, String.join("\n", lines.subList(section, next)));
    }

    @Test void everyOtherTableOfFiguresSaysHowItWasMeasured() throws Exception {
        Set<String> generated = reliabilityBlocks();
        assertThat(generated).as("the blocks ./test reliability writes").isNotEmpty();
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Path doc : DocTables.documents()) {
            for (FigureTable t : figureTables(doc, Files.readString(doc), generated)) {
                checked++;
                if ("none".equals(t.kind())) continue; // not measured here: settings, cited ranges
                if (t.kind() == null) {
                    problems.add(t.where() + ": a table of figures that bench/doc-tables.sh does not regenerate, with no <!-- figures: once --> or "
                            + "<!-- figures: timing --> line before it (its section naming the command, the date, and the commit or the machine), "
                            + "or <!-- figures: none --> where nothing in it was measured here (settings, cited ranges)");
                    continue;
                }
                List<String> lacks = new ArrayList<>();
                if (!COMMAND.matcher(t.section()).find()) lacks.add("the command that made it (`bench/…`, `./gam …`, `mvn …`, `java …`)");
                if (!DATE.matcher(t.section()).find()) lacks.add("the date it was measured (YYYY-MM-DD)");
                if (t.kind().equals("once") && !COMMIT.matcher(t.section()).find()) lacks.add("the commit of the code measured");
                if (t.kind().equals("timing") && !MACHINE.matcher(t.section()).find()) lacks.add("the machine");
                if (!lacks.isEmpty()) problems.add(t.where() + " (figures: " + t.kind() + "): its section does not name " + String.join(", ", lacks));
            }
        }
        assertThat(checked).as("tables of figures found outside the regenerated ones").isGreaterThanOrEqualTo(20);
        assertThat(problems).as("tables of figures that do not say how they were measured (docs/architecture.md, \"Figures in the docs\")").isEmpty();
    }

    /** The structural check finds what it is for: an unmarked table of figures, and a marked one whose section says too little. */
    @Test void theStructuralCheckFindsAnUnmarkedTableAndAnIncompleteOne() {
        String doc = """
                # Title

                ## Measured

                | run | accuracy | tokens/q |
                |---|---|---|
                | a | 91.7 % | 2,265 |
                | b | 93.3 % | 2,731 |

                ## Measured once

                `bench/x.sh`, 2026-12-01.

                <!-- figures: once -->
                | run | accuracy |
                |---|---|
                | a | 91.7 % |

                ## Settings

                | key | default | meaning | read by |
                |---|---|---|---|
                | `gam.theta_u` | 0.5 | the trigger | `gam` |

                ```
                method            n     acc
                single           61   77.0%  10.4    0.00
                vote             61   80.3%   9.8    0.00
                ```
                """;
        List<FigureTable> found = figureTables(Path.of("x.md"), doc, Set.of());
        assertThat(found).extracting(FigureTable::line).containsExactly(5, 15, 25);
        assertThat(found.get(0).kind()).isNull();
        assertThat(found.get(1).kind()).isEqualTo("once");
        assertThat(COMMAND.matcher(found.get(1).section()).find()).isTrue();
        assertThat(COMMIT.matcher(found.get(1).section()).find()).as("no commit named").isFalse();
    }
}
