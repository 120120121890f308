package dev.gamagent.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.CliProcess;
import dev.gamagent.testing.KeyRecovery;
import dev.gamagent.testing.SecretForm;
import dev.gamagent.testing.TriangleImage;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Received;
import dev.gamagent.testing.http.Reply;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import javax.imageio.ImageIO;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 28, item 1, and issue 38, item 4: an upstream that echoes the API key back (a gateway's error page, a
 * debugging proxy, a JSON encoder that writes '/' as '\/', a model that repeats it split by spaces or line breaks,
 * wrapped in base64, as hex, as {@code \xNN}, all but its last characters) must not get it, in any form, into anything
 * the process prints or stores. The upstream is a real OpenAI-compatible server on a socket that echoes what it was
 * sent in the Authorization header in every {@link SecretForm} at once — in the answer's text, its tokens, its
 * {@code model} field, and in a 400 body — and {@code gam ask}, {@code gam eval} and {@code gam serve} run against it
 * in child processes that hold the key in their environment, as a user's would. Each output × each form is one case;
 * each output is also read every way {@link KeyRecovery} knows, for any part of the key.
 */
class SecretLeakTest {
    /** A key with the characters escapers change: '/', '+', '='. */
    static final String KEY = "sk-test/SECRET+123=abc";
    private static final String VAR = "GAM_LEAK_TEST_KEY";
    /** A question holding this makes the upstream answer 400 instead. */
    private static final String FAIL = "(fail)";

    @TempDir static Path dir;
    private static OpenAiWireServer upstream;
    /** Output name → everything it holds (files read byte for byte as Latin-1: the key is ASCII). */
    private static final Map<String, String> OUTPUTS = new LinkedHashMap<>();

    @BeforeAll static void runEveryCommandAgainstAnEchoingUpstream() throws Exception {
        upstream = new OpenAiWireServer();
        upstream.respondWith(SecretLeakTest::echo);
        cli();
        serve();
        assertThat(upstream.chatRequests()).as("the upstream received the key").isNotEmpty()
                .allSatisfy(r -> assertThat(r.header("authorization")).isEqualTo("Bearer " + KEY));
    }

    @AfterAll static void stopUpstream() { if (upstream != null) upstream.close(); }

    /** Every form of what the request carried in its Authorization header, as it would sit inside a JSON string. */
    private static String allForms(Received r) {
        String key = String.valueOf(r.header("authorization")).replaceFirst("^Bearer ", "");
        return Arrays.stream(SecretForm.values()).map(f -> f.inJson(key)).collect(Collectors.joining(" | "));
    }

    /** A 200 whose text, tokens and model field echo the key; a 400 echoing it for questions marked {@link #FAIL}. */
    private static Reply echo(Received r) {
        String forms = allForms(r);
        if (r.body().contains(FAIL)) {
            // "logprobs" in the body: the backend logs the refusal (with the body) and asks again without them
            return Reply.status(400, "{\"error\":{\"message\":\"logprobs refused for Authorization: Bearer " + forms
                    + "\",\"type\":\"invalid_request_error\"}}");
        }
        String literal = "ANSWER: A. Your request carried " + forms;
        String text;
        try {
            text = Json.MAPPER.readTree("\"" + literal + "\"").asText();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        ArrayNode tokens = Json.MAPPER.createArrayNode();
        for (int i = 0; i < text.length(); i += 6) {
            String t = text.substring(i, Math.min(text.length(), i + 6));
            tokens.addObject().put("token", t).put("logprob", -0.01).putArray("top_logprobs")
                    .add(Json.MAPPER.createObjectNode().put("token", t).put("logprob", -0.01))
                    .add(Json.MAPPER.createObjectNode().put("token", "B").put("logprob", -5.0));
        }
        return Reply.raw(200, "{\"id\":\"chatcmpl-echo\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"" + forms
                + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + literal + "\"},\"logprobs\":{\"content\":"
                + Json.write(tokens) + "},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":"
                + tokens.size() + ",\"total_tokens\":" + (50 + tokens.size()) + "}}");
    }

    private static List<String> backend() {
        return List.of("--backend", "openai", "--base-url", upstream.baseUrl(), "--model", "m", "--api-key-env", VAR, "--retries", "0",
                "--verbose");
    }

    private static List<String> line(List<String> command, List<String> more) {
        List<String> l = new ArrayList<>(command);
        l.addAll(more);
        l.addAll(backend());
        l.add("::");
        return l;
    }

    /** gam ask (answered and refused) and gam eval (answered and refused) in one child process. */
    private static void cli() throws Exception {
        Path image = dir.resolve("triangle.png");
        ImageIO.write(TriangleImage.draw(), "png", image.toFile());
        Files.writeString(dir.resolve("ok.tsv"), "index\timage_path\tquestion\tA\tB\tanswer\n"
                + "1\ttriangle.png\tWhat colour is the shape?\tred\tblue\tA\n2\ttriangle.png\tWhat shape is it?\ttriangle\tsquare\tA\n");
        Files.writeString(dir.resolve("fail.tsv"), "index\timage_path\tquestion\tA\tB\tanswer\n"
                + "1\ttriangle.png\tWhat colour is the shape? " + FAIL + "\tred\tblue\tA\n");
        List<String> ask = List.of("ask", "--image", image.toString(), "--option", "A=red", "--option", "B=blue", "--method", "single");
        List<String> args = new ArrayList<>();
        args.addAll(line(ask, List.of("--question", "What colour is the shape?", "--json", "--trace", dir.resolve("trace.json").toString(),
                "--record", dir.resolve("record.jsonl").toString())));
        args.addAll(line(ask, List.of("--question", "What colour is the shape? " + FAIL)));
        args.addAll(line(List.of("eval", "--data", dir.resolve("ok.tsv").toString(), "--methods", "single,vote", "--out", dir.resolve("run").toString(),
                "--record", dir.resolve("run/record.jsonl").toString()), List.of()));
        args.addAll(line(List.of("eval", "--data", dir.resolve("fail.tsv").toString(), "--methods", "single", "--out", dir.resolve("failed").toString()),
                List.of()));
        args.remove(args.size() - 1);
        CliProcess.Result r = CliProcess.run(dir, Map.of(VAR, KEY), 300, args.toArray(String[]::new));
        assertThat(r.out()).as("ask answered; stderr:\n" + r.err()).contains("\"option\":\"A\"");
        OUTPUTS.put("stdout", r.out());
        OUTPUTS.put("stderr, `--verbose` log lines included", r.err());
        OUTPUTS.put("`--trace` file", read(dir.resolve("trace.json")));
        OUTPUTS.put("`--record` file", read(dir.resolve("record.jsonl")) + read(dir.resolve("run/record.jsonl")));
        OUTPUTS.put("results.jsonl", read(dir.resolve("run/results.jsonl")) + read(dir.resolve("failed/results.jsonl")));
        OUTPUTS.put("results.db", readAll(dir.resolve("run"), "results.db") + readAll(dir.resolve("failed"), "results.db"));
        OUTPUTS.put("summary.json", read(dir.resolve("run/summary.json")) + read(dir.resolve("failed/summary.json")));
        OUTPUTS.put("report.html", read(dir.resolve("run/report.html")) + read(dir.resolve("failed/report.html")));
        OUTPUTS.put("report-debates", readAll(dir.resolve("run/report-debates"), "") + readAll(dir.resolve("failed/report-debates"), ""));
    }

    /** gam serve in a child process: a 200, a stream, a 502, a stream that fails, and the trace browser. */
    private static void serve() throws Exception {
        List<String> cmd = CliProcess.javaCommand(CliProcess.class.getName());
        cmd.addAll(List.of("serve", "--port", "0", "--trace-db", dir.resolve("serve/traces.db").toString()));
        cmd.addAll(backend());
        Path err = dir.resolve("serve.err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile());
        pb.environment().put(VAR, KEY);
        Process p = pb.start();
        StringBuilder out = new StringBuilder();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            CompletableFuture<Integer> port = CompletableFuture.supplyAsync(() -> {
                try {
                    for (String l; (l = lines.readLine()) != null; ) {
                        out.append(l).append('\n');
                        Matcher m = Pattern.compile("gam serve: http://127\\.0\\.0\\.1:(\\d+)/").matcher(l);
                        if (m.find()) return Integer.parseInt(m.group(1));
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                throw new IllegalStateException("gam serve ended before it listened");
            });
            String base = "http://127.0.0.1:" + port.get(120, TimeUnit.SECONDS);
            String dataUrl = new Picture("t", TriangleImage.draw()).dataUrl();
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> ok = post(client, base, dataUrl, "What colour is the shape?", false);
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
            OUTPUTS.put("serve: 200 body", ok.body());
            OUTPUTS.put("serve: SSE stream", post(client, base, dataUrl, "What colour is the shape?", true).body());
            HttpResponse<String> failed = post(client, base, dataUrl, "What colour is the shape? " + FAIL, false);
            assertThat(failed.statusCode()).as(failed.body()).isEqualTo(502);
            OUTPUTS.put("serve: 502 body", failed.body());
            OUTPUTS.put("serve: SSE error event", post(client, base, dataUrl, "What colour is the shape? " + FAIL, true).body());
            String traceId = Json.MAPPER.readTree(ok.body()).at("/gam/trace_id").asText();
            OUTPUTS.put("serve: traces (API)", get(client, base + "/v1/traces") + get(client, base + "/v1/traces/" + traceId));
        } finally {
            p.destroy(); // SIGTERM: the shutdown hook closes the server and its trace store
            if (!p.waitFor(60, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        OUTPUTS.put("serve: traces.db", readAll(dir.resolve("serve"), "traces.db"));
        OUTPUTS.put("serve: stdout, stderr and log lines", out + read(err));
    }

    private static HttpResponse<String> post(HttpClient client, String base, String dataUrl, String question, boolean stream) throws Exception {
        String body = Json.write(Map.of("model", "single", "stream", stream, "messages", List.of(Map.of("role", "user", "content", List.of(
                Map.of("type", "text", "text", question + "\nA. red\nB. blue"), Map.of("type", "image_url", "image_url", Map.of("url", dataUrl)))))));
        return client.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions")).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String get(HttpClient client, String url) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static String read(Path p) throws IOException {
        return Files.exists(p) ? new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1) : "";
    }

    /** A database with its journal files; the files of a folder. */
    private static String readAll(Path d, String prefix) throws IOException {
        StringBuilder sb = new StringBuilder();
        if (!Files.isDirectory(d)) return "";
        try (Stream<Path> s = Files.list(d)) {
            for (Path p : s.filter(f -> f.getFileName().toString().startsWith(prefix)).sorted().toList()) sb.append(read(p));
        }
        return sb.toString();
    }

    /** The outputs, in the order of the table. */
    private static final List<String> NAMES = List.of("stdout", "stderr, `--verbose` log lines included", "`--trace` file", "`--record` file",
            "results.jsonl", "results.db", "summary.json", "report.html", "report-debates", "serve: 200 body", "serve: SSE stream",
            "serve: 502 body", "serve: SSE error event", "serve: traces (API)", "serve: traces.db", "serve: stdout, stderr and log lines");
    /** Their names in the table's header. */
    private static final List<String> COLUMNS = List.of("stdout", "stderr", "`--trace`", "`--record`", "results.jsonl", "results.db",
            "summary.json", "report.html", "report-debates", "serve 200", "serve SSE", "serve 502", "serve SSE error", "traces API",
            "traces.db", "serve log");

    static Stream<Arguments> cases() {
        return NAMES.stream().flatMap(o -> Arrays.stream(SecretForm.values()).map(f -> Arguments.of(o, f)));
    }

    private static boolean leaks(String text, SecretForm form) {
        return form.written(KEY).stream().anyMatch(text::contains);
    }

    @ParameterizedTest(name = "{0} holds no key {1}")
    @MethodSource("cases")
    void noOutputHoldsTheKeyInAnyForm(String output, SecretForm form) {
        assertThat(OUTPUTS).containsKey(output);
        String text = OUTPUTS.get(output);
        for (String w : form.written(KEY)) assertThat(text).as(output).doesNotContain(w);
    }

    /**
     * Read as someone holding the output would (as it is; unescaped, white space removed; hex and base64 decoded), no
     * part of the key's middle is there: not in the forms above, nor in one an output made of them (a 400 body quoted in
     * a message, escaped again).
     */
    @ParameterizedTest(name = "{0}: no reading holds any part of the key")
    @MethodSource("outputs")
    void noReadingOfAnOutputHoldsAnyPartOfTheKey(String output) {
        assertThat(KeyRecovery.holdsRun(OUTPUTS.get(output), "SECRET", 6)).as(output).isFalse();
    }

    static Stream<String> outputs() { return NAMES.stream(); }

    /**
     * The echo did reach the outputs (as [redacted]): the cases above are not passing for want of an echo. (The 200
     * body and the stream hold the chosen option, not the reply's text.)
     */
    @Test void theEchoReachedTheOutputsAsRedacted() {
        for (String o : List.of("stdout", "stderr, `--verbose` log lines included", "`--trace` file", "`--record` file", "results.jsonl",
                "report.html", "serve: 502 body", "serve: SSE error event", "serve: traces (API)")) {
            assertThat(OUTPUTS.get(o)).as(o).contains("[redacted]");
        }
        StringBuilder table = new StringBuilder("| form |");
        for (String c : COLUMNS) table.append(' ').append(c).append(" |");
        table.append("\n|---|").append("---|".repeat(COLUMNS.size())).append('\n');
        for (SecretForm f : SecretForm.values()) {
            table.append("| ").append(f.label().replace("|", "\\|")).append(" |");
            for (String o : NAMES) table.append(leaks(OUTPUTS.get(o), f) ? " LEAKED |" : " clean |");
            table.append('\n');
        }
        table.append("| any part of the key, read every way (unescaped, white space removed, hex and base64 decoded) |");
        for (String o : NAMES) table.append(KeyRecovery.holdsRun(OUTPUTS.get(o), "SECRET", 6) ? " LEAKED |" : " clean |");
        Suite.report("secret-forms", table.append('\n').toString());
    }
}
