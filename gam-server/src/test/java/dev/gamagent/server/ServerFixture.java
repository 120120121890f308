package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Method;
import dev.gamagent.backend.Backend;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Json;

import java.awt.image.BufferedImage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Starts a {@link GamServer} on 127.0.0.1:0 in front of a scripted backend, and speaks to it. */
final class ServerFixture implements AutoCloseable {
    final GamServer server;
    final String base;
    final HttpClient client = HttpClient.newHttpClient();
    String bearer;

    ServerFixture(ServerSettings settings, Backend backend, Map<String, Supplier<Method>> extraMethods, List<String> secrets) throws Exception {
        this(settings, backend, extraMethods, secrets, Config.defaults());
    }

    /** With {@code config} ({@code gam serve} itself adds {@code trace.prompts=true} to the defaults). */
    ServerFixture(ServerSettings settings, Backend backend, Map<String, Supplier<Method>> extraMethods, List<String> secrets,
                  Config config) throws Exception {
        MethodCatalog catalog = new MethodCatalog() {
            @Override public List<String> names() {
                List<String> n = new ArrayList<>(MethodRegistry.listed());
                n.addAll(extraMethods.keySet());
                return n;
            }

            @Override public Method create(String name) {
                Supplier<Method> s = extraMethods.get(name);
                return s != null ? s.get() : MethodRegistry.create(name);
            }
        };
        server = new GamServer(settings, backend, config, catalog, secrets);
        base = "http://127.0.0.1:" + server.start();
    }

    static ServerSettings settings(Path dir) {
        return new ServerSettings("127.0.0.1", 0, null, 0, 0, 0, List.of(), dir.resolve("traces.db"), 0);
    }

    static BufferedImage image(int w, int h) {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) img.setRGB(x, y, x < w / 2 ? 0xDD2222 : 0x2244CC);
        return img;
    }

    static String dataUrl() { return new Picture("t", image(32, 24)).dataUrl(); }

    /** An OpenAI request: the text, then one image part per URL. */
    static ObjectNode request(String model, String text, boolean stream, String... imageUrls) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("model", model);
        if (stream) o.put("stream", true);
        ArrayNode content = o.putArray("messages").addObject().put("role", "user").putArray("content");
        content.addObject().put("type", "text").put("text", text);
        for (String u : imageUrls) content.addObject().put("type", "image_url").putObject("image_url").put("url", u);
        return o;
    }

    HttpResponse<String> post(String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (bearer != null) b.header("Authorization", "Bearer " + bearer);
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, JsonNode body) throws Exception { return post(path, Json.write(body)); }

    HttpResponse<String> get(String path) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).GET();
        if (bearer != null) b.header("Authorization", "Bearer " + bearer);
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode json(HttpResponse<String> r) throws Exception { return Json.MAPPER.readTree(r.body()); }

    @Override public void close() { server.close(); }
}
