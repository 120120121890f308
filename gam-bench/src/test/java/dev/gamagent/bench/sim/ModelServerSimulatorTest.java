package dev.gamagent.bench.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.BackendFactory;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.internal.Sampling;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.config.Config;
import dev.gamagent.gam.ClaimParser;
import dev.gamagent.gam.ParsedResponse;
import dev.gamagent.image.internal.ImageTokens;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The benchmark simulator speaks OpenAI's wire format to our real HTTP backend and keeps its slot contract. */
class ModelServerSimulatorTest {
    private static final Map<String, String> OPTIONS = Map.of("A", "red", "B", "green", "C", "blue");

    private static Backend client(ModelServerSimulator sim, int retries) {
        return BackendFactory.create(new BackendSpec("openai", List.of(sim.baseUrl()), null, null, Duration.ofSeconds(30), retries, 64,
                null, null, null), Config.defaults().with("backend.retry_base_ms", "1").with("backend.retry_max_ms", "5"), k -> null);
    }

    private static ChatRequest question(List<Picture> images, int top) {
        String text = "What colour is the triangle?\nA. red\nB. green\nC. blue\nReply in this format:\nANSWER: <option letter>\nCONFIDENCE: <0..1>";
        return Sampling.greedy(64, top).request(List.of(ChatMessage.user(text, images)));
    }

    private static Picture picture(int w, int h) {
        return new Picture("sim-test", new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB));
    }

    @Test void answersWithAnOptionTopKLogprobsAndQwenStyleImageTokens() throws Exception {
        try (ModelServerSimulator sim = new ModelServerSimulator(SimulatorSettings.fixed(Duration.ZERO, 4));
             Backend b = client(sim, 0)) {
            ChatResult r = b.chat(question(List.of(picture(448, 336)), 5));
            ParsedResponse parsed = ClaimParser.parseAnswer(r.text(), OPTIONS);
            assertThat(parsed.answer()).isIn("A", "B", "C");
            List<TokenLogprob> tokens = r.first().logprobs();
            assertThat(tokens).isNotEmpty();
            assertThat(tokens).allSatisfy(t -> {
                assertThat(t.top()).hasSize(5);
                assertThat(t.top().get(0).token()).isEqualTo(t.token());
                assertThat(t.logprob()).isLessThan(0);
            });
            TokenLogprob letter = tokens.stream().filter(t -> t.token().strip().equals(parsed.answer())).findFirst().orElseThrow();
            assertThat(letter.top().subList(1, 3)).extracting(a -> a.token().strip()).isSubsetOf("A", "B", "C");
            assertThat(r.usage().estimated()).isFalse();
            assertThat(r.usage().completionTokens()).isEqualTo(tokens.size());
            assertThat(r.usage().promptTokens()).isGreaterThan(ImageTokens.qwen(448, 336, 3136, 12_845_056));
            assertThat(r.model()).isEqualTo(SimulatorSettings.DEFAULT_MODEL); // discovered from /v1/models
        }
    }

    /** Issue 39: --image-tokens picks the family whose processor counts the image, its pixel budget included. */
    @Test void imageTokensAreCountedAsTheChosenFamilysProcessorCountsThem() throws Exception {
        List<ImageTokens.Rule> rules = List.of(ImageTokens.rule("qwen"), ImageTokens.rule("gemma3"), ImageTokens.rule("qwen:max_pixels=1003520"));
        List<int[]> sizes = List.of(new int[]{448, 336}, new int[]{1536, 1152});
        long[][] seen = new long[rules.size()][sizes.size()];
        for (int i = 0; i < rules.size(); i++) {
            try (ModelServerSimulator sim = new ModelServerSimulator(SimulatorSettings.fixed(Duration.ZERO, 4).withImageTokens(rules.get(i)));
                 Backend b = client(sim, 0)) {
                for (int j = 0; j < sizes.size(); j++) {
                    seen[i][j] = b.chat(question(List.of(picture(sizes.get(j)[0], sizes.get(j)[1])), 5)).usage().promptTokens();
                }
            }
        }
        long text = seen[1][0] - 256; // Gemma 3: every image is 256 tokens, so the rest is the text
        assertThat(seen[1][1]).isEqualTo(seen[1][0]);
        assertThat(seen[0][0]).isEqualTo(text + 192); // Qwen2.5-VL, 448×336: 16·12
        assertThat(seen[0][1]).isEqualTo(text + 2255); // 1536×1152: 55·41
        assertThat(seen[2][1]).isEqualTo(text + 1230); // past a 1,003,520-pixel budget: 41·30, no more
    }

    @Test void theSameRequestGetsTheSameReplyAndNChoicesComeBack() throws Exception {
        try (ModelServerSimulator sim = new ModelServerSimulator(SimulatorSettings.fixed(Duration.ZERO, 4));
             Backend b = client(sim, 0)) {
            ChatRequest q = question(List.of(), 3);
            assertThat(b.chat(q).text()).isEqualTo(b.chat(q).text());
            ChatResult three = b.chat(q.withSampling(0.7, 64, 3, 11L));
            assertThat(three.choices()).hasSize(3);
        }
    }

    @Test void aJsonSchemaGetsAnInstanceOfIt() throws Exception {
        JsonNode schema = Json.MAPPER.readTree("""
                {"type":"object","properties":{"answer":{"type":"string"},
                  "claims":{"type":"array","items":{"type":"object","properties":{"text":{"type":"string"},
                    "confidence":{"type":"number"},"region":{"type":"array","items":{"type":"number"}}}}},
                  "verdict":{"type":"string","enum":["accurate","inaccurate"]},"confidence":{"type":"number"}}}""");
        try (ModelServerSimulator sim = new ModelServerSimulator(SimulatorSettings.fixed(Duration.ZERO, 4));
             Backend b = client(sim, 0)) {
            ChatResult r = b.chat(question(List.of(), 5).withSampling(0, 256, 1, null).withSchema("expert", schema));
            JsonNode reply = Json.MAPPER.readTree(r.text());
            assertThat(reply.path("answer").asText()).isIn("A", "B", "C");
            assertThat(reply.path("claims")).hasSize(2);
            JsonNode region = reply.path("claims").get(0).path("region");
            assertThat(region.get(0).asDouble()).isLessThan(region.get(2).asDouble());
            assertThat(reply.path("verdict").asText()).isIn("accurate", "inaccurate");
            assertThat(reply.path("confidence").asDouble()).isBetween(0.5, 1.0);
            ParsedResponse parsed = ClaimParser.parseAnswer(r.text(), OPTIONS);
            assertThat(parsed.claims()).hasSize(2);
        }
    }

    @Test void aShortMaxTokensCutsTheReplyAndSaysLength() throws Exception {
        try (ModelServerSimulator sim = new ModelServerSimulator(SimulatorSettings.fixed(Duration.ZERO, 4));
             Backend b = client(sim, 0)) {
            ChatResult r = b.chat(question(List.of(), 2).withSampling(0, 3, 1, null));
            assertThat(r.first().logprobs()).hasSize(3);
            assertThat(r.first().finishReason()).isEqualTo("length");
            assertThat(r.text()).startsWith("ANSWER:");
        }
    }

    @Test void tooManyTopLogprobsIsRefusedAsVllmDoesAndTheClientLearnsTheCap() throws Exception {
        try (ModelServerSimulator sim = new ModelServerSimulator(SimulatorSettings.fixed(Duration.ZERO, 4));
             Backend b = client(sim, 0)) {
            ChatResult r = b.chat(question(List.of(), 20).withLogprobs(true, 20));
            assertThat(r.first().logprobs().get(0).top()).hasSizeLessThanOrEqualTo(20);
            HttpResponse<String> raw = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/chat/completions"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"max_tokens\":5,\"logprobs\":true,\"top_logprobs\":21,"
                            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(raw.statusCode()).isEqualTo(400);
            assertThat(raw.body()).contains("greater than max allowed: 20");
            HttpResponse<String> bad = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/chat/completions"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"max_tokens\":5}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.body()).contains("'messages' is missing");
        }
    }

    @Test void pastItsSlotsItRefusesWith429WhenToldTo() throws Exception {
        // the first request holds the only slot for a minute, so the second always finds it busy
        SimulatorSettings s = SimulatorSettings.fixed(Duration.ofSeconds(60), 1).withOverflow(SimulatorSettings.Overflow.REJECT);
        try (ModelServerSimulator sim = new ModelServerSimulator(s); Backend first = client(sim, 0); Backend b = client(sim, 0)) {
            CompletableFuture<ChatResult> holder = CompletableFuture.supplyAsync(() -> first.chat(question(List.of(), 0)));
            while (((Number) sim.stats().get("busy")).intValue() < 1) Thread.sleep(10);
            assertThatThrownBy(() -> b.chat(question(List.of(), 0)))
                    .isInstanceOf(BackendException.RateLimited.class)
                    .satisfies(e -> assertThat(((BackendException.RateLimited) e).retryAfter()).isEqualTo(Duration.ofSeconds(60)));
            assertThat(sim.stats().get("rejected")).isEqualTo(1L);
            holder.cancel(true);
        }
    }

    @Test void pastItsSlotsItQueuesAndNeverServesMoreThanItsSlots() throws Exception {
        SimulatorSettings s = SimulatorSettings.fixed(Duration.ofMillis(200), 2);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try (ModelServerSimulator sim = new ModelServerSimulator(s); Backend b = client(sim, 0)) {
            List<Future<ChatResult>> fs = new ArrayList<>();
            for (int i = 0; i < 6; i++) fs.add(pool.submit(() -> b.chat(question(List.of(), 2))));
            for (Future<ChatResult> f : fs) assertThat(f.get().text()).startsWith("ANSWER:");
            Map<String, Object> st = sim.stats();
            assertThat(st.get("completed")).isEqualTo(6L);
            assertThat(st.get("rejected")).isEqualTo(0L);
            assertThat((Integer) st.get("peak_busy")).isBetween(1, 2);
            // every request held a slot for its whole latency (timers never fire early)
            assertThat((Double) st.get("busy_slot_seconds")).isGreaterThanOrEqualTo(6 * 0.2);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test void tokenProportionalLatencyGrowsWithTheRequest() {
        SimulatorSettings s = SimulatorSettings.fixed(Duration.ofMillis(100), 1).withTokenLatency(0.5, 20);
        assertThat(s.latencyNanos(1000, 50)).isEqualTo(Duration.ofMillis(100 + 500 + 1000).toNanos());
    }

    @Test void imageSizesAreReadFromPngAndJpegHeaders() throws Exception {
        BufferedImage img = new BufferedImage(333, 222, BufferedImage.TYPE_INT_RGB);
        for (String format : List.of("png", "jpeg")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(img, format, out);
            String url = "data:image/" + format + ";base64," + Base64.getEncoder().encodeToString(out.toByteArray());
            assertThat(SimulatedRequest.imageSize(url)).as(format).containsExactly(333, 222);
        }
        assertThat(SimulatedRequest.imageSize("https://example.org/a.png")).isNull();
    }

    @Test void theCeilingGeneratorCountsAnsweredRequests() throws Exception {
        SimulatorCeiling.Result r = SimulatorCeiling.measure(2, Duration.ofMillis(300));
        assertThat(r.requests()).isPositive();
        assertThat(r.failures()).isZero();
    }
}
