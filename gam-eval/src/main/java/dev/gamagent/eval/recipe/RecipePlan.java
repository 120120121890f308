package dev.gamagent.eval.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.eval.data.DatasetEntry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code gam eval} (and {@code gam sweep}) runs of a recipe's grid: one run per benchmark with every row's
 * method, the rows' settings together (rows whose settings disagree get runs of their own); a test split without
 * public answers runs on its stand-in, labelled so. {@link #runs} gives them as data ({@code gam reproduce} runs
 * them), {@link #steps} as command lines (settings equal to gam's defaults left out).
 */
public final class RecipePlan {
    private RecipePlan() { }

    /** One command and what it stands for. */
    public record Step(String command, String note) { }

    /**
     * One {@code gam eval} of the grid.
     *
     * @param benchmark the recipe's column
     * @param data      the benchmark's name as gam runs it (the stand-in when the column's split has no public answers)
     * @param standIn   why {@code data} is not the column's own split, or null
     * @param dir       the output directory's name under the recipe's directory ({@code MMBench_V11_Test}, {@code MME-2})
     * @param methods   the methods of the rows this run covers, in row order
     * @param rows      those rows
     * @param settings  the rows' settings together ({@code --set} keys)
     * @param sweep     the recipe's sweep when this run is one recorded run re-decided by {@code gam sweep}, else null
     */
    public record EvalRun(Recipe.Benchmark benchmark, String data, String standIn, String dir, List<String> methods,
                          List<Recipe.MethodRow> rows, Map<String, JsonNode> settings, Recipe.Run sweep) { }

    /** The runs of {@code r}, all benchmarks and rows. */
    public static List<EvalRun> runs(Recipe r, DatasetCatalogue data) { return runs(r, data, List.of(), List.of()); }

    /** The note of a column a file given to {@code --benchmarks} adds ({@link #withFiles}): its own, not one of the paper's. */
    public static final String OWN_COLUMN = "a file given to --benchmarks, in a column of its own (no paper figures)";

    /**
     * {@code r} with a column of its own for each file path in {@code benchmarks} that stands for none of its columns (a file
     * stands for a column when its name is the file of the column's dataset or of its stand-in, as gam names them in the data
     * directory); a path that does not exist is refused here, naming it.
     */
    public static Recipe withFiles(Recipe r, DatasetCatalogue data, List<String> benchmarks) {
        List<Recipe.Benchmark> added = new ArrayList<>();
        for (String b : benchmarks) {
            if (!isPath(b) || r.benchmarks().stream().anyMatch(x -> names(x, data).stream().anyMatch(n -> matches(b, n)))) continue;
            java.nio.file.Path p = java.nio.file.Path.of(b.strip());
            if (!java.nio.file.Files.exists(p)) {
                throw new IllegalArgumentException("--benchmarks " + b + ": no such file, and no column of recipe " + r.id() + " is called so; its columns: "
                        + columnList(r, data));
            }
            if (columnOfFile(r, data, p) != null) continue;
            String stem = p.getFileName().toString().replaceFirst("\\.[A-Za-z0-9]+$", "");
            String column = stem;
            for (int i = 2; r.benchmarks().stream().anyMatch(x -> x.column().equalsIgnoreCase(stem)) || hasColumn(added, column); i++) column = stem + "-" + i;
            added.add(new Recipe.Benchmark(column, p.toString(), null, null, OWN_COLUMN));
        }
        if (added.isEmpty()) return r;
        List<Recipe.Benchmark> all = new ArrayList<>(r.benchmarks());
        // before an average column: the file's figure is no part of the paper's average
        int at = all.size();
        while (at > 0 && all.get(at - 1).aggregate() != null) at--;
        all.addAll(at, added);
        return new Recipe(r.id(), r.paper(), r.paperFile(), r.table(), r.title(), r.metric(), r.unit(), r.compare(), List.copyOf(all), r.columns(),
                r.methods(), r.models(), r.figures(), r.run(), r.missing(), r.variants(), r.reading());
    }

    private static boolean hasColumn(List<Recipe.Benchmark> bs, String column) {
        return bs.stream().anyMatch(x -> x.column().equalsIgnoreCase(column));
    }

    /** Whether a column is one {@link #withFiles} added for a file. */
    public static boolean ownColumn(Recipe.Benchmark b) { return OWN_COLUMN.equals(b.note()); }

    /** What {@code --benchmarks} may call a column: its name, its dataset's, its stand-in's. */
    private static List<String> names(Recipe.Benchmark b, DatasetCatalogue data) {
        List<String> out = new ArrayList<>();
        out.add(b.column());
        if (b.data() != null) out.add(b.data());
        if (b.standIn() != null) out.add(b.standIn());
        DatasetEntry e = b.data() == null ? null : data.find(b.data());
        if (e != null && e.standIn() != null) out.add(e.standIn());
        return out;
    }

    /** The column a file stands for: the one whose dataset (or its stand-in) has a file of this name; null for none. */
    private static Recipe.Benchmark columnOfFile(Recipe r, DatasetCatalogue data, java.nio.file.Path file) {
        String n = file.getFileName().toString();
        for (Recipe.Benchmark b : r.benchmarks()) {
            if (b.data() == null || ownColumn(b)) continue;
            for (String name : names(b, data).subList(1, names(b, data).size())) {
                DatasetEntry e = data.find(name);
                if (e != null && (java.nio.file.Path.of(e.file()).getFileName().toString().equals(n) || n.equals(e.urlFileName()))) return b;
            }
        }
        return null;
    }

    /** A value of {@code --benchmarks} that names a file rather than a column: a path with a separator or a data file's suffix, or one that exists. */
    static boolean isPath(String given) {
        String g = given.strip();
        return g.contains("/") || g.contains("\\") || g.matches("(?i).*\\.(tsv|json|jsonl)$") || java.nio.file.Files.exists(java.nio.file.Path.of(g));
    }

    private static List<String> columnList(Recipe r, DatasetCatalogue data) {
        return r.benchmarks().stream().filter(x -> x.aggregate() == null).map(x -> {
            List<String> n = names(x, data);
            return x.column() + (n.size() > 1 ? " (" + String.join(", ", n.subList(1, n.size()).stream().distinct().toList()) + ")" : "");
        }).toList();
    }

    /**
     * The runs of {@code r} restricted to the benchmarks named in {@code benchmarks} and the rows named in {@code rows} (a row
     * or a method name); empty lists mean all. A benchmark is named by its column (the paper's name), its dataset's name, the
     * name of the split that stands in for it ({@code MMBench_DEV_EN_V11}), or a file: a file named as a column's dataset or
     * stand-in is run in that column in its place, any other file in its own column ({@link #withFiles} adds it). A name that
     * matches nothing throws, naming the choices.
     */
    public static List<EvalRun> runs(Recipe r, DatasetCatalogue data, List<String> benchmarks, List<String> rows) {
        Map<Recipe.Benchmark, String> files = new java.util.IdentityHashMap<>();
        for (String b : benchmarks) {
            if (r.benchmarks().stream().anyMatch(x -> names(x, data).stream().anyMatch(n -> matches(b, n)))) continue;
            if (isPath(b) && java.nio.file.Files.exists(java.nio.file.Path.of(b.strip()))) {
                Recipe.Benchmark col = columnOfFile(r, data, java.nio.file.Path.of(b.strip()));
                if (col != null) {
                    files.put(col, b.strip());
                    continue;
                }
            }
            throw new IllegalArgumentException("recipe " + r.id() + " has no benchmark '" + b + "'" + (isPath(b) ? " (as a file: "
                    + (java.nio.file.Files.exists(java.nio.file.Path.of(b.strip())) ? "it stands for none of its columns; run it with 'gam eval --data'" : "no such file") + ")" : "")
                    + "; its columns (with their datasets and stand-ins): " + columnList(r, data));
        }
        for (String m : rows) {
            if (r.methods().stream().noneMatch(x -> matches(m, x.row()) || matches(m, x.method()))) {
                throw new IllegalArgumentException("recipe " + r.id() + " has no row or method '" + m + "'; its rows: "
                        + r.methods().stream().map(x -> x.row() + (x.method() != null ? " (" + x.method() + ")" : " (no method)")).toList());
            }
        }
        List<EvalRun> out = new ArrayList<>();
        for (Recipe.Benchmark b : r.benchmarks()) {
            if (b.data() == null) continue;
            if (!benchmarks.isEmpty() && !files.containsKey(b) && benchmarks.stream().noneMatch(x -> names(b, data).stream().anyMatch(n -> matches(x, n)))) continue;
            String name, standIn = null;
            if (ownColumn(b)) {
                name = b.data();
            } else {
                DatasetEntry e = data.require(b.data());
                name = e.name();
                if (!e.answers()) {
                    name = b.standIn() != null ? b.standIn() : e.standIn();
                    standIn = b.column() + " has no public answers: its dev split " + name + " stands in for it";
                }
                String file = files.get(b);
                if (file != null) {
                    // the file given runs in the column it is named for; its md5 is checked against that dataset's, and the table says so
                    standIn = (standIn != null ? standIn + "; " : "") + "run from the file " + file + " given to --benchmarks";
                    name = file;
                }
            }
            String dir = b.column().replaceAll("[^A-Za-z0-9._-]", "_");
            if (r.run() != null && "sweep".equals(r.run().how())) {
                List<Recipe.MethodRow> mine = r.methods().stream()
                        .filter(m -> rows.isEmpty() || rows.stream().anyMatch(x -> matches(x, m.row()) || matches(x, m.method()))).toList();
                out.add(new EvalRun(b, name, standIn, dir, List.of(r.run().method()), mine, r.run().settings(), r.run()));
                continue;
            }
            List<Map<String, JsonNode>> groups = new ArrayList<>();
            List<List<Recipe.MethodRow>> members = new ArrayList<>();
            for (Recipe.MethodRow m : r.methods()) {
                if (m.method() == null) continue;
                if (!rows.isEmpty() && rows.stream().noneMatch(x -> matches(x, m.row()) || matches(x, m.method()))) continue;
                int g = 0;
                while (g < groups.size() && !compatible(groups.get(g), m.settings())) g++;
                if (g == groups.size()) { groups.add(new LinkedHashMap<>()); members.add(new ArrayList<>()); }
                groups.get(g).putAll(m.settings());
                members.get(g).add(m);
            }
            for (int g = 0; g < groups.size(); g++) {
                List<String> methods = members.get(g).stream().map(Recipe.MethodRow::method).distinct().toList();
                out.add(new EvalRun(b, name, standIn, dir + (groups.size() > 1 ? "-" + (g + 1) : ""), methods, List.copyOf(members.get(g)),
                        java.util.Collections.unmodifiableMap(groups.get(g)), null));
            }
        }
        return out;
    }

    /**
     * A command line's {@code --set} that changes a setting the recipe gives some of its rows (the paper's
     * hyperparameters): the key, the value given, the recipe's values it replaces, and those rows, whose Δ against the
     * paper is withheld. A setting given at the recipe's own value ({@code 0.50} for {@code 0.5}) changes nothing.
     */
    public record Override(String key, String value, List<String> recipeValues, List<String> rows) {
        /** "--set dream.rho=0.7 replaces the recipe's dream.rho=0.5 (the paper's setting) for row w/ DREAM". */
        public String describe() {
            return "--set " + key + "=" + value + " replaces the recipe's " + key + "=" + String.join(", ", recipeValues)
                    + " (the paper's setting" + (recipeValues.size() > 1 ? "s" : "") + ") for row" + (rows.size() > 1 ? "s " : " ")
                    + String.join(", ", rows);
        }
    }

    /**
     * The settings the recipe gives {@code row} as run by {@code run}: the row's own; for a sweep, the recorded run's
     * (the rows are re-decided from that one run, so its settings are theirs).
     */
    public static Map<String, JsonNode> settingsOf(EvalRun run, Recipe.MethodRow row) {
        return run.sweep() != null ? run.settings() : row.settings();
    }

    /**
     * The command line's settings ({@code key=value}, as {@code --set} gives them) that change what the recipe gives
     * the rows of {@code runs}, one per key, in the order given; keys the recipe does not set are not among them.
     */
    public static List<Override> overrides(List<EvalRun> runs, Map<String, String> sets) {
        List<Override> out = new ArrayList<>();
        for (var e : sets.entrySet()) {
            String key = e.getKey().strip();
            JsonNode given = Config.parseValue(e.getValue());
            List<String> values = new ArrayList<>(), rows = new ArrayList<>();
            for (EvalRun run : runs) {
                for (Recipe.MethodRow row : run.rows()) {
                    JsonNode recipe = settingsOf(run, row).get(key);
                    if (recipe == null || sameSetting(recipe, given)) continue;
                    String v = recipe.isTextual() ? recipe.asText() : recipe.toString();
                    if (!values.contains(v)) values.add(v);
                    if (!rows.contains(row.row())) rows.add(row.row());
                }
            }
            if (!rows.isEmpty()) out.add(new Override(key, e.getValue(), List.copyOf(values), List.copyOf(rows)));
        }
        return out;
    }

    /**
     * Whether a value given on the command line is the recipe's own: numbers by value (0.50 is 0.5, "3" is 3), lists
     * element by element, anything else by its text.
     */
    static boolean sameSetting(JsonNode recipe, JsonNode given) {
        if (recipe.isArray() || given.isArray()) {
            if (!recipe.isArray() || !given.isArray() || recipe.size() != given.size()) return false;
            for (int i = 0; i < recipe.size(); i++) if (!sameSetting(recipe.get(i), given.get(i))) return false;
            return true;
        }
        if (recipe.isObject() || given.isObject()) return recipe.equals(given);
        Double a = number(recipe), b = number(given);
        if (a != null && b != null) return a.doubleValue() == b.doubleValue();
        return recipe.asText().equals(given.asText());
    }

    private static Double number(JsonNode n) {
        if (n.isNumber()) return n.asDouble();
        if (!n.isTextual()) return null;
        try {
            return Double.parseDouble(n.asText().strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The command lines that run {@code r} into {@code outRoot/<recipe>/…} ({@code outRoot/<recipe>-<variant>/…} for a variant,
     * so that its runs never resume another reading's); columns that cannot run yet are named.
     */
    public static List<Step> steps(Recipe r, DatasetCatalogue data, Config defaults, String outRoot) {
        List<Step> out = new ArrayList<>();
        List<EvalRun> runs = runs(r, data);
        String root = outRoot + "/" + directory(r);
        for (Recipe.Benchmark b : r.benchmarks()) {
            if (b.data() == null) {
                if (b.aggregate() == null) out.add(new Step(null, b.column() + ": not runnable yet" + (b.note() != null ? " (" + b.note() + ")" : "")));
                continue;
            }
            for (EvalRun run : runs) {
                if (run.benchmark() != b) continue;
                String dir = root + "/" + run.dir();
                String note = run.standIn() == null ? null : b.column() + " has no public answers: its stand-in " + run.data()
                        + " is run instead (label every figure so)";
                out.add(new Step("gam eval --data " + run.data() + " --methods " + String.join(",", run.methods()) + " --out " + dir
                        + sets(run.settings(), defaults), run.sweep() == null ? note : note == null ? "one full-length run" : note));
                if (run.sweep() != null) {
                    StringBuilder sweep = new StringBuilder("gam sweep " + dir);
                    run.sweep().sweep().forEach((k, v) -> sweep.append(" --").append(k.replace('_', '-')).append(' ')
                            .append(String.join(",", v.stream().map(JsonNode::asText).toList())));
                    out.add(new Step(sweep.toString(), run.sweep().why()));
                }
            }
        }
        return out;
    }

    /** The directory a recipe's runs go to under a root: its id, and its variant's name when it is read as one. */
    public static String directory(Recipe r) { return r.id() + (r.reading() == null ? "" : "-" + r.reading().name()); }

    private static boolean matches(String given, String name) {
        return name != null && given.strip().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT));
    }

    private static boolean compatible(Map<String, JsonNode> group, Map<String, JsonNode> settings) {
        for (var e : settings.entrySet()) if (group.containsKey(e.getKey()) && !group.get(e.getKey()).equals(e.getValue())) return false;
        return true;
    }

    private static String sets(Map<String, JsonNode> settings, Config defaults) {
        StringBuilder sb = new StringBuilder();
        for (var e : settings.entrySet()) {
            JsonNode d = defaults.node(e.getKey());
            if (!d.isMissingNode() && Objects.equals(d.isNumber() ? d.asDouble() : d, e.getValue().isNumber() ? e.getValue().asDouble() : e.getValue())) continue;
            String v = e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString();
            String arg = e.getKey() + "=" + v;
            sb.append(" --set ").append(arg.matches("[A-Za-z0-9_.=+-]+") ? arg : "'" + arg + "'");
        }
        return sb.toString();
    }
}
