package dev.gamagent.eval.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.data.DatasetCatalogue;
import dev.gamagent.eval.data.DatasetEntry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code gam eval} (and {@code gam sweep}) command lines that run a recipe's grid: one run per
 * benchmark with every row's method, the rows' settings together (rows whose settings disagree get runs of
 * their own); a test split without public answers runs on its stand-in, labelled so. Settings equal to
 * gam's defaults are left out.
 */
public final class RecipePlan {
    private RecipePlan() { }

    /** One command and what it stands for. */
    public record Step(String command, String note) { }

    public static List<Step> steps(Recipe r, DatasetCatalogue data, Config defaults, String outRoot) {
        List<Step> out = new ArrayList<>();
        for (Recipe.Benchmark b : r.benchmarks()) {
            if (b.data() == null) {
                if (b.aggregate() == null) out.add(new Step(null, b.column() + ": not runnable yet" + (b.note() != null ? " (" + b.note() + ")" : "")));
                continue;
            }
            DatasetEntry e = data.require(b.data());
            String name = e.name(), note = null;
            if (!e.answers()) {
                name = b.standIn() != null ? b.standIn() : e.standIn();
                note = b.column() + " has no public answers: its stand-in " + name + " is run instead (label every figure so)";
            }
            String dir = outRoot + "/" + r.id() + "/" + b.column().replaceAll("[^A-Za-z0-9._-]", "_");
            if (r.run() != null && "sweep".equals(r.run().how())) {
                out.add(new Step("gam eval --data " + name + " --methods " + r.run().method() + " --out " + dir + sets(r.run().settings(), defaults),
                        note == null ? "one full-length run" : note));
                StringBuilder sweep = new StringBuilder("gam sweep " + dir);
                r.run().sweep().forEach((k, v) -> sweep.append(" --").append(k.replace('_', '-')).append(' ')
                        .append(String.join(",", v.stream().map(JsonNode::asText).toList())));
                out.add(new Step(sweep.toString(), r.run().why()));
                continue;
            }
            List<Map<String, JsonNode>> groups = new ArrayList<>();
            List<List<String>> methods = new ArrayList<>();
            for (Recipe.MethodRow m : r.methods()) {
                if (m.method() == null) continue;
                int g = 0;
                while (g < groups.size() && !compatible(groups.get(g), m.settings())) g++;
                if (g == groups.size()) { groups.add(new LinkedHashMap<>()); methods.add(new ArrayList<>()); }
                groups.get(g).putAll(m.settings());
                if (!methods.get(g).contains(m.method())) methods.get(g).add(m.method());
            }
            for (int g = 0; g < groups.size(); g++) {
                out.add(new Step("gam eval --data " + name + " --methods " + String.join(",", methods.get(g)) + " --out " + dir
                        + (groups.size() > 1 ? "-" + (g + 1) : "") + sets(groups.get(g), defaults), note));
            }
        }
        return out;
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
