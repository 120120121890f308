package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendFactory;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.server.ServeWebPageBrowserTest.Browser;
import dev.gamagent.testing.DevToolsSession;
import dev.gamagent.testing.TriangleImage;
import dev.gamagent.testing.http.DisagreeingExperts;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code gam serve} in front of a real OpenAI-wire upstream (not a scripted backend): the gam method answers
 * plainly and streamed with its real progress events, /v1/models lists the DREAM variants, and the web page
 * turns the gam events into readable progress lines in headless Chromium.
 */
class ServeGamOverOpenAiWireTest {
    private static final int WIDTH = TriangleImage.WIDTH;
    private static final String QUESTION = "What color is the triangle?\nA. red\nB. blue\nC. green";

    @TempDir Path dir;
    private OpenAiWireServer upstream;
    private Backend backend;
    private GamServer server;
    private String base;
    private final HttpClient client = HttpClient.newHttpClient();

    @BeforeEach void start() throws Exception {
        upstream = new OpenAiWireServer();
        upstream.respondWith(new DisagreeingExperts(WIDTH));
        backend = BackendFactory.create(new BackendSpec("openai", List.of(upstream.baseUrl()), null, null, Duration.ofSeconds(30),
                0, 8, null, null, null), Config.defaults());
        server = new GamServer(ServerFixture.settings(dir), backend, Config.defaults(), MethodCatalog.REGISTRY, List.of());
        base = "http://127.0.0.1:" + server.start();
    }

    @AfterEach void stop() throws Exception {
        server.close();
        backend.close();
        upstream.close();
    }

    private HttpResponse<String> post(JsonNode body) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test void theModelListNamesTheDreamVariantsOfTheDebateMethodsAndUnknownModelsListThemToo() throws Exception {
        JsonNode m = Json.MAPPER.readTree(client.send(HttpRequest.newBuilder(URI.create(base + "/v1/models")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        List<String> ids = new ArrayList<>();
        m.path("data").forEach(n -> ids.add(n.path("id").asText()));
        assertThat(ids).contains("single", "gam", "dream+gam", "dream+debate", "dream+self-debate", "dream+mad", "dream+dmad",
                "dream+chateval", "dream+debunc").doesNotContain("dream+single", "dream+sc");
        HttpResponse<String> r = post(ServerFixture.request("gam-please", QUESTION, false, new Picture("t", TriangleImage.draw()).dataUrl()));
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).contains("dream+gam");
    }

    @Test void gamAnswersThroughTheUpstreamPlainlyAndStreamedWithItsRoundAgentCritiqueAndWeightEvents() throws Exception {
        String image = new Picture("t", TriangleImage.draw()).dataUrl();
        HttpResponse<String> plain = post(ServerFixture.request("gam", QUESTION, false, image));
        assertThat(plain.statusCode()).as(plain.body()).isEqualTo(200);
        JsonNode o = Json.MAPPER.readTree(plain.body());
        assertThat(o.at("/choices/0/message/content").asText()).isEqualTo("A. red");
        assertThat(o.path("model").asText()).isEqualTo("gam");
        assertThat(o.at("/gam/rounds").asInt()).isEqualTo(1);
        assertThat(o.at("/gam/termination").asText()).isEqualTo("uncertainty");
        assertThat(o.at("/usage/prompt_tokens").asLong()).isEqualTo(321L * upstream.chatRequests().size());
        JsonNode trace = Json.MAPPER.readTree(client.send(HttpRequest.newBuilder(URI.create(base + "/v1/traces/" + o.at("/gam/trace_id").asText()))
                .build(), HttpResponse.BodyHandlers.ofString()).body());
        assertThat(trace.path("rounds").get(1).path("critiques").size()).isGreaterThan(0);

        HttpResponse<java.util.stream.Stream<String>> streamed = client.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        Json.write(ServerFixture.request("gam", QUESTION, true, image)))).build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(streamed.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        List<String> data = streamed.body().filter(l -> l.startsWith("data: ")).map(l -> l.substring(6)).toList();
        assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
        List<String> types = new ArrayList<>();
        StringBuilder content = new StringBuilder();
        JsonNode last = null;
        for (String d : data.subList(0, data.size() - 1)) {
            JsonNode c = Json.MAPPER.readTree(d);
            assertThat(c.has("error")).as(d).isFalse();
            if (c.has("gam_event")) types.add(c.at("/gam_event/type").asText());
            content.append(c.at("/choices/0/delta/content").asText(""));
            last = c;
        }
        assertThat(types).contains("round_started", "agent_answered", "critique", "weights");
        assertThat(types.stream().filter("weights"::equals).count()).as("weights after round 0 and round 1").isEqualTo(2);
        assertThat(content.toString()).isEqualTo("A. red");
        assertThat(last.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(last.at("/gam/option").asText()).isEqualTo("A");

        List<JsonNode> dreamEvents = new ArrayList<>();
        client.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(ServerFixture.request("dream+gam", QUESTION, true, image)))).build(),
                HttpResponse.BodyHandlers.ofLines()).body().filter(l -> l.startsWith("data: {")).forEach(l -> {
                    try {
                        JsonNode c = Json.MAPPER.readTree(l.substring(6));
                        if (c.has("gam_event")) dreamEvents.add(c.get("gam_event"));
                    } catch (java.io.IOException e) {
                        throw new AssertionError("a stream chunk is not JSON: " + l, e);
                    }
                });
        assertThat(dreamEvents.get(0).path("type").asText()).isEqualTo("round_started");
        assertThat(dreamEvents.get(0).path("data")).isEqualTo(Json.MAPPER.createObjectNode().put("k", -1).put("phase", "probe"));
        // the probes are the experts' round-0 requests (issue 26): the scene expert is the confident one, the others answer
        // otherwise, so DREAM's tree gives MixRes (the confident answer agrees with itself; two experts are confident nowhere)
        assertThat(dreamEvents).anyMatch(e -> e.path("type").asText().equals("dream_branch") && e.at("/data/branch").asText().equals("MixRes"));
        assertThat(dreamEvents).anyMatch(e -> e.path("type").asText().equals("weights"));
        upstream.assertNoViolations();
    }

    @Test void theUsageRepliedPassesOnTheCachedPromptTokensTheUpstreamReportedPlainAndStreamedAndNoneWhenItReportedNone() throws Exception {
        String image = new Picture("t", TriangleImage.draw()).dataUrl();
        JsonNode none = Json.MAPPER.readTree(post(ServerFixture.request("debate", QUESTION, false, image)).body());
        assertThat(none.path("usage").has("prompt_tokens_details")).as(none.toString()).isFalse();

        DisagreeingExperts voices = new DisagreeingExperts(WIDTH);
        upstream.respondWith(r -> ((dev.gamagent.testing.http.Reply.Answer) voices.apply(r)).withPromptTokens(700).withCache(512, 0));
        int before = upstream.chatRequests().size();
        JsonNode o = Json.MAPPER.readTree(post(ServerFixture.request("debate", QUESTION, false, image)).body());
        int calls = upstream.chatRequests().size() - before;
        assertThat(o.at("/usage/prompt_tokens").asLong()).isEqualTo(700L * calls);
        assertThat(o.at("/usage/prompt_tokens_details/cached_tokens").asLong()).as(o.toString()).isEqualTo(512L * calls);

        before = upstream.chatRequests().size();
        List<String> data = client.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(ServerFixture.request("debate", QUESTION, true, image)))).build(),
                HttpResponse.BodyHandlers.ofLines()).body().filter(l -> l.startsWith("data: {")).toList();
        calls = upstream.chatRequests().size() - before;
        JsonNode last = Json.MAPPER.readTree(data.get(data.size() - 1).substring(6));
        assertThat(last.at("/usage/prompt_tokens_details/cached_tokens").asLong()).as("the last chunk's usage").isEqualTo(512L * calls);
    }

    @Test void theServeCommandAnswersWithGamThroughTheUpstreamGivenOnTheCommandLine() throws Exception {
        java.io.PrintStream old = System.out;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
        var code = new java.util.concurrent.CompletableFuture<Integer>();
        Thread serve = new Thread(() -> code.complete(dev.gamagent.cli.Main.run("serve", "--port", "0", "--backend", "openai",
                "--base-url", upstream.baseUrl(), "--retries", "0", "--trace-db", dir.resolve("cli-traces.db").toString())), "gam-serve-cli");
        try {
            serve.start();
            java.util.regex.Matcher m = null;
            for (int i = 0; i < 300 && (m == null || !m.find()); i++) {
                Thread.sleep(100);
                m = java.util.regex.Pattern.compile("gam serve: (http://127\\.0\\.0\\.1:\\d+)/").matcher(out.toString(java.nio.charset.StandardCharsets.UTF_8));
            }
            assertThat(m.find(0)).as("the serve command printed its address: " + out).isTrue();
            String cliBase = m.group(1);
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(cliBase + "/v1/chat/completions"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(Json.write(
                            ServerFixture.request("gam", QUESTION, false, new Picture("t", TriangleImage.draw()).dataUrl())))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(Json.MAPPER.readTree(r.body()).at("/choices/0/message/content").asText()).isEqualTo("A. red");
            assertThat(Json.MAPPER.readTree(r.body()).at("/gam/backend").asText()).startsWith("openai:");
        } finally {
            serve.interrupt();
            System.setOut(old);
        }
        assertThat(code.get(30, java.util.concurrent.TimeUnit.SECONDS)).as("an interrupted serve stops cleanly").isZero();
        upstream.assertNoViolations();
    }

    @Test void theWebPageShowsGamsRoundsAgentsCritiquesAndWeightsAsProgressLines() throws Exception {
        Path chrome = ServeWebPageBrowserTest.chromium();
        if (chrome == null) fail("headless Chromium is needed for the web-page test: install it (apt-get install chromium) or set CHROMIUM");
        Path png = dir.resolve("triangle.png");
        ImageIO.write(TriangleImage.draw(), "png", png.toFile());
        Browser browser = ServeWebPageBrowserTest.startChromium(chrome);
        try (DevToolsSession page = ServeWebPageBrowserTest.openPage(browser)) {
            page.call("Page.enable", null);
            page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", base + "/"));
            ServeWebPageBrowserTest.waitFor("the method list", () -> ServeWebPageBrowserTest.intOf(page,
                    "document.querySelectorAll('#method option[value=\"dream+gam\"]').length") == 1);
            int root = page.call("DOM.getDocument", null).path("root").path("nodeId").asInt();
            int input = page.call("DOM.querySelector", Json.MAPPER.createObjectNode().put("nodeId", root).put("selector", "#image"))
                    .path("nodeId").asInt();
            var files = Json.MAPPER.createObjectNode().put("nodeId", input);
            files.putArray("files").add(png.toString());
            page.call("DOM.setFileInputFiles", files);
            page.eval("document.querySelector('#question').value = 'What color is the triangle?';"
                    + "document.querySelector('#options').value = 'A. red\\nB. blue\\nC. green';"
                    + "document.querySelector('#method').value = 'gam';"
                    + "document.querySelector('#ask-button').click(); true");
            ServeWebPageBrowserTest.waitFor("the answer", () -> !ServeWebPageBrowserTest.page(page, "document.querySelector('#answer').hidden")
                    && ServeWebPageBrowserTest.intOf(page, "document.querySelectorAll('#trace-body .gv-round').length") == 2);
            assertThat(page.eval("document.querySelector('#answer').textContent").asText()).startsWith("A. red");
            List<String> lines = new ArrayList<>();
            Json.MAPPER.readTree(page.eval("JSON.stringify([...document.querySelectorAll('#progress li')].map((li) => li.textContent))").asText())
                    .forEach(n -> lines.add(n.asText()));
            assertThat(lines).contains("Round 0 started", "Round 1 started");
            assertThat(lines).anyMatch(l -> l.matches("round 0 · ocr → B\\. blue · uncertainty 0\\.\\d{3}"));
            assertThat(lines).anyMatch(l -> l.matches("round 1 · (fact|completeness|logic) on (scene|ocr|relational) claim 1: inaccurate"));
            assertThat(lines).anyMatch(l -> l.matches("round 0 · weights scene 0\\.\\d{3}, ocr 0\\.\\d{3}, relational 0\\.\\d{3} · U_sys 0\\.\\d{3} · conflict 0\\.\\d{3}"));
            assertThat(lines).noneMatch(l -> l.contains("{"));
            assertThat(ServeWebPageBrowserTest.intOf(page, "document.querySelectorAll('#progress li.event-round_started').length")).isEqualTo(2);
            // DREAM's and the baselines' events, in the shapes DreamMethod and Panel send them
            assertThat(page.eval("describeEvent({type: 'round_started', data: {k: -1, phase: 'probe'}})").asText()).isEqualTo("DREAM probe round started");
            assertThat(page.eval("describeEvent({type: 'dream_branch', data: {branch: 'PerAgent', threshold: 0.1234}})").asText())
                    .isEqualTo("DREAM branch PerAgent (threshold 0.123)");
            assertThat(page.eval("describeEvent({type: 'agent_started', data: {k: 1, id: 'agent-2'}})").asText()).isEqualTo("round 1 · agent-2 is answering…");
            assertThat(page.eval("describeEvent({type: 'agent_answered', data: {k: 0, id: 'ocr', role: 'ocr', error: 'Timeout: 30 s'}})").asText())
                    .isEqualTo("round 0 · ocr failed: Timeout: 30 s");
            assertThat(page.eval("describeEvent({type: 'something_new', data: {x: 1}})").asText()).isEqualTo("something_new · {\"x\":1}");
            ServeWebPageBrowserTest.screenshot(page, "serve-gam-progress.png");
        } finally {
            ServeWebPageBrowserTest.stop(browser);
        }
    }
}
