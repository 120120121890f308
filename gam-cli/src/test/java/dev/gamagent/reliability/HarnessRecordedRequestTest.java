package dev.gamagent.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.api.Question;
import dev.gamagent.config.Config;
import dev.gamagent.eval.grade.VlmEvalKitMatcher;
import dev.gamagent.eval.load.BenchmarkLoader;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.local.LocalBackend;
import dev.gamagent.server.GamServer;
import dev.gamagent.server.MethodCatalog;
import dev.gamagent.server.ServerSettings;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The requests VLMEvalKit's and lmms-eval's OpenAI-API model classes really sent to {@code gam serve}, replayed byte for
 * byte, so CI needs no Python. {@code bench/harnesses.sh --fixtures} recorded them (bench/harnesses/capture.py sits
 * between each harness and the server) while VLMEvalKit (commit e8e78f05f3080fe28154f2130321f17951c3be94, through
 * run.py's infer_data_job: LMDeployAPI as {@code run.py --base-url} builds it, and GPT4V, the class its config uses for
 * OpenAI's models) and lmms-eval (commit 75571cfe0fa36ca5ec2e6aa2bb268f9d38295af3: the {@code openai} model,
 * OpenAICompatible, through the OpenAI Python SDK, with its MMBench task's prompt) evaluated the bundled demo questions
 * with the methods {@code single} and {@code gam}: request line, headers (each client's own: requests' or the SDK's
 * {@code X-Stainless-*}) and body as they arrived. Each is sent to a real server on 127.0.0.1 with the built-in model,
 * and the reply is read as the harness reads it — VLMEvalKit (both classes): any 2xx, then
 * {@code json.loads(text)['choices'][0]['message']['content'].strip()}, which must not be empty; lmms-eval: the SDK's
 * {@code choices[0].message.content} through {@code _normalize_openai_message_content} and
 * {@code usage.prompt_tokens}/{@code completion_tokens} — and must be what the Python harness read then, graded as its
 * grading graded it. The recorded bodies also pin {@link ServeHarnessTest}'s rebuilt requests: the same fields and
 * values, the same prompt text, the image in the same format and size (LMDeployAPI's with its own parameters).
 */
class HarnessRecordedRequestTest {
    private static final Path FIXTURES = Path.of("gam-cli/src/test/resources/harness-requests");
    private static final Path DEMO = Path.of("gam-bench/src/main/resources/bench/demo.tsv");

    @TempDir static Path dir;
    private static LocalBackend backend;
    private static GamServer server;
    private static int port;

    @BeforeAll static void start() throws IOException {
        Config config = Config.defaults();
        backend = LocalBackend.create(config);
        server = new GamServer(ServerSettings.fromConfig(config, "127.0.0.1", 0, null, dir.resolve("traces.db")), backend, config,
                MethodCatalog.REGISTRY, List.of());
        port = server.start();
    }

    @AfterAll static void stop() {
        if (server != null) server.close();
        if (backend != null) backend.close();
    }

    /** One recorded request and what its harness made of the reply when it was recorded. */
    record Recorded(String file, String harness, String method, String question, String read, int hit) {
        @Override public String toString() { return file; }
    }

    static List<Recorded> recorded() throws IOException {
        List<Recorded> out = new ArrayList<>();
        for (JsonNode n : Json.MAPPER.readTree(FIXTURES.resolve("requests.json").toFile())) {
            out.add(new Recorded(n.path("file").asText(), n.path("harness").asText(), n.path("method").asText(), n.path("question").asText(),
                    n.path("read").asText(), n.path("hit").asInt()));
        }
        return out;
    }

    /** The raw HTTP reply: status, headers (lower-case names) and body. */
    record Raw(int status, Map<String, String> headers, byte[] body) { }

    /** Sends {@code request} as it is over one connection and reads one HTTP/1.1 reply (Content-Length or chunked). */
    static Raw send(byte[] request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(300_000);
            OutputStream o = s.getOutputStream();
            o.write(request);
            o.flush();
            InputStream in = s.getInputStream();
            String status = line(in);
            Map<String, String> headers = new LinkedHashMap<>();
            for (String h = line(in); !h.isEmpty(); h = line(in)) {
                int colon = h.indexOf(':');
                headers.put(h.substring(0, colon).strip().toLowerCase(Locale.ROOT), h.substring(colon + 1).strip());
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                for (int size = Integer.parseInt(line(in).split(";")[0].strip(), 16); size > 0; size = Integer.parseInt(line(in).split(";")[0].strip(), 16)) {
                    body.write(in.readNBytes(size));
                    line(in);
                }
            } else {
                body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
            }
            return new Raw(Integer.parseInt(status.split(" ")[1]), headers, body.toByteArray());
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) throw new IOException("the connection closed inside a line: " + b.toString(StandardCharsets.ISO_8859_1));
            if (c != '\r') b.write(c);
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    private static Map<String, String> requestHeaders(byte[] raw) {
        String head = new String(raw, 0, indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1)), StandardCharsets.ISO_8859_1);
        Map<String, String> h = new LinkedHashMap<>();
        for (String l : head.split("\r\n")) {
            int colon = l.indexOf(':');
            if (colon > 0) h.put(l.substring(0, colon).toLowerCase(Locale.ROOT), l.substring(colon + 1).strip());
        }
        return h;
    }

    private static JsonNode requestBody(byte[] raw) throws IOException {
        int at = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1)) + 4;
        return Json.MAPPER.readTree(new String(raw, at, raw.length - at, StandardCharsets.UTF_8));
    }

    private static int indexOf(byte[] a, byte[] b) {
        outer:
        for (int i = 0; i + b.length <= a.length; i++) {
            for (int j = 0; j < b.length; j++) if (a[i + j] != b[j]) continue outer;
            return i;
        }
        throw new IllegalArgumentException("no end of the headers in the recorded request");
    }

    private static EvalQuestion demoQuestion(String index) {
        return BenchmarkLoader.load(DEMO).questions().stream().filter(e -> e.rotation() == 0 && e.id().equals(index)).findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "{0}") @MethodSource("recorded")
    void theHarnessReadsTheReplyToItsOwnRequestAsItDidWhenRecorded(Recorded r) throws Exception {
        byte[] raw = Files.readAllBytes(FIXTURES.resolve(r.file()));
        Map<String, String> sentHeaders = requestHeaders(raw);
        if (vlmEvalKit(r)) assertThat(sentHeaders.get("user-agent")).startsWith("python-requests/");
        else assertThat(sentHeaders.get("user-agent")).startsWith("OpenAI/Python");
        assertThat(requestBody(raw).path("model").asText()).isEqualTo(r.method());

        Raw reply = send(raw);
        assertThat(reply.status()).as(new String(reply.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        assertThat(reply.headers().get("content-type")).startsWith("application/json");
        JsonNode o = Json.MAPPER.readTree(reply.body());
        JsonNode content = o.at("/choices/0/message/content");
        String read;
        if (vlmEvalKit(r)) {
            // GPT4V.generate_inner and OpenAISDKWrapper.generate_inner (LMDeployAPI): a string (anything else raises, and the answer stays the failure message), stripped;
            // BaseAPI.generate keeps it only when it is not empty
            assertThat(content.isTextual()).as(o.toString()).isTrue();
            read = content.asText().strip();
            assertThat(read).isNotEmpty();
        } else {
            // OpenAICompatible: _normalize_openai_message_content (None becomes ""), the usage it logs, then
            // mmbench_process_results strips the text
            read = content.isNull() ? "" : content.asText();
            assertThat(o.at("/usage/prompt_tokens").isInt()).as(o.toString()).isTrue();
            assertThat(o.at("/usage/completion_tokens").isInt()).as(o.toString()).isTrue();
            assertThat(o.at("/usage/prompt_tokens").asInt()).isPositive();
            read = read.strip();
        }
        assertThat(read).as("what %s read from the reply", r.harness()).isEqualTo(r.read());

        // graded as the harness graded it then: the letter VLMEvalKit's can_infer reads (lmms-eval's static grading
        // tries the same can_infer first) is the method's option, right or wrong as recorded
        Question q = demoQuestion(r.question()).question().question();
        VlmEvalKitMatcher.Match m = VlmEvalKitMatcher.infer(read, q.options(), VlmEvalKitMatcher.Rules.latest());
        assertThat(m.letter()).isEqualTo(o.at("/gam/option").asText());
        assertThat(m.letter().equals(demoQuestion(r.question()).question().groundTruth()) ? 1 : 0).isEqualTo(r.hit());
    }

    private static boolean vlmEvalKit(Recorded r) { return r.harness().startsWith("vlmevalkit"); }

    @ParameterizedTest(name = "{0}") @MethodSource("recorded")
    void serveHarnessTestRebuildsTheRequestTheHarnessSent(Recorded r) throws Exception {
        JsonNode sent = requestBody(Files.readAllBytes(FIXTURES.resolve(r.file())));
        ServeHarnessTest.Harness h = vlmEvalKit(r) ? ServeHarnessTest.Harness.VLMEVALKIT : ServeHarnessTest.Harness.LMMS_EVAL;
        Question q = demoQuestion(r.question()).question().question();
        ObjectNode rebuilt = h.body(r.method(), q, false);
        if (r.harness().equals("vlmevalkit-base-url")) {
            // run.py --base-url (LMDeployAPI): GPT4V's prompt and image, without "detail", with n 1, run.py's
            // --max-tokens 32768 and LMDeployWrapper's temperature 0.0
            for (JsonNode part : rebuilt.at("/messages/0/content")) if (part.has("image_url")) ((ObjectNode) part.path("image_url")).remove("detail");
            rebuilt.put("n", 1).put("max_tokens", 32768).put("temperature", 0.0);
        }
        // the images: the same format and the same size (PIL's and ImageIO's encoders differ in their bytes)
        List<String> sentImages = images(sent), rebuiltImages = images(rebuilt);
        assertThat(sentImages).hasSameSizeAs(rebuiltImages).hasSize(1);
        assertThat(mime(sentImages.get(0))).isEqualTo(mime(rebuiltImages.get(0)));
        BufferedImage a = decode(sentImages.get(0)), b = decode(rebuiltImages.get(0));
        assertThat(new int[]{a.getWidth(), a.getHeight()}).isEqualTo(new int[]{b.getWidth(), b.getHeight()});
        // everything else equal: fields, values, parts in order, the prompt's text to the character
        assertThat(withoutImages(rebuilt)).isEqualTo(withoutImages(sent));
    }

    private static List<String> images(JsonNode body) {
        List<String> out = new ArrayList<>();
        for (JsonNode part : body.at("/messages/0/content")) if (part.path("type").asText().equals("image_url")) out.add(part.at("/image_url/url").asText());
        return out;
    }

    private static String mime(String dataUrl) { return dataUrl.substring(0, dataUrl.indexOf(',')); }

    private static BufferedImage decode(String dataUrl) throws IOException {
        return ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(dataUrl.substring(dataUrl.indexOf(',') + 1))));
    }

    private static JsonNode withoutImages(JsonNode body) {
        JsonNode copy = body.deepCopy();
        for (JsonNode part : (ArrayNode) copy.at("/messages/0/content")) {
            if (part.path("type").asText().equals("image_url")) ((ObjectNode) part.path("image_url")).put("url", "(image)");
        }
        return copy;
    }
}
