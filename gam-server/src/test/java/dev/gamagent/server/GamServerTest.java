package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.gamagent.api.Method;
import dev.gamagent.api.MethodFailure;
import dev.gamagent.backend.OpenAiReplyContract;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.config.Config;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GamServerTest {
    @TempDir Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach void closeAll() throws Exception {
        for (AutoCloseable c : open) c.close();
    }

    private ServerFixture start(ServerSettings s, ScriptedBackend backend, Map<String, Supplier<Method>> extra, List<String> secrets) throws Exception {
        ServerFixture f = new ServerFixture(s, backend, extra, secrets);
        open.add(f);
        return f;
    }

    private ServerFixture start(ScriptedBackend backend) throws Exception {
        return start(ServerFixture.settings(dir), backend, Map.of("scripted-debate", ScriptedDebateMethod::new), List.of());
    }

    @Test void aPlainRequestGetsAnOpenAiCompletionWithGamDetailsAndAStoredTrace() throws Exception {
        ScriptedBackend backend = ScriptedBackend.text(r -> "B");
        ServerFixture f = start(backend);
        HttpResponse<String> r = f.post("/v1/chat/completions",
                ServerFixture.request("single", "What colour is the left half?\nA. blue\nB. red\nC. green", false, ServerFixture.dataUrl()));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode o = ServerFixture.json(r);
        assertThat(o.path("object").asText()).isEqualTo("chat.completion");
        assertThat(o.path("model").asText()).isEqualTo("single");
        assertThat(o.at("/choices/0/message/role").asText()).isEqualTo("assistant");
        assertThat(o.at("/choices/0/message/content").asText()).isEqualTo("B. red");
        assertThat(o.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(o.at("/usage/total_tokens").asLong()).isPositive();
        JsonNode gam = o.path("gam");
        assertThat(gam.path("option").asText()).isEqualTo("B");
        assertThat(gam.path("termination").asText()).isEqualTo("single");
        assertThat(gam.has("confidence") && gam.has("uncertainty") && gam.has("rounds") && gam.has("tokens")).isTrue();
        // The backend saw the options the server parsed from "A. blue" lines, and the image.
        String prompt = Json.write(backend.requests.get(0));
        assertThat(prompt).contains("A. blue").contains("C. green");
        String traceId = gam.path("trace_id").asText();
        assertThat(traceId).startsWith("tr-");

        JsonNode trace = ServerFixture.json(f.get("/v1/traces/" + traceId));
        assertThat(trace.path("method").asText()).isEqualTo("single");
        assertThat(trace.at("/question/options/B").asText()).isEqualTo("red");
        assertThat(trace.at("/final/option").asText()).isEqualTo("B");
        JsonNode list = ServerFixture.json(f.get("/v1/traces"));
        assertThat(list.at("/data/0/id").asText()).isEqualTo(traceId);
        assertThat(list.at("/data/0/question").asText()).isEqualTo("What colour is the left half?");
        assertThat(list.at("/data/0/time").asText()).isNotBlank();
        HttpResponse<byte[]> img = f.client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(f.base + "/v1/traces/" + traceId + "/image")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        Picture stored = ImageLoader.fromBytes("stored", img.body());
        assertThat(stored.width()).isEqualTo(32);
        assertThat(f.get("/v1/traces/tr-nope").statusCode()).isEqualTo(404);
    }

    @Test void streamingSendsOpenAiChunksWithProgressEventsAndDone() throws Exception {
        ServerFixture f = start(ScriptedBackend.text(r -> "A"));
        HttpResponse<String> r = f.post("/v1/chat/completions",
                ServerFixture.request("scripted-debate", "Which colour?\nA. red\nB. blue", true, ServerFixture.dataUrl()));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        List<String> data = new ArrayList<>();
        for (String block : r.body().split("\n\n")) {
            if (block.isBlank()) continue;
            assertThat(block).startsWith("data: ");
            data.add(block.substring(6));
        }
        assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
        List<JsonNode> chunks = new ArrayList<>();
        for (String d : data.subList(0, data.size() - 1)) chunks.add(Json.MAPPER.readTree(d));
        assertThat(chunks).allSatisfy(c -> assertThat(c.path("object").asText()).isEqualTo("chat.completion.chunk"));
        assertThat(chunks.get(0).at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        List<JsonNode> events = chunks.stream().filter(c -> c.has("gam_event")).toList();
        assertThat(events).extracting(c -> c.at("/gam_event/type").asText()).contains("round_started", "agent_answered", "weights");
        assertThat(events).allSatisfy(c -> assertThat(c.at("/choices/0/delta/content").asText()).isEmpty());
        assertThat(events.stream().filter(c -> c.at("/gam_event/type").asText().equals("weights")).findFirst().orElseThrow()
                .at("/gam_event/data/weights/scene").asDouble()).isEqualTo(0.5);
        StringBuilder content = new StringBuilder();
        for (JsonNode c : chunks) content.append(c.at("/choices/0/delta/content").asText(""));
        assertThat(content.toString()).isEqualTo("A. red");
        JsonNode last = chunks.get(chunks.size() - 1);
        assertThat(last.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(last.at("/gam/rounds").asInt()).isEqualTo(2);
        assertThat(last.at("/gam/termination").asText()).isEqualTo("consensus");
        JsonNode trace = ServerFixture.json(f.get("/v1/traces/" + last.at("/gam/trace_id").asText()));
        assertThat(trace.path("rounds")).hasSize(3);
    }

    /** The shared reply contract: the one reader reads the answer the server meant, whole or streamed alike. */
    @Test void theOneReaderReadsTheSameAnswerWholeOrStreamed() throws Exception {
        ServerFixture f = start(ScriptedBackend.text(r -> "B"));
        for (String method : List.of("single", "scripted-debate")) {
            String question = "What colour is the left half?\nA. blue\nB. red\nC. green";
            HttpResponse<String> whole = f.post("/v1/chat/completions", ServerFixture.request(method, question, false, ServerFixture.dataUrl()));
            OpenAiReplyContract.Read read = OpenAiReplyContract.parse(whole.body());
            JsonNode gam = ServerFixture.json(whole).path("gam");
            assertThat(read.choices()).extracting(dev.gamagent.backend.Choice::text, dev.gamagent.backend.Choice::finishReason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("B. red", "stop"));
            assertThat(read.choices().get(0).logprobs()).isEmpty();
            assertThat(read.model()).isEqualTo(method);
            assertThat(read.promptTokens()).isEqualTo(gam.at("/tokens/prompt").asLong());
            assertThat(read.completionTokens()).isEqualTo(gam.at("/tokens/completion").asLong());
            OpenAiReplyContract.Read streamed = OpenAiReplyContract.parseStream(f.post("/v1/chat/completions",
                    ServerFixture.request(method, question, true, ServerFixture.dataUrl())).body());
            assertThat(streamed).as(method).isEqualTo(read);
        }
    }

    @Test void modelsListsEveryMethodFromTheCatalog() throws Exception {
        ServerFixture f = start(ScriptedBackend.text(r -> "A"));
        JsonNode m = ServerFixture.json(f.get("/v1/models"));
        assertThat(m.path("object").asText()).isEqualTo("list");
        List<String> ids = new ArrayList<>();
        m.path("data").forEach(n -> ids.add(n.path("id").asText()));
        assertThat(ids).contains("single", "scripted-debate");
    }

    @Test void badRequestsGetJsonErrorsThatSayWhatIsWrong() throws Exception {
        ServerFixture f = start(ScriptedBackend.text(r -> "A"));
        HttpResponse<String> bad = f.post("/v1/chat/completions", "{\"model\": \"single\", \"messages\": [");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(ServerFixture.json(bad).at("/error/code").asText()).isEqualTo("invalid_json");

        HttpResponse<String> unknown = f.post("/v1/chat/completions", ServerFixture.request("gpt-9", "q?", false, ServerFixture.dataUrl()));
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(ServerFixture.json(unknown).at("/error/message").asText()).contains("gpt-9").contains("single");

        HttpResponse<String> noImage = f.post("/v1/chat/completions", ServerFixture.request("single", "what is this?", false));
        assertThat(noImage.statusCode()).isEqualTo(400);
        assertThat(ServerFixture.json(noImage).at("/error/code").asText()).isEqualTo("missing_image");

        HttpResponse<String> remote = f.post("/v1/chat/completions",
                ServerFixture.request("single", "q?", false, "https://evil.example.com/cat.png"));
        assertThat(remote.statusCode()).isEqualTo(403);
        assertThat(ServerFixture.json(remote).at("/error/message").asText()).contains("evil.example.com").contains("server.allowed_image_hosts");

        HttpResponse<String> file = f.post("/v1/chat/completions", ServerFixture.request("single", "q?", false, "file:///etc/passwd"));
        assertThat(file.statusCode()).isEqualTo(400);
        assertThat(ServerFixture.json(file).at("/error/code").asText()).isEqualTo("image_url_scheme");

        HttpResponse<String> corrupt = f.post("/v1/chat/completions", ServerFixture.request("single", "q?", false, "data:image/png;base64,iVBORw0KGgo="));
        assertThat(corrupt.statusCode()).isEqualTo(400);
        assertThat(ServerFixture.json(corrupt).at("/error/message").asText()).contains("messages[0].content[1]");

        assertThat(f.get("/v1/chat/completions").statusCode()).isEqualTo(405);
        assertThat(f.get("/v1/nothing").statusCode()).isEqualTo(404);
    }

    @Test void remoteImagesAreFetchedOnlyFromAllowedHosts() throws Exception {
        HttpServer images = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        byte[] png = new Picture("remote", ServerFixture.image(20, 10)).png();
        images.createContext("/img.png", ex -> {
            ex.sendResponseHeaders(200, png.length);
            ex.getResponseBody().write(png);
            ex.close();
        });
        images.start();
        open.add(() -> images.stop(0));
        ServerSettings s = new ServerSettings("127.0.0.1", 0, null, 0, 0, 0, List.of("127.0.0.1"), dir.resolve("t.db"), 0);
        ServerFixture f = start(s, ScriptedBackend.text(r -> "fine"), Map.of(), List.of());
        String url = "http://127.0.0.1:" + images.getAddress().getPort() + "/img.png";
        HttpResponse<String> r = f.post("/v1/chat/completions", ServerFixture.request("single", "describe", false, url));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(ServerFixture.json(r).at("/choices/0/message/content").asText()).isEqualTo("fine");
        HttpResponse<String> other = f.post("/v1/chat/completions", ServerFixture.request("single", "describe", false,
                "http://localhost:" + images.getAddress().getPort() + "/img.png"));
        assertThat(other.statusCode()).isEqualTo(403);
    }

    @Test void oversizedBodiesAndImagesAreRefusedNamingTheLimit() throws Exception {
        ServerSettings s = new ServerSettings("127.0.0.1", 0, null, 2000, 100, 0, List.of(), dir.resolve("t.db"), 0);
        ServerFixture f = start(s, ScriptedBackend.text(r -> "A"), Map.of(), List.of());
        HttpResponse<String> big = f.post("/v1/chat/completions", ServerFixture.request("single", "x".repeat(5000), false, ServerFixture.dataUrl()));
        assertThat(big.statusCode()).isEqualTo(413);
        assertThat(ServerFixture.json(big).at("/error/message").asText()).contains("limit").contains("server.max_body_mb");
        HttpResponse<String> px = f.post("/v1/chat/completions", ServerFixture.request("single", "q?", false, ServerFixture.dataUrl()));
        assertThat(px.statusCode()).isEqualTo(413);
        assertThat(ServerFixture.json(px).at("/error/code").asText()).isEqualTo("image_too_large");
        assertThat(ServerFixture.json(px).at("/error/message").asText()).contains("32x24").contains("server.max_image_megapixels");
    }

    @Test void questionsBeyondTheInFlightLimitWithoutALineGet429WithRetryAfter() throws Exception {
        CountDownLatch entered = new CountDownLatch(1), release = new CountDownLatch(1);
        ScriptedBackend slow = ScriptedBackend.text(r -> {
            entered.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "A";
        });
        ServerSettings s = ServerSettings.fromConfig(Config.defaults().withOverrides(Map.of("server.max_in_flight", "1", "server.max_queued", "0")),
                "127.0.0.1", 0, null, dir.resolve("t.db"));
        ServerFixture f = start(s, slow, Map.of(), List.of());
        String body = Json.write(ServerFixture.request("single", "q?", false, ServerFixture.dataUrl()));
        CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> {
            try {
                return f.post("/v1/chat/completions", body);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        HttpResponse<String> second = f.post("/v1/chat/completions", body);
        assertThat(second.statusCode()).isEqualTo(429);
        assertThat(second.headers().firstValue("Retry-After")).hasValue("5");
        assertThat(ServerFixture.json(second).at("/error/message").asText()).contains("server.max_in_flight");
        release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(f.post("/v1/chat/completions", body).statusCode()).isEqualTo(200);
    }

    @Test void aServerWithAKeyRequiresTheBearerToken() throws Exception {
        ServerSettings s = new ServerSettings("127.0.0.1", 0, "s3cret-key-123", 0, 0, 0, List.of(), dir.resolve("t.db"), 0);
        ServerFixture f = start(s, ScriptedBackend.text(r -> "A"), Map.of(), List.of());
        HttpResponse<String> anon = f.post("/v1/chat/completions", ServerFixture.request("single", "q?", false, ServerFixture.dataUrl()));
        assertThat(anon.statusCode()).isEqualTo(401);
        assertThat(f.get("/v1/models").statusCode()).isEqualTo(401);
        assertThat(f.get("/metrics").statusCode()).isEqualTo(401);
        assertThat(f.get("/healthz").statusCode()).isEqualTo(200);
        f.bearer = "wrong";
        assertThat(f.get("/v1/models").statusCode()).isEqualTo(401);
        f.bearer = "s3cret-key-123";
        assertThat(f.get("/v1/models").statusCode()).isEqualTo(200);
        assertThat(f.post("/v1/chat/completions", ServerFixture.request("single", "q?", false, ServerFixture.dataUrl())).statusCode()).isEqualTo(200);
    }

    @Test void bindingBeyondLoopbackWithoutAKeyIsRefused() {
        ServerSettings open0 = new ServerSettings("0.0.0.0", 0, null, 0, 0, 0, List.of(), dir.resolve("t.db"), 0);
        assertThatThrownBy(() -> start(open0, ScriptedBackend.text(r -> "A"), Map.of(), List.of()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("0.0.0.0").hasMessageContaining("--server-key-env");
    }

    @Test void upstreamKeysNeverAppearInResponsesOrTraces() throws Exception {
        String upstream = "sk-upstream-SECRET-0042";
        Supplier<Method> leaky = () -> new Method() {
            @Override public String name() { return "leaky"; }

            @Override public dev.gamagent.api.Answer run(dev.gamagent.api.Question q, dev.gamagent.api.RunContext ctx) {
                throw new MethodFailure("upstream refused key " + upstream, null, null);
            }
        };
        ServerFixture f = start(ServerFixture.settings(dir), ScriptedBackend.text(r -> "echo " + upstream),
                Map.of("leaky", leaky), List.of(upstream));
        HttpResponse<String> r = f.post("/v1/chat/completions", ServerFixture.request("leaky", "q?", false, ServerFixture.dataUrl()));
        assertThat(r.statusCode()).isEqualTo(502);
        assertThat(r.body()).doesNotContain(upstream).contains("[redacted]");
        HttpResponse<String> echoed = f.post("/v1/chat/completions", ServerFixture.request("single", "q?", false, ServerFixture.dataUrl()));
        assertThat(echoed.body()).doesNotContain(upstream);
        String traceId = ServerFixture.json(echoed).at("/gam/trace_id").asText();
        assertThat(f.get("/v1/traces/" + traceId).body()).doesNotContain(upstream).contains("[redacted]");
    }

    @Test void metricsCountQuestionsAndLatencyPerMethodAndBackend() throws Exception {
        ServerFixture f = start(ScriptedBackend.text(r -> "A"));
        f.post("/v1/chat/completions", ServerFixture.request("single", "q?", false, ServerFixture.dataUrl()));
        f.post("/v1/chat/completions", ServerFixture.request("single", "q?", false, ServerFixture.dataUrl()));
        f.post("/v1/chat/completions", ServerFixture.request("single", "q?", false));
        String m = f.get("/metrics").body();
        assertThat(m).contains("gam_questions_total{method=\"single\",backend=\"scripted\",status=\"200\"} 2");
        assertThat(m).contains("gam_questions_total{method=\"unknown\",backend=\"scripted\",status=\"400\"} 1");
        assertThat(m).contains("# TYPE gam_question_seconds histogram");
        assertThat(m).contains("gam_question_seconds_bucket{method=\"single\",backend=\"scripted\",le=\"+Inf\"} 2");
        assertThat(m).contains("gam_question_seconds_count{method=\"single\",backend=\"scripted\"} 2");
        assertThat(m).contains("gam_http_requests_total{route=\"/v1/chat/completions\",status=\"200\"} 2");
    }

    @Test void theWebPageAndItsScriptAreServedFromTheJar() throws Exception {
        ServerFixture f = start(ScriptedBackend.text(r -> "A"));
        HttpResponse<String> page = f.get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(page.body()).contains("/ui/app.js").doesNotContain("https://");
        assertThat(f.get("/ui/app.js").body()).contains("GamViewer.render");
        assertThat(page.body()).contains("/ui/viewer.js", "/ui/echarts.js", "/ui/viewer.css");
        for (String file : List.of("/ui/viewer.js", "/ui/viewer.css", "/ui/echarts.js")) {
            assertThat(f.get(file).statusCode()).as(file).isEqualTo(200);
        }
        assertThat(f.get("/ui/echarts.js").body()).contains("echarts");
        assertThat(f.get("/ui/../defaults.json").statusCode()).isEqualTo(404);
    }

    @Test void tracesBeyondTheRetentionLimitAreDropped() throws Exception {
        try (TraceStore store = new TraceStore(dir.resolve("r.db"), 3)) {
            for (int i = 0; i < 5; i++) store.save("t" + i, "single", "q" + i, "{}", null);
            assertThat(store.count()).isEqualTo(3);
            assertThat(store.recent(10)).extracting(TraceStore.Summary::id).containsExactly("t4", "t3", "t2");
            assertThat(store.json("t0")).isEmpty();
        }
    }

    @Test void optionLinesBecomeQuestionOptions() {
        ObjectNode req = ServerFixture.request("single", "Which shape?\nOptions:\nA. circle\nB) triangle\nC. square", false, ServerFixture.dataUrl());
        CompletionRequest c = CompletionRequest.parse(Json.write(req).getBytes(), ServerFixture.settings(dir), u -> new byte[0]);
        assertThat(c.question().text()).isEqualTo("Which shape?");
        assertThat(c.question().options()).containsExactly(Map.entry("A", "circle"), Map.entry("B", "triangle"), Map.entry("C", "square"));
        ObjectNode open = ServerFixture.request("single", "Plan A. first step is key?", false, ServerFixture.dataUrl());
        assertThat(CompletionRequest.parse(Json.write(open).getBytes(), ServerFixture.settings(dir), u -> new byte[0]).question().options()).isEmpty();
    }
}
