package dev.gamagent.eval.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The model a reproduction runs on, as its table names it, and why it is not a paper's model whatever its name. */
public final class ModelRun {
    /** What the simulator ({@code gam bench serve-sim}) says it is in its model list ({@code owned_by}). */
    static final String SIMULATOR = "gam-bench-serve-sim";

    private ModelRun() { }

    /** The model run's name in tables: the built-in model, or {@code kind:model}. */
    public static String label(BackendSpec spec) {
        if (spec.kind().equals("local")) return "the built-in model (gam-perception)";
        return spec.kind() + ":" + (spec.model() == null ? "(the server's own)" : spec.model());
    }

    /**
     * Why the model run is no paper's model whatever it is called: the built-in model, or the model-server simulator
     * (asked: its {@code /models} list says so); null for any other server.
     */
    public static String notPaperModel(BackendSpec spec) {
        if (spec.kind().equals("local") || "gam-perception".equals(spec.model())) return "the built-in model";
        for (String base : spec.baseUrls()) if (isSimulator(base)) return "gam bench serve-sim, the model-server simulator at " + base;
        return null;
    }

    /** Whether the server at {@code base} lists its models as the simulator's ({@code owned_by}); false when it cannot be asked. */
    static boolean isSimulator(String base) {
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
            String b = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
            HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(b + "/models")).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (res.statusCode() != 200) return false;
            for (JsonNode m : Json.MAPPER.readTree(res.body()).path("data")) if (SIMULATOR.equals(m.path("owned_by").asText())) return true;
            return false;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
