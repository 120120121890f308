package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.eval.recipe.ProtocolCalls;
import dev.gamagent.eval.recipe.Recipe;
import dev.gamagent.eval.recipe.RecipeCatalogue;
import dev.gamagent.eval.recipe.RecipePlan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What {@code gam reproduce --list} and {@code --show} print: the recipes, their published figures and the commands that run them. */
final class RecipePages {
    private RecipePages() { }

    /** {@code gam reproduce --list}: every recipe, its benchmarks, published figures and calls per question. */
    static void list(RecipeCatalogue c) {
        Config defaults = Config.defaults();
        for (Recipe r : c.recipes()) {
            System.out.println(r.id() + ": " + shortPaper(r.paper()) + ", " + r.table());
            System.out.println("  " + r.title());
            System.out.println("  benchmarks: " + String.join(", ", r.benchmarks().stream().filter(b -> b.aggregate() == null)
                    .map(b -> b.column() + (b.data() == null ? " (not runnable yet)" : " = " + b.data())).toList()));
            System.out.printf(Locale.ROOT, "  published figures in our text: %d of %d cells%n", r.figures().size(), r.cells());
            List<String> calls = new ArrayList<>();
            for (Recipe.MethodRow m : r.methods()) {
                if (m.method() == null) { calls.add(m.row() + " (no method: empty row)"); continue; }
                Config cfg = withSettings(defaults, m.settings());
                calls.add(m.row() + " " + ProtocolCalls.of(m.method(), cfg));
            }
            if (r.run() != null) {
                calls.clear();
                calls.add("one " + r.run().method() + " run with " + r.run().settings().keySet() + ": "
                        + ProtocolCalls.of(r.run().method(), withSettings(defaults, r.run().settings())) + ", re-decided by gam sweep at no cost");
            }
            System.out.println("  calls per question (methods' protocols): " + String.join("; ", calls));
            for (Recipe.Variant v : r.variants()) {
                Recipe read = r.withVariant(v.name());
                List<String> changed = new ArrayList<>();
                for (Recipe.MethodRow m : read.methods()) {
                    if (v.rows().contains(m.row())) changed.add(m.row() + " " + ProtocolCalls.of(m.method(), withSettings(defaults, m.settings())));
                }
                System.out.println("  variant " + v.name() + " (--variant " + v.name() + "): " + v.setFlags() + " for " + String.join(", ", v.rows())
                        + "; calls " + String.join("; ", changed));
            }
        }
        System.out.println("Calls are ranges from each protocol (no debate … every round), assuming the backend gives log-probs. "
                + "'gam reproduce RECIPE --dry-run --out DIR' adds tokens, dollars and the questions of your copy of each benchmark; "
                + "'gam reproduce --show RECIPE' prints the figures and the commands.");
    }

    /** {@code gam reproduce --show RECIPE}: the published figures, the rows and the commands that run them under {@code root}. */
    static void show(Recipe r, String root) {
        System.out.println(r.id() + ": " + r.paper());
        System.out.println(r.table() + " — " + r.title() + (r.unit() != null ? " (" + r.unit() + ")" : ""));
        if (r.reading() != null) {
            System.out.println("Read as variant " + r.reading().name() + ": rows " + String.join(", ", r.reading().rows()) + " run with "
                    + r.reading().setFlags() + " (the readings are below)");
        }
        List<String> columns = r.columns().isEmpty() ? r.benchmarks().stream().map(Recipe.Benchmark::column).toList() : r.columns();
        for (Recipe.Model model : r.models()) {
            Map<String, Map<String, String>> cells = new LinkedHashMap<>();
            for (Recipe.Figure f : r.figures()) {
                if (f.model().equals(model.name())) cells.computeIfAbsent(f.row(), k -> new LinkedHashMap<>()).put(f.column(), f.value() + (f.derived() != null ? "*" : ""));
            }
            System.out.println();
            System.out.println(model.name() + (model.aliases().isEmpty() ? "" : " (also: " + String.join(", ", model.aliases()) + ")"));
            int w = Math.max(12, r.methods().stream().mapToInt(m -> m.row().length()).max().orElse(12));
            StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "  %-" + w + "s", "row"));
            for (String col : columns) h.append(String.format(Locale.ROOT, " %10s", abbreviate(col)));
            System.out.println(h);
            for (Recipe.MethodRow m : r.methods()) {
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-" + w + "s", m.row()));
                for (String col : columns) line.append(String.format(Locale.ROOT, " %10s", cells.getOrDefault(m.row(), Map.of()).getOrDefault(col, "·")));
                System.out.println(line);
            }
        }
        System.out.println();
        System.out.println("· = not in the text we hold; * = derived, not printed (see the recipe). Missing: " + r.missing());
        List<Recipe.Figure> noted = r.figures().stream().filter(f -> f.note() != null).toList();
        if (!noted.isEmpty()) {
            System.out.println();
            System.out.println("Beside the figures:");
            for (Recipe.Figure f : noted) {
                System.out.println("  " + f.value() + " (" + f.model() + ", " + f.row() + ", " + f.column() + "): " + f.note() + ".");
            }
        }
        System.out.println();
        System.out.println("Rows:");
        for (Recipe.MethodRow m : r.methods()) {
            System.out.println("  " + m.row() + ": " + (m.method() == null ? "no method (" + m.note() + ")" : m.method()
                    + (m.paperSettings() != null ? "; paper: " + m.paperSettings() : "")));
        }
        if (!r.variants().isEmpty()) {
            System.out.println();
            System.out.println("Readings: the recipe's default" + (r.reading() == null ? " (shown here)" : "") + ", or one of its variants (--variant NAME):");
            for (Recipe.Variant v : r.variants()) {
                boolean shown = r.reading() != null && r.reading().name().equals(v.name());
                System.out.println("  " + v.name() + (shown ? " (shown here)" : "") + " — " + v.reads() + ". Rows " + String.join(", ", v.rows())
                        + ": " + v.setFlags() + ".");
                System.out.println("    reads " + cite(v.passage()));
                System.out.println("    in place of the default reading, " + v.defaultReading() + " (" + cite(v.defaultPassage()) + ")");
                if (!shown) System.out.println("    gam reproduce --show " + r.id() + " --variant " + v.name() + " prints its commands");
            }
        }
        System.out.println();
        String flag = r.reading() == null ? "" : " --variant " + r.reading().name();
        System.out.println("Run it all: gam reproduce " + r.id() + flag + " --out " + root + "/" + RecipePlan.directory(r)
                + " [backend flags] (add --dry-run for the plan and its cost)");
        System.out.println("or step by step (add your backend flags, e.g. --backend openai --base-url http://127.0.0.1:8000/v1 --model Qwen/Qwen2.5-VL-7B-Instruct):");
        for (RecipePlan.Step s : RecipePlan.steps(r, DatasetCatalogue.builtIn(), Config.defaults(), root)) {
            if (s.command() != null) System.out.println("  " + s.command());
            if (s.note() != null) System.out.println("    # " + s.note());
        }
    }


    /** "gam-agent-termination line 77: "…"" — an excerpt's line and the words read there. */
    private static String cite(Recipe.Source s) {
        return s.excerpt() + " line " + s.lines().get(0) + ": \"" + s.quote() + "\"";
    }

    private static String shortPaper(String paper) { return paper.contains(":") ? paper.substring(0, paper.indexOf(':')) : paper; }

    private static String abbreviate(String s) { return s.length() <= 10 ? s : s.substring(0, 10); }

    private static Config withSettings(Config base, Map<String, JsonNode> settings) {
        Config c = base;
        for (var e : settings.entrySet()) c = c.with(e.getKey(), e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString());
        return c;
    }
}
