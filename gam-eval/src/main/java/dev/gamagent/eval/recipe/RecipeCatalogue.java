package dev.gamagent.eval.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The recipes shipped in the jar ({@code /recipes/index.json} lists them) and the excerpts their figures
 * were transcribed from ({@code /recipes/excerpts/<name>.txt}). Fields are checked when read: a recipe
 * with an unknown field or a figure without a source is refused, naming the recipe.
 */
public record RecipeCatalogue(List<Recipe> recipes, Map<String, Excerpt> excerpts) {
    private static final Set<String> RECIPE_FIELDS = Set.of("id", "paper", "paper_file", "table", "title", "metric", "unit", "compare",
            "benchmarks", "columns", "methods", "models", "figures", "run", "missing", "variants");
    private static final Set<String> FIGURE_FIELDS = Set.of("model", "row", "column", "value", "derived", "source", "note");
    private static final Set<String> VARIANT_FIELDS = Set.of("name", "reads", "passage", "default_reading", "default_passage", "rows", "settings");
    private static final Set<String> SOURCE_FIELDS = Set.of("excerpt", "line", "lines", "cell", "paper_row", "quote");

    /** The built-in recipes and every excerpt they cite. */
    public static RecipeCatalogue builtIn() {
        List<Recipe> recipes = new ArrayList<>();
        Map<String, Excerpt> excerpts = new LinkedHashMap<>();
        for (JsonNode id : readJson("/recipes/index.json")) {
            Recipe r = parse(readJson("/recipes/" + id.asText() + ".json"), id.asText());
            recipes.add(r);
            for (Recipe.Figure f : r.figures()) excerpts.computeIfAbsent(f.source().excerpt(), RecipeCatalogue::excerpt);
            for (Recipe.MethodRow m : r.methods()) {
                if (m.settingsSource() != null) excerpts.computeIfAbsent(m.settingsSource().excerpt(), RecipeCatalogue::excerpt);
            }
            for (Recipe.Variant v : r.variants()) {
                excerpts.computeIfAbsent(v.passage().excerpt(), RecipeCatalogue::excerpt);
                excerpts.computeIfAbsent(v.defaultPassage().excerpt(), RecipeCatalogue::excerpt);
            }
        }
        return new RecipeCatalogue(List.copyOf(recipes), Map.copyOf(excerpts));
    }

    /** The recipe called {@code id}; an unknown id names the known ones. */
    public Recipe require(String id) {
        for (Recipe r : recipes) if (r.id().equalsIgnoreCase(id)) return r;
        throw new IllegalArgumentException("no recipe '" + id + "'; known: " + recipes.stream().map(Recipe::id).toList()
                + " ('gam reproduce --list')");
    }

    static Excerpt excerpt(String name) {
        String path = "/recipes/excerpts/" + name + ".txt";
        try (InputStream in = RecipeCatalogue.class.getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("excerpt " + path + " is missing from the jar");
            return Excerpt.parse(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    private static JsonNode readJson(String path) {
        try (InputStream in = RecipeCatalogue.class.getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("resource " + path + " is missing from the jar");
            return Json.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    /** Reads one recipe; {@code id} names it in errors. */
    public static Recipe parse(JsonNode n, String id) {
        String where = "recipe " + id;
        known(n, RECIPE_FIELDS, where);
        if (!id.equals(n.path("id").asText())) throw new IllegalArgumentException(where + ": its id is '" + n.path("id").asText() + "'");
        List<Recipe.Benchmark> benchmarks = new ArrayList<>();
        for (JsonNode b : n.path("benchmarks")) {
            benchmarks.add(new Recipe.Benchmark(req(b, "column", where), text(b, "data"), text(b, "stand_in"), text(b, "aggregate"), text(b, "note")));
        }
        List<String> columns = new ArrayList<>();
        n.path("columns").forEach(c -> columns.add(c.asText()));
        List<Recipe.MethodRow> methods = new ArrayList<>();
        for (JsonNode m : n.path("methods")) {
            methods.add(new Recipe.MethodRow(req(m, "row", where), text(m, "method"), settings(m.path("settings")), text(m, "paper_settings"),
                    m.has("settings_source") ? source(m.get("settings_source"), where) : null, text(m, "note")));
        }
        List<Recipe.Model> models = new ArrayList<>();
        for (JsonNode m : n.path("models")) {
            List<String> aliases = new ArrayList<>();
            m.path("aliases").forEach(a -> aliases.add(a.asText()));
            models.add(new Recipe.Model(req(m, "name", where), List.copyOf(aliases)));
        }
        List<Recipe.Figure> figures = new ArrayList<>();
        for (JsonNode f : n.path("figures")) {
            known(f, FIGURE_FIELDS, where + " figure " + f);
            Recipe.Derived d = null;
            if (f.has("derived")) {
                JsonNode dn = f.get("derived");
                d = new Recipe.Derived(req(dn, "op", where), strings(dn.path("of")), strings(dn.path("also")));
            }
            if (!f.has("source")) throw new IllegalArgumentException(where + ": figure " + f + " has no source");
            figures.add(new Recipe.Figure(req(f, "model", where), req(f, "row", where), req(f, "column", where), req(f, "value", where), d,
                    source(f.get("source"), where), text(f, "note")));
        }
        Recipe.Run run = null;
        if (n.has("run")) {
            JsonNode r = n.get("run");
            Map<String, List<JsonNode>> sweep = new LinkedHashMap<>();
            r.path("sweep").fields().forEachRemaining(e -> {
                List<JsonNode> vals = new ArrayList<>();
                e.getValue().forEach(vals::add);
                sweep.put(e.getKey(), vals);
            });
            run = new Recipe.Run(req(r, "how", where), r.path("record").path("method").asText(null), settings(r.path("record").path("settings")),
                    sweep, text(r, "why"));
        }
        List<Recipe.Variant> variants = new ArrayList<>();
        for (JsonNode v : n.path("variants")) variants.add(variant(v, methods, run, variants, where));
        return new Recipe(id, req(n, "paper", where), req(n, "paper_file", where), req(n, "table", where), req(n, "title", where),
                req(n, "metric", where), text(n, "unit"), text(n, "compare"), List.copyOf(benchmarks), List.copyOf(columns), List.copyOf(methods),
                List.copyOf(models), List.copyOf(figures), run, req(n, "missing", where), List.copyOf(variants), null);
    }

    /**
     * One variant: a name of its own, the passage it reads otherwise (a quote on a line) and the default reading's, rows
     * the recipe has (with a method), and settings that change what those rows run — a variant that changes nothing is
     * refused, as is one whose name is taken.
     */
    private static Recipe.Variant variant(JsonNode v, List<Recipe.MethodRow> methods, Recipe.Run run, List<Recipe.Variant> before, String where) {
        known(v, VARIANT_FIELDS, where + " variant " + v.path("name").asText("?"));
        String name = req(v, "name", where);
        String at = where + " variant '" + name + "'";
        if (!name.matches("[a-z0-9][a-z0-9-]*")) throw new IllegalArgumentException(at + ": a name is lower-case letters, digits and '-'");
        if (before.stream().anyMatch(b -> b.name().equals(name))) throw new IllegalArgumentException(at + ": the name is taken twice");
        if (!v.has("passage") || !v.has("default_passage")) throw new IllegalArgumentException(at + ": needs 'passage' (what it reads otherwise) "
                + "and 'default_passage' (what the recipe's own reading rests on)");
        Recipe.Source passage = source(v.get("passage"), at), byDefault = source(v.get("default_passage"), at);
        if (passage.quote() == null || byDefault.quote() == null) throw new IllegalArgumentException(at + ": its passages quote the text they read");
        List<String> rows = strings(v.path("rows"));
        if (rows.isEmpty()) throw new IllegalArgumentException(at + ": names no rows");
        Map<String, JsonNode> settings = settings(v.path("settings"));
        if (settings.isEmpty()) throw new IllegalArgumentException(at + ": gives no settings");
        for (String row : rows) {
            Recipe.MethodRow m = methods.stream().filter(x -> x.row().equals(row)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                    at + ": no row '" + row + "'; rows: " + methods.stream().map(Recipe.MethodRow::row).toList()));
            if (m.method() == null) throw new IllegalArgumentException(at + ": row '" + row + "' has no method to run");
            Map<String, JsonNode> own = run != null && "sweep".equals(run.how()) ? run.settings() : m.settings();
            if (settings.entrySet().stream().allMatch(e -> e.getValue().equals(own.get(e.getKey())))) {
                throw new IllegalArgumentException(at + ": its settings " + settings + " are row '" + row + "''s own: it changes nothing");
            }
        }
        return new Recipe.Variant(name, req(v, "reads", at), passage, req(v, "default_reading", at), byDefault, rows, settings);
    }

    private static Recipe.Source source(JsonNode s, String where) {
        known(s, SOURCE_FIELDS, where + " source " + s);
        List<Integer> lines = new ArrayList<>();
        if (s.has("line")) lines.add(s.get("line").asInt());
        s.path("lines").forEach(l -> lines.add(l.asInt()));
        if (lines.isEmpty()) throw new IllegalArgumentException(where + ": source " + s + " names no line");
        return new Recipe.Source(req(s, "excerpt", where), List.copyOf(lines), text(s, "cell"), text(s, "paper_row"), text(s, "quote"));
    }

    private static Map<String, JsonNode> settings(JsonNode n) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        n.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    private static List<String> strings(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.forEach(x -> out.add(x.asText()));
        return List.copyOf(out);
    }

    private static void known(JsonNode n, Set<String> fields, String where) {
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!fields.contains(f)) throw new IllegalArgumentException(where + ": unknown field '" + f + "' (known: " + fields + ")");
        }
    }

    private static String req(JsonNode n, String field, String where) {
        String v = text(n, field);
        if (v == null) throw new IllegalArgumentException(where + ": missing '" + field + "' in " + n);
        return v;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
