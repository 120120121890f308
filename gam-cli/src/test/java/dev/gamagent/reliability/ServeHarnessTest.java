package dev.gamagent.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Question;
import dev.gamagent.cli.Main;
import dev.gamagent.config.Config;
import dev.gamagent.eval.grade.VlmEvalKitMatcher;
import dev.gamagent.eval.load.BenchmarkLoader;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.image.Picture;
import dev.gamagent.local.LocalBackend;
import dev.gamagent.server.GamServer;
import dev.gamagent.server.MethodCatalog;
import dev.gamagent.server.ServerSettings;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code gam serve} as the evaluation harnesses use it (issue 38): a real server on 127.0.0.1 with the built-in model,
 * sent exactly what VLMEvalKit's and lmms-eval's OpenAI-API model classes send — their prompt builders' text, their
 * parameters, the image encoded as each encodes it — and the reply read as each reads it. Every method gets text
 * content on every bundled question (bench/demo.tsv and the MMBench / CCBench samples); a reply without an answer is a
 * sentence VLMEvalKit's matcher grades as a refusal; the letter the harness reads is the option the method chose; and
 * {@code gam} through {@code gam serve} answers as {@code gam eval} does on a file holding the same images. The short
 * mode asks every method a few questions and {@code gam} a dozen; {@code ./test reliability} asks every method every
 * question. The builders are read at VLMEvalKit commit e8e78f05f3080fe28154f2130321f17951c3be94
 * (vlmeval/dataset/image_mcq.py ImageMCQDataset.build_prompt, vlmeval/api/gpt.py OpenAIWrapper, vlmeval/smp/vlm.py
 * encode_image_to_base64) and lmms-eval commit 75571cfe0fa36ca5ec2e6aa2bb268f9d38295af3
 * (lmms_eval/tasks/mmbench/en_utils.py mmbench_doc_to_text, mmbench_evals.py create_options_prompt,
 * _default_template_mmbench_en_yaml, lmms_eval/models/simple/openai.py OpenAICompatible).
 */
class ServeHarnessTest {
    private static final String NO_ANSWER_START = "Cannot determine the answer";
    private static final Map<String, String[]> TABLE = Collections.synchronizedMap(new LinkedHashMap<>());

    @TempDir static Path dir;
    private static LocalBackend backend;
    private static GamServer server;
    private static String base;
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** One bundled question: its set, its index in the file, and the question as the file gives it (images decoded). */
    record Row(String set, String index, Question q, String answer, String category) {
        String id() { return set + "-" + index; }
    }

    @BeforeAll static void start() throws IOException {
        Config config = Config.defaults();
        backend = LocalBackend.create(config);
        server = new GamServer(ServerSettings.fromConfig(config, "127.0.0.1", 0, null, dir.resolve("traces.db")), backend, config,
                MethodCatalog.REGISTRY, List.of());
        base = "http://127.0.0.1:" + server.start();
    }

    @AfterAll static void stop() {
        if (server != null) server.close();
        if (backend != null) backend.close();
        StringBuilder t = new StringBuilder("| harness (as its own code sends it) | questions | methods | requests | 200 with text content "
                + "| no answer: the sentence, graded Z by VLMEvalKit's matcher | letter the harness reads = the method's option "
                + "| `gam` through `gam serve` = `gam eval` |\n|---|---|---|---|---|---|---|---|\n");
        TABLE.forEach((k, v) -> t.append("| ").append(k).append(" | ").append(String.join(" | ", v)).append(" |\n"));
        Suite.report("serve-harnesses", t.toString());
    }

    // ------------------------------------------------------------------ the bundled questions

    private static final Path DEMO = Path.of("gam-bench/src/main/resources/bench/demo.tsv");
    private static final String SAMPLES = "gam-cli/src/test/resources/realdata/mmbench-samples/";

    private static List<Row> load(String set, Path tsv) {
        List<Row> out = new ArrayList<>();
        for (EvalQuestion e : BenchmarkLoader.load(tsv).questions()) {
            if (e.rotation() != 0) continue;
            var k = e.question();
            out.add(new Row(set, e.id(), k.question(), k.groundTruth(), k.category()));
        }
        return out;
    }

    private static List<Row> bundled() {
        List<Row> all = new ArrayList<>();
        all.addAll(load("demo", DEMO));
        all.addAll(load("MMBench_EN", Path.of(SAMPLES + "MMBench_EN_samples.tsv")));
        all.addAll(load("MMBench_CN", Path.of(SAMPLES + "MMBench_CN_subset.tsv")));
        all.addAll(load("CCBench", Path.of(SAMPLES + "CCBench_subset.tsv")));
        return all;
    }

    // ------------------------------------------------------------------ the harnesses

    /** A harness: what its model class sends for a question and how it reads the reply. */
    enum Harness {
        VLMEVALKIT("VLMEvalKit: ImageMCQDataset.build_prompt, OpenAIWrapper (image first as JPEG quality 75, detail low; "
                + "temperature 0, max_tokens 2048)") {
            @Override String prompt(Question q) {
                StringBuilder p = new StringBuilder();
                if (q.hint() != null && !q.hint().isBlank()) p.append("Hint: ").append(q.hint()).append('\n');
                p.append("Question: ").append(q.text()).append('\n');
                if (q.isMultipleChoice()) {
                    p.append("Options:\n");
                    q.options().forEach((k, v) -> p.append(k).append(". ").append(v).append('\n'));
                    p.append("Please select the correct answer from the options above. \n");
                }
                return p.toString();
            }

            @Override byte[] image(Picture p) { return jpeg(p); }

            @Override String mime() { return "image/jpeg"; }

            @Override ObjectNode body(String model, Question q, boolean stream) {
                ObjectNode b = Json.MAPPER.createObjectNode().put("model", model);
                ArrayNode content = b.putArray("messages").addObject().put("role", "user").putArray("content");
                for (Picture p : q.images()) {
                    content.addObject().put("type", "image_url").putObject("image_url").put("url", dataUrl(this, p)).put("detail", "low");
                }
                content.addObject().put("type", "text").put("text", prompt(q));
                b.put("temperature", 0);
                b.put("max_tokens", 2048);
                if (stream) b.put("stream", true);
                return b;
            }

            /** {@code resp_struct['choices'][0]['message']['content'].strip()}: anything but a string is its failure. */
            @Override String read(JsonNode reply) {
                JsonNode c = reply.at("/choices/0/message/content");
                return c.isTextual() ? c.asText().strip() : null;
            }
        },
        LMMS_EVAL("lmms-eval: mmbench_doc_to_text with its post_prompt, OpenAICompatible through the OpenAI SDK (text first, "
                + "image as PNG; max_tokens 1024, temperature 0)") {
            @Override String prompt(Question q) {
                StringBuilder o = new StringBuilder("There are several options:\n");
                q.options().forEach((k, v) -> o.append(k).append(". ").append(v).append('\n'));
                String options = o.toString().replaceAll("\n+$", "");
                String query = q.hint() != null && !q.hint().isBlank() ? q.hint() + " " + q.text() + " " + options : q.text() + " " + options;
                return query + "\n" + "\nAnswer with the option's letter from the given choices directly.";
            }

            @Override byte[] image(Picture p) { return png(p); }

            @Override String mime() { return "image/png"; }

            @Override ObjectNode body(String model, Question q, boolean stream) {
                ObjectNode b = Json.MAPPER.createObjectNode().put("model", model);
                ArrayNode content = b.putArray("messages").addObject().put("role", "user").putArray("content");
                content.addObject().put("type", "text").put("text", prompt(q));
                for (Picture p : q.images()) content.addObject().put("type", "image_url").putObject("image_url").put("url", dataUrl(this, p));
                b.put("max_tokens", 1024);
                b.put("temperature", 0);
                return b;
            }

            /** {@code _normalize_openai_message_content}: null becomes "" (then graded as nothing). */
            @Override String read(JsonNode reply) {
                JsonNode c = reply.at("/choices/0/message/content");
                return c.isTextual() ? c.asText() : "";
            }
        };

        final String describe;

        Harness(String describe) { this.describe = describe; }

        abstract String prompt(Question q);

        abstract byte[] image(Picture p);

        abstract String mime();

        abstract ObjectNode body(String model, Question q, boolean stream);

        abstract String read(JsonNode reply);
    }

    private static final Map<String, byte[]> ENCODED = new ConcurrentHashMap<>();

    private static String dataUrl(Harness h, Picture p) {
        byte[] bytes = ENCODED.computeIfAbsent(h + "|" + System.identityHashCode(p), k -> h.image(p));
        return "data:" + h.mime() + ";base64," + Base64.getEncoder().encodeToString(bytes);
    }

    /** PIL's {@code convert("RGB")}: the colour channels as they are, alpha dropped (not composited). */
    private static BufferedImage rgb(BufferedImage src) {
        BufferedImage out = new BufferedImage(src.getWidth(), src.getHeight(), BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < src.getHeight(); y++) for (int x = 0; x < src.getWidth(); x++) out.setRGB(x, y, src.getRGB(x, y) & 0xFFFFFF);
        return out;
    }

    /**
     * VLMEvalKit's {@code encode_image_to_base64}: RGB, a side under 100 px scaled up to 100, saved as JPEG at PIL's
     * default quality (75).
     */
    static byte[] jpeg(Picture p) {
        BufferedImage img = rgb(p.image());
        int min = Math.min(img.getWidth(), img.getHeight());
        if (min < 100) {
            double f = 100.0 / min;
            BufferedImage up = new BufferedImage((int) Math.round(img.getWidth() * f), (int) Math.round(img.getHeight() * f), BufferedImage.TYPE_INT_RGB);
            var g = up.createGraphics();
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BICUBIC);
            g.drawImage(img, 0, 0, up.getWidth(), up.getHeight(), null);
            g.dispose();
            img = up;
        }
        try {
            ImageWriter w = ImageIO.getImageWritersByFormatName("jpeg").next();
            ImageWriteParam param = w.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(0.75f);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
                w.setOutput(out);
                w.write(null, new IIOImage(img, null, null), param);
            }
            w.dispose();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** lmms-eval's {@code doc["image"].convert("RGB")} saved as PNG (well under its 20 MB limit, so not resized). */
    static byte[] png(Picture p) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            ImageIO.write(rgb(p.image()), "png", bytes);
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ asking

    /** One reply: its status, its JSON (or the streamed chunks' content) and the content as the harness read it. */
    record Reply(int status, JsonNode json, String read, String raw) { }

    private static Reply ask(Harness h, String model, Question q) throws Exception {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions")).timeout(Duration.ofMinutes(5))
                .header("Content-Type", "application/json").header("Authorization", "Bearer none")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(h.body(model, q, false)))).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) return new Reply(r.statusCode(), null, null, r.body());
        JsonNode o = Json.MAPPER.readTree(r.body());
        return new Reply(200, o, h.read(o), r.body());
    }

    /** VLMEvalKit with {@code stream=True}: {@code _collect_streaming_content}, the deltas' content joined and stripped. */
    private static String streamed(String model, Question q) throws Exception {
        HttpResponse<java.util.stream.Stream<String>> r = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                .timeout(Duration.ofMinutes(5)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(Harness.VLMEVALKIT.body(model, q, true)))).build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(r.statusCode()).isEqualTo(200);
        StringBuilder parts = new StringBuilder();
        for (String line : (Iterable<String>) r.body()::iterator) {
            line = line.strip();
            if (!line.startsWith("data:")) continue;
            String data = line.substring(5).strip();
            if (data.equals("[DONE]")) break;
            JsonNode chunk;
            try {
                chunk = Json.MAPPER.readTree(data);
            } catch (IOException e) {
                continue;
            }
            JsonNode delta = chunk.path("choices").path(0).path("delta");
            if (delta.isObject() && delta.path("content").isTextual()) parts.append(delta.path("content").asText());
        }
        return parts.toString().strip();
    }

    /** What the replies of one harness came to. */
    static final class Tally {
        final AtomicInteger requests = new AtomicInteger(), text = new AtomicInteger(), none = new AtomicInteger(), graded = new AtomicInteger(),
                letters = new AtomicInteger(), chose = new AtomicInteger();
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        final Map<String, JsonNode> gam = new ConcurrentHashMap<>();

        void check(Harness h, String method, Row row, Reply r) {
            requests.incrementAndGet();
            String where = h + " " + method + " " + row.id();
            if (r.status() != 200) {
                failures.add(where + ": HTTP " + r.status() + " " + r.raw());
                return;
            }
            if (r.read() == null || r.read().isBlank()) {
                failures.add(where + ": no text content: " + r.raw());
                return;
            }
            text.incrementAndGet();
            JsonNode g = r.json().path("gam");
            if (method.equals("gam")) gam.put(row.id(), g);
            if (!r.json().at("/choices/0/finish_reason").asText().equals("stop")) failures.add(where + ": finish_reason " + r.json().at("/choices/0/finish_reason"));
            if (!row.q().isMultipleChoice()) return;
            VlmEvalKitMatcher.Match m = VlmEvalKitMatcher.infer(r.read(), row.q().options(), VlmEvalKitMatcher.Rules.latest());
            if (g.path("answer").isNull()) {
                none.incrementAndGet();
                if (r.read().startsWith(NO_ANSWER_START) && "Z".equals(m.letter())) graded.incrementAndGet();
                else failures.add(where + ": no answer, but the content '" + r.read() + "' reads as " + m.letter());
            } else if (!g.path("option").isNull()) {
                chose.incrementAndGet();
                if (g.path("option").asText().equals(m.letter())) letters.incrementAndGet();
                else failures.add(where + ": chose " + g.path("option").asText() + " but VLMEvalKit reads '" + r.read() + "' as " + m.letter());
            }
        }
    }

    @Test void everyMethodGetsTextOnEveryBundledQuestionAndGamAnswersAsGamEvalDoes() throws Exception {
        List<Row> all = bundled();
        assertThat(all).hasSizeGreaterThanOrEqualTo(60 + 20 + 3 + 2);
        // the short mode: every method on a colour question of the demo and on two real MMBench rows (the code options
        // of row 1, the hint of row 318); gam also on a label, a chart, a Chinese and a CCBench question, compared with gam eval
        Set<String> everyMethodOn = Set.of("demo-2", "MMBench_EN-1", "MMBench_EN-318");
        Set<String> gamAlsoOn = Set.of("demo-0", "demo-5", "MMBench_CN-" + first(all, "MMBench_CN"), "CCBench-" + first(all, "CCBench"));
        List<Row> askedOfAll = Suite.full() ? all : all.stream().filter(r -> everyMethodOn.contains(r.id())).toList();
        List<Row> askedOfGam = Suite.full() ? all : all.stream().filter(r -> everyMethodOn.contains(r.id()) || gamAlsoOn.contains(r.id())).toList();
        List<String> methods = MethodRegistry.listed();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (Harness h : Harness.values()) {
                Tally t = new Tally();
                List<Future<?>> jobs = new ArrayList<>();
                for (String m : methods) {
                    for (Row row : m.equals("gam") ? askedOfGam : askedOfAll) {
                        jobs.add(pool.submit(() -> {
                            t.check(h, m, row, ask(h, m, row.q()));
                            return null;
                        }));
                    }
                }
                for (Future<?> j : jobs) j.get();
                assertThat(t.failures).as(h.name()).isEmpty();

                // gam through gam serve against gam eval on a file of the same questions with the images this harness sent
                Map<String, JsonNode> evaluated = gamEval(h, askedOfGam);
                int compared = 0, same = 0;
                List<String> differ = new ArrayList<>();
                for (Row row : askedOfGam) {
                    // lmms-eval writes the hint into the question's line without a label: there it is not the file's question
                    if (h == Harness.LMMS_EVAL && row.q().hint() != null && !row.q().hint().isBlank()) continue;
                    compared++;
                    JsonNode served = t.gam.get(row.id()), e = evaluated.get(row.id());
                    String s = served.path("option").asText(null) + "/" + served.path("answer").asText(null);
                    String v = e == null ? "missing" : e.path("option").asText(null) + "/" + e.path("answer").asText(null);
                    if (s.equals(v)) same++;
                    else differ.add(row.id() + ": serve " + s + ", eval " + v);
                }
                assertThat(differ).as(h.name() + ": gam through gam serve and gam eval").isEmpty();
                int qs = askedOfAll.size();
                TABLE.put(h.describe, new String[]{qs + " of every method" + (askedOfGam.size() > qs ? ", " + askedOfGam.size() + " of gam" : ""),
                        Integer.toString(methods.size()), t.requests.toString(), t.text + "/" + t.requests, t.graded + "/" + t.none,
                        t.letters + "/" + t.chose, same + "/" + compared + (compared < askedOfGam.size() ? " (" + (askedOfGam.size() - compared)
                        + " with a hint written into the question's text left out)" : "")});

                if (h == Harness.VLMEVALKIT) {
                    // the same questions streamed, read as its _collect_streaming_content reads them
                    int streamedSame = 0;
                    for (Row row : askedOfGam) {
                        String plain = ask(h, "gam", row.q()).read();
                        String s = streamed("gam", row.q());
                        assertThat(s).as(row.id()).isEqualTo(plain);
                        streamedSame++;
                    }
                    TABLE.put("VLMEvalKit as above with `stream=True` (`_collect_streaming_content`), `gam`", new String[]{
                            Integer.toString(askedOfGam.size()), "1", Integer.toString(askedOfGam.size()), streamedSame + "/" + askedOfGam.size()
                            + " (the same text as unstreamed)", "–", "–", "–"});
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test void theCookbooksImageQuestionWithASystemPersonaIsAnsweredByEveryMethod() throws Exception {
        // the OpenAI cookbook's image question (examples/gpt4o/introduction_to_gpt4o.ipynb): a system persona, then the
        // question's text and a base64 PNG, temperature 0
        String image = "data:image/png;base64," + Base64.getEncoder().encodeToString(Files.readAllBytes(Path.of("examples/red-triangle.png")));
        int answered = 0;
        List<String> methods = MethodRegistry.listed();
        for (String m : methods) {
            ObjectNode b = Json.MAPPER.createObjectNode().put("model", m);
            ArrayNode messages = b.putArray("messages");
            messages.addObject().put("role", "system").put("content", "You are a helpful assistant that responds in Markdown. Help me with my math homework!");
            ArrayNode content = messages.addObject().put("role", "user").putArray("content");
            content.addObject().put("type", "text").put("text", "What colour is the triangle?");
            content.addObject().put("type", "image_url").putObject("image_url").put("url", image);
            b.put("temperature", 0.0);
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(Json.write(b))).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(m + ": " + r.body()).isEqualTo(200);
            String said = Json.MAPPER.readTree(r.body()).at("/choices/0/message/content").asText();
            assertThat(said.toLowerCase(java.util.Locale.ROOT)).as(m).contains("red");
            answered++;
        }
        TABLE.put("OpenAI cookbook (introduction_to_gpt4o): system persona, the bare question, a PNG; the README's red triangle",
                new String[]{"1 (open)", Integer.toString(methods.size()), Integer.toString(methods.size()), answered + "/" + methods.size()
                        + ", every one \"red\"", "–", "–", "–"});
    }

    private static String first(List<Row> rows, String set) {
        return rows.stream().filter(r -> r.set().equals(set)).findFirst().orElseThrow().index();
    }

    /** {@code gam eval --methods gam --backend local} on a TSV of {@code rows} whose images are the bytes {@code h} sent. */
    private static Map<String, JsonNode> gamEval(Harness h, List<Row> rows) throws IOException {
        Path tsv = dir.resolve(h.name().toLowerCase(java.util.Locale.ROOT) + "-questions.tsv");
        StringBuilder s = new StringBuilder("index\timage\tquestion\thint\tA\tB\tC\tD\tE\tanswer\tcategory\n");
        for (Row row : rows) {
            List<String> cells = new ArrayList<>(List.of(row.id(), Base64.getEncoder().encodeToString(h.image(row.q().images().get(0))),
                    row.q().text(), row.q().hint() == null ? "" : row.q().hint()));
            for (String k : List.of("A", "B", "C", "D", "E")) cells.add(row.q().options().getOrDefault(k, ""));
            cells.add(row.answer() == null ? "" : row.answer());
            cells.add(row.category() == null ? "" : row.category());
            s.append(String.join("\t", cells.stream().map(ServeHarnessTest::cell).toList())).append('\n');
        }
        Files.writeString(tsv, s.toString(), StandardCharsets.UTF_8);
        Path out = dir.resolve(h.name().toLowerCase(java.util.Locale.ROOT) + "-eval");
        StringWriter log = new StringWriter();
        int code = Main.run(new PrintWriter(log), new PrintWriter(log), "eval", "--data", tsv.toString(), "--methods", "gam", "--backend", "local",
                "--out", out.toString());
        assertThat(code).as(log.toString()).isZero();
        Map<String, JsonNode> byId = new LinkedHashMap<>();
        for (String line : Files.readAllLines(out.resolve("results.jsonl"))) {
            JsonNode r = Json.MAPPER.readTree(line);
            if (r.path("rotation").asInt() == 0) byId.put(r.path("questionId").asText(), r);
        }
        return byId;
    }

    /** A TSV cell, quoted as pandas writes one that holds a tab, a line break or a quote. */
    private static String cell(String v) {
        if (v.indexOf('\t') < 0 && v.indexOf('\n') < 0 && v.indexOf('\r') < 0 && v.indexOf('"') < 0) return v;
        return "\"" + v.replace("\"", "\"\"") + "\"";
    }
}
