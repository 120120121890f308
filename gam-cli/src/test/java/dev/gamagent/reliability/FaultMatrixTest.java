package dev.gamagent.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendFactory;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.server.GamServer;
import dev.gamagent.server.MethodCatalog;
import dev.gamagent.server.ServerSettings;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Reply;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault matrix: every way a model server fails {429, 500, 503, timeout, refused, reset mid-body,
 * malformed, truncated, no log-probs}, once (then it answers) and for good, against each way the system
 * is used {ask, eval, serve}. Everything is real: the CLI through {@code Main.run}, {@code gam serve} over
 * HTTP, and an OpenAI-compatible server on a socket that misbehaves byte for byte. Retries are 2 (three
 * tries a call), the request timeout 1 s, the backoff 1–2 ms; attempts are counted at the server.
 */
class FaultMatrixTest {
    @TempDir Path dir;

    enum Fault {
        HTTP_429("429 Too Many Requests (Retry-After: 0)"), HTTP_500("500 Internal Server Error"),
        HTTP_503("503 Service Unavailable (Retry-After: 0)"), TIMEOUT("no answer within the 1 s timeout"),
        REFUSED("connection refused (nothing listening)"), RESET("connection reset mid-body (TCP RST)"),
        MALFORMED("200 with a body that is not JSON"), TRUNCATED("200, body shorter than its Content-Length"),
        NO_LOGPROBS("no log-probs");

        final String label;

        Fault(String label) { this.label = label; }

        /** The fault as the server sends it. */
        Reply reply() {
            return switch (this) {
                case HTTP_429 -> Reply.status(429, "{\"error\":{\"message\":\"rate limit reached\"}}").header("Retry-After", "0");
                case HTTP_500 -> Reply.status(500, "{\"error\":{\"message\":\"internal error\"}}");
                case HTTP_503 -> Reply.status(503, "{\"error\":{\"message\":\"model is loading\"}}").header("Retry-After", "0");
                case TIMEOUT -> Reply.delayed(Duration.ofMillis(2500), ANSWER);
                case RESET -> Reply.reset("{\"id\":\"c\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"mess", 400);
                case MALFORMED -> Reply.raw(200, "<html><body><h1>502 Bad Gateway</h1></body></html>");
                case TRUNCATED -> Reply.truncated("{\"id\":\"c\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,", 300);
                case NO_LOGPROBS -> ANSWER.withoutLogprobs();
                case REFUSED -> throw new IllegalStateException("refused has no reply");
            };
        }
    }

    private static final Reply.Answer ANSWER = Reply.answer("ANSWER: A");

    /** One cell: what the user saw, whether that is the right behaviour, and the server's attempt count. */
    record Cell(String text, boolean ok) { }

    /** An OpenAI-compatible server failing with {@code fault} on the first request only, or on every one. */
    private static OpenAiWireServer server(Fault fault, boolean always) {
        OpenAiWireServer s = new OpenAiWireServer();
        if (fault == Fault.NO_LOGPROBS && !always) return s.rejectLogprobs(); // refuses log-probs with a 400: asked again without
        AtomicInteger n = new AtomicInteger();
        s.respondWith(r -> always || n.getAndIncrement() == 0 ? fault.reply() : ANSWER);
        return s;
    }

    /** A base URL where nothing listens. */
    private static String deadUrl() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return "http://127.0.0.1:" + s.getLocalPort() + "/v1";
        }
    }

    private static List<String> backendFlags(String url) {
        return List.of("--backend", "openai", "--base-url", url, "--model", "m", "--retries", "2", "--timeout", "1",
                "--set", "backend.retry_base_ms=1", "--set", "backend.retry_max_ms=2");
    }

    /** What the error says, in a few words, so the table shows that it names the cause. */
    static String cause(String message) {
        String m = message.toLowerCase(Locale.ROOT);
        if (m.contains("http 429")) return "names HTTP 429";
        if (m.contains("http 500")) return "names HTTP 500";
        if (m.contains("http 503")) return "names HTTP 503";
        if (m.contains("within 1 s")) return "names the 1 s timeout";
        if (m.contains("cannot connect")) return "says it cannot connect";
        if (m.contains("not json")) return "says the body is not JSON";
        if (m.contains("before a complete answer")) return "says the answer was cut off";
        return "UNEXPLAINED: " + message.strip();
    }

    private static String tries(int n) { return n + (n == 1 ? " try" : " tries"); }

    private static String firstError(String err) {
        return err.lines().filter(l -> l.startsWith("error: ")).findFirst().orElse(err.strip());
    }

    private Path image() throws Exception {
        BufferedImage img = new BufferedImage(32, 24, BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setColor(Color.RED);
        g.fillRect(0, 0, 32, 24);
        g.dispose();
        Path p = dir.resolve("red.png");
        ImageIO.write(img, "png", p.toFile());
        return p;
    }

    // ---- the three surfaces ------------------------------------------------------------------------------------

    private Cell ask(String url, OpenAiWireServer server, Fault fault, boolean always) throws Exception {
        List<String> args = new ArrayList<>(List.of("ask", "--image", image().toString(), "--question", "What colour is it?",
                "--option", "A=red", "--option", "B=blue", "--json"));
        args.addAll(backendFlags(url));
        CommandRun r = CommandRun.main(args.toArray(String[]::new));
        String attempts = server == null ? "" : ", " + tries(server.chatRequests().size());
        boolean fails = always && fault != Fault.NO_LOGPROBS;
        if (!fails) {
            JsonNode o = r.code() == 0 ? Json.MAPPER.readTree(r.out()) : null;
            boolean ok = o != null && o.path("option").asText().equals("A");
            String signal = o == null ? "" : o.path("signal").asText("");
            return new Cell((ok ? "answered A" : "FAILED: " + firstError(r.err())) + attempts
                    + (fault == Fault.NO_LOGPROBS && ok ? " (signal " + signal + ")" : ""), ok);
        }
        String error = firstError(r.err());
        boolean ok = r.code() == 1 && error.startsWith("error: ") && !cause(error).startsWith("UNEXPLAINED")
                && r.out().isBlank() && (server == null || server.chatRequests().size() == 3);
        return new Cell("exit " + r.code() + attempts + "; " + cause(error), ok);
    }

    private Cell eval(String url, Fault fault, boolean always, String name) throws Exception {
        String png = Base64.getEncoder().encodeToString(Files.readAllBytes(image()));
        Path tsv = Files.writeString(dir.resolve(name + ".tsv"), "index\timage\tquestion\tA\tB\tanswer\n"
                + "1\t" + png + "\tWhat colour is it?\tred\tblue\tA\n2\t1\tWhich colour is shown?\tred\tblue\tA\n");
        Path out = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("eval", "--data", tsv.toString(), "--methods", "single", "--out", out.toString(),
                "--concurrency", "2"));
        args.addAll(backendFlags(url));
        CommandRun r = CommandRun.main(args.toArray(String[]::new));
        List<String> outcomes = new ArrayList<>();
        if (Files.exists(out.resolve("results.jsonl"))) {
            for (String l : Files.readAllLines(out.resolve("results.jsonl"))) outcomes.add(Json.MAPPER.readTree(l).path("outcome").asText());
        }
        boolean fails = always && fault != Fault.NO_LOGPROBS;
        if (!fails) {
            boolean ok = r.code() == 0 && outcomes.equals(List.of("correct", "correct"));
            return new Cell(ok ? "exit 0, 2/2 graded" : "FAILED: exit " + r.code() + " " + outcomes + " " + firstError(r.err()), ok);
        }
        String error = firstError(r.err());
        boolean ok = r.code() == 1 && outcomes.equals(List.of("error", "error")) && error.contains("all 2 question × method pairs failed")
                && !cause(error).startsWith("UNEXPLAINED");
        return new Cell("exit " + r.code() + ", 2/2 stored as `error` (retried by a rerun); " + cause(error), ok);
    }

    private Cell serve(String url, OpenAiWireServer server, Fault fault, boolean always, String name) throws Exception {
        Config config = Config.defaults().withOverrides(Map.of("backend.retry_base_ms", "1", "backend.retry_max_ms", "2"));
        BackendSpec spec = new BackendSpec("openai", List.of(url), "m", null, Duration.ofSeconds(1), 2, 8, null, null, null);
        ServerSettings settings = ServerSettings.fromConfig(config, "127.0.0.1", 0, null, dir.resolve(name + ".db"));
        try (Backend backend = BackendFactory.create(spec, config);
             GamServer gam = new GamServer(settings, backend, config, MethodCatalog.REGISTRY, List.of())) {
            int port = gam.start();
            String body = Json.write(Map.of("model", "single", "messages", List.of(Map.of("role", "user", "content", List.of(
                    Map.of("type", "text", "text", "What colour is it?\nA. red\nB. blue"),
                    Map.of("type", "image_url", "image_url", Map.of("url", new Picture("p", ImageIO.read(image().toFile())).dataUrl())))))));
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode o = Json.MAPPER.readTree(r.body());
            String attempts = server == null ? "" : ", " + tries(server.chatRequests().size());
            boolean fails = always && fault != Fault.NO_LOGPROBS;
            if (!fails) {
                boolean ok = r.statusCode() == 200 && o.path("gam").path("option").asText().equals("A");
                return new Cell((ok ? "200, answered A" : "FAILED: " + r.statusCode() + " " + r.body()) + attempts, ok);
            }
            String message = o.at("/error/message").asText();
            boolean ok = r.statusCode() == 502 && o.at("/error/type").asText().equals("upstream_error") && !cause(message).startsWith("UNEXPLAINED")
                    && (server == null || server.chatRequests().size() == 3);
            return new Cell(r.statusCode() + " `" + o.at("/error/code").asText() + "`" + attempts + "; " + cause(message), ok);
        }
    }

    @Test void everyFaultOnEverySurfaceEndsInAnAnswerOrAClearErrorNeverAHang() throws Exception {
        StringBuilder table = new StringBuilder("| fault | | ask | eval | serve |\n|---|---|---|---|---|\n");
        List<String> wrong = new ArrayList<>();
        int i = 0;
        for (Fault f : Fault.values()) {
            for (boolean always : new boolean[]{false, true}) {
                String when = f == Fault.NO_LOGPROBS ? (always ? "answers never carry them" : "a 400 refuses them")
                        : always ? "every time" : "once, then answers";
                if (f == Fault.REFUSED && !always) continue; // one server cannot be down only for the first try
                Cell[] cells = new Cell[3];
                String tag = f.name().toLowerCase(Locale.ROOT) + (always ? "-always" : "-once") + "-" + i++;
                try (OpenAiWireServer a = f == Fault.REFUSED ? null : server(f, always);
                     OpenAiWireServer e = f == Fault.REFUSED ? null : server(f, always);
                     OpenAiWireServer s = f == Fault.REFUSED ? null : server(f, always)) {
                    String dead = f == Fault.REFUSED ? deadUrl() : null;
                    cells[0] = ask(a == null ? dead : a.baseUrl(), a, f, always);
                    cells[1] = eval(e == null ? dead : e.baseUrl(), f, always, tag);
                    cells[2] = serve(s == null ? dead : s.baseUrl(), s, f, always, tag);
                    for (OpenAiWireServer w : new OpenAiWireServer[]{a, e, s}) if (w != null) w.assertNoViolations();
                }
                table.append("| ").append(f.label).append(" | ").append(when);
                String[] surfaces = {"ask", "eval", "serve"};
                for (int k = 0; k < 3; k++) {
                    table.append(" | ").append(cells[k].text());
                    if (!cells[k].ok()) wrong.add(f.label + " / " + when + " / " + surfaces[k] + ": " + cells[k].text());
                }
                table.append(" |\n");
            }
        }
        assertThat(wrong).as("cells that did not end in an answer or a clear error:\n" + table).isEmpty();
        Suite.report("fault-matrix", table.toString());
    }
}
