package dev.gamagent.eval.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.backend.UsageMeter;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The model a reproduction runs on, as its table names it, and who answered: what the server says it serves
 * ({@code GET /models}) and what each reply says it is (its {@code model}). The built-in model behind any URL
 * ({@code gam-perception}, {@code gam local-server}) and the model-server simulator are never a paper's model, and a
 * server that answers as a model other than the paper's model that {@code --model} names is not that model either.
 */
public final class ModelRun {
    /** What the simulator ({@code gam bench serve-sim}) says it is in its model list ({@code owned_by}). */
    static final String SIMULATOR = "gam-bench-serve-sim";
    /** The built-in model's name, in {@code gam local-server}'s model list and in every reply it gives. */
    static final String BUILT_IN = "gam-perception";

    private ModelRun() { }

    /** The model run's name in tables: the built-in model, or {@code kind:model}. */
    public static String label(BackendSpec spec) {
        if (spec.kind().equals("local")) return "the built-in model (gam-perception)";
        return spec.kind() + ":" + (spec.model() == null ? "(the server's own)" : spec.model());
    }

    /**
     * One server's answer to {@code GET /models}.
     *
     * @param url       the base URL asked
     * @param models    the ids it lists
     * @param simulator whether it lists them as the simulator's ({@code owned_by})
     */
    public record Served(String url, List<String> models, boolean simulator) { }

    /**
     * Who answers a run: the servers' model lists (empty when none was asked or none answered) and the model names the
     * replies gave so far.
     */
    public record Who(BackendSpec spec, List<Served> served, List<String> replied) {
        public Who {
            served = List.copyOf(served);
            replied = List.copyOf(replied);
        }

        /** The same, with the names the replies of {@code records} gave added. */
        public Who withReplies(List<ResultRecord> records) {
            Set<String> names = new LinkedHashSet<>(replied);
            names.addAll(replyModels(records));
            return new Who(spec, served, List.copyOf(names));
        }

        /** The model names the servers list and the replies give, each once, in that order. */
        public List<String> servedModels() {
            Set<String> names = new LinkedHashSet<>();
            for (Served s : served) names.addAll(s.models());
            names.addAll(replied);
            return List.copyOf(names);
        }

        /**
         * One line for the start of a run when the server serves (or answers as) another model than {@code --model}, naming
         * both; null when it does not, or when nothing says so.
         */
        public String differs() {
            if (spec.kind().equals("local") || spec.model() == null) return null;
            List<String> other = servedModels().stream().filter(m -> !sameModel(m, spec.model())).toList();
            if (other.isEmpty()) return null;
            List<String> urls = served.stream().map(Served::url).toList();
            return "the server" + (urls.isEmpty() ? "" : " at " + String.join(", ", urls)) + " says it serves " + String.join(", ", other)
                    + (servedModels().stream().anyMatch(m -> sameModel(m, spec.model())) ? " besides " + spec.model() : ", not --model " + spec.model())
                    + " (GET /models and each reply's model); the tables and summary.json record it";
        }

        /**
         * Why the model run is not the paper's model {@code paperModel} of {@code r}, whatever {@code --model} says: the built-in
         * model (by kind, by {@code --model}, or named by the server or a reply), the simulator, or a served model that is
         * neither {@code --model} (or a dated snapshot of it) nor one of the paper model's names; null when nothing says so.
         */
        public String notPaperModel(Recipe r, Recipe.Model paperModel) {
            if (spec.kind().equals("local") || BUILT_IN.equals(spec.model())) return "the built-in model";
            for (Served s : served) if (s.simulator()) return "gam bench serve-sim, the model-server simulator at " + s.url();
            List<String> names = servedModels();
            if (names.stream().anyMatch(BUILT_IN::equals)) {
                return "the built-in model (gam-perception) served at " + (served.isEmpty() ? "the server" : served.get(0).url())
                        + ", whatever --model says";
            }
            if (paperModel == null || spec.model() == null) return null;
            for (String m : names) {
                if (sameModel(m, spec.model()) || snapshotOf(m, spec.model()) || PaperTable.matchModel(r, m) == paperModel) continue;
                return "the server answers as " + m + ", not " + spec.model();
            }
            return null;
        }
    }

    /** Who answers, before anything is asked: the servers' model lists ({@link #ask}). */
    public static Who who(BackendSpec spec) { return new Who(spec, ask(spec), List.of()); }

    /** Who answers as far as the command line says, nothing asked (a dry run). */
    public static Who unasked(BackendSpec spec) { return new Who(spec, List.of(), List.of()); }

    /** Each base URL's {@code GET /models}; a server that cannot be asked, or answers otherwise, is left out. */
    public static List<Served> ask(BackendSpec spec) {
        List<Served> out = new ArrayList<>();
        for (String base : spec.baseUrls()) {
            Served s = models(base);
            if (s != null) out.add(s);
        }
        return out;
    }

    /** The model names the replies of {@code records} gave (each call's {@code model}, as the usage meter kept it), each once. */
    public static List<String> replyModels(List<ResultRecord> records) {
        Set<String> names = new LinkedHashSet<>();
        for (ResultRecord r : records) {
            if (r.cost().backends() == null) continue;
            for (UsageMeter.Tally t : r.cost().backends().values()) if (t.model() != null && t.calls() > 0) names.add(t.model());
        }
        return List.copyOf(names);
    }

    private static Served models(String base) {
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
            String b = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
            HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(b + "/models")).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (res.statusCode() != 200) return null;
            List<String> ids = new ArrayList<>();
            boolean simulator = false;
            for (JsonNode m : Json.MAPPER.readTree(res.body()).path("data")) {
                if (m.path("id").isTextual()) ids.add(m.get("id").asText());
                simulator |= SIMULATOR.equals(m.path("owned_by").asText());
            }
            return new Served(base, ids, simulator);
        } catch (IOException | IllegalArgumentException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The same name, ignoring case and a {@code kind:} prefix. */
    private static boolean sameModel(String a, String b) { return strip(a).equals(strip(b)); }

    /** A dated snapshot of {@code requested} ({@code gpt-4o-2024-08-06} for {@code gpt-4o}), as some servers answer. */
    private static boolean snapshotOf(String served, String requested) {
        String s = strip(served), q = strip(requested);
        return s.startsWith(q + "-") && s.substring(q.length() + 1).matches("[0-9][0-9-]*");
    }

    private static String strip(String m) {
        String x = m.strip().toLowerCase(Locale.ROOT);
        return x.matches("[a-z]+:.*/.*") ? x.substring(x.indexOf(':') + 1) : x;
    }
}
