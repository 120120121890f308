package dev.gamagent.bench.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator's prefix cache on constructed cases, each against the computed count vLLM's automatic prefix caching gives
 * (docs/performance.md, "What the server computes: the prefix cache"): blocks of 16 tokens, the last prompt token always computed, only
 * full blocks cached, an image's content hash in the blocks it overlaps, blocks cached when their prefill ends, LRU
 * eviction of free blocks with a finished request's last block first.
 *
 * <p>A text part of {@code 4k − 1} characters is, with the newline the simulator adds, exactly {@code k} tokens; every prompt
 * starts with the template's 3 tokens.
 */
class SimulatorPrefixCacheTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** A text part of exactly {@code tokens} tokens, different for each {@code seed}. */
    private static ObjectNode text(int tokens, char seed) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; sb.length() < 4 * tokens - 1; i++) sb.append((char) (seed + i % 7));
        ObjectNode part = Json.MAPPER.createObjectNode().put("type", "text").put("text", sb.toString());
        return part;
    }

    private static ObjectNode image(Color colour) throws Exception {
        BufferedImage img = new BufferedImage(64, 64, BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = img.createGraphics();
        g.setColor(colour);
        g.fillRect(0, 0, 64, 64);
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "png", out);
        ObjectNode part = Json.MAPPER.createObjectNode().put("type", "image_url");
        part.putObject("image_url").put("url", "data:image/png;base64," + Base64.getEncoder().encodeToString(out.toByteArray()));
        return part;
    }

    /** One user message per argument, each a list of parts. */
    @SafeVarargs
    private static String body(List<ObjectNode>... messages) {
        ObjectNode b = Json.MAPPER.createObjectNode().put("model", "gam-sim").put("max_tokens", 4);
        ArrayNode ms = b.putArray("messages");
        for (List<ObjectNode> parts : messages) {
            ObjectNode m = ms.addObject().put("role", "user");
            ArrayNode content = m.putArray("content");
            parts.forEach(content::add);
        }
        return b.toString();
    }

    private static JsonNode post(ModelServerSimulator sim, String path, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sim.port() + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    /** The reply's usage: {prompt tokens, cached tokens}. */
    private static long[] send(ModelServerSimulator sim, String body) throws Exception {
        JsonNode usage = post(sim, "/v1/chat/completions", body).path("usage");
        return new long[]{usage.path("prompt_tokens").asLong(), usage.path("prompt_tokens_details").path("cached_tokens").asLong(-1)};
    }

    private static JsonNode stats(ModelServerSimulator sim) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sim.port() + "/sim/stats")).build(),
                HttpResponse.BodyHandlers.ofString());
        return Json.MAPPER.readTree(r.body());
    }

    private static ModelServerSimulator simulator(long cacheTokens, double msPerPromptToken, int slots) throws Exception {
        return new ModelServerSimulator(SimulatorSettings.fixed(Duration.ZERO, slots).withTokenLatency(msPerPromptToken, 0)
                .withPrefixCache(cacheTokens));
    }

    @Test void theSamePrefixTwiceComputesOnlyTheTailPastTheLastFullSharedBlock() throws Exception {
        try (ModelServerSimulator sim = simulator(100_000, 0, 4)) {
            List<ObjectNode> first = List.of(text(61, 'a'));                 // 3 + 61 = 64 tokens, 4 full blocks
            assertThat(send(sim, body(first))).containsExactly(64, 0);
            // the same conversation extended by a 20-token message: its 4 blocks are served, the 20 tokens computed
            assertThat(send(sim, body(first, List.of(text(20, 'k'))))).containsExactly(84, 64);
            // the same prompt again: its last token is always computed, so the last block (tokens 48..63) is computed again
            assertThat(send(sim, body(first))).containsExactly(64, 48);
            // a prompt that differs in its 20th token shares only block 0
            List<ObjectNode> changed = List.of(text(16, 'a'), text(45, 'q')); // tokens 0..17 as before, 18 on different
            assertThat(send(sim, body(changed))).containsExactly(64, 16);
            JsonNode st = stats(sim);
            assertThat(st.path("prompt_tokens").asLong()).isEqualTo(64 + 84 + 64 + 64);
            assertThat(st.path("cached_tokens").asLong()).isEqualTo(64 + 48 + 16);
            assertThat(st.path("computed_tokens").asLong()).isEqualTo(276 - 128);
            assertThat(st.path("computed_share").asDouble()).isEqualTo(148.0 / 276);
        }
    }

    @Test void aPartialLastBlockIsNeverCached() throws Exception {
        try (ModelServerSimulator sim = simulator(100_000, 0, 4)) {
            List<ObjectNode> p = List.of(text(67, 'a'));                     // 70 tokens: 4 full blocks and 6 tokens
            assertThat(send(sim, body(p))).containsExactly(70, 0);
            assertThat(stats(sim).path("prefix_cache").path("cached_blocks").asLong()).isEqualTo(4);
            assertThat(send(sim, body(p))).containsExactly(70, 64);          // the 6 tokens of the partial block computed again
            // 10 more tokens fill block 4 (tokens 64..79): computed, since the partial block was not kept
            assertThat(send(sim, body(p, List.of(text(10, 'z'))))).containsExactly(80, 64);
            assertThat(stats(sim).path("prefix_cache").path("cached_blocks").asLong()).isEqualTo(5);
        }
    }

    @Test void aDifferentImageBreaksTheChainFromItsBlockOn() throws Exception {
        try (ModelServerSimulator sim = simulator(100_000, 0, 4)) {
            long image = sim.settings().imageTokens().tokens(64, 64);
            // the image starts at token 16, the first token of block 1: block 0 is text only
            List<ObjectNode> red = List.of(text(13, 'a'), image(Color.RED), text(5, 'm'));
            List<ObjectNode> blue = List.of(text(13, 'a'), image(Color.BLUE), text(5, 'm'));
            long n = 16 + image + 5;
            assertThat(send(sim, body(red))).containsExactly(n, 0);
            assertThat(send(sim, body(blue))).containsExactly(n, 16);
            assertThat(send(sim, body(red))).containsExactly(n, (n - 1) / 16 * 16);
            // the image starts at token 10, inside block 0: a different image shares nothing
            List<ObjectNode> redEarly = List.of(text(7, 'b'), image(Color.RED), text(5, 'm'));
            List<ObjectNode> blueEarly = List.of(text(7, 'b'), image(Color.BLUE), text(5, 'm'));
            assertThat(send(sim, body(redEarly))).containsExactly(10 + image + 5, 0);
            assertThat(send(sim, body(blueEarly))).containsExactly(10 + image + 5, 0);
        }
    }

    @Test void concurrentIdenticalRequestsBothComputeAndAQueuedOneHits() throws Exception {
        String p = body(List.of(text(61, 'a')));                            // 64 tokens: 320 ms of prefill at 5 ms a token
        try (ModelServerSimulator sim = simulator(100_000, 5, 4)) {
            CompletableFuture<long[]> a = CompletableFuture.supplyAsync(() -> quietly(sim, p));
            CompletableFuture<long[]> b = CompletableFuture.supplyAsync(() -> quietly(sim, p));
            assertThat(a.get()).containsExactly(64, 0);
            assertThat(b.get()).containsExactly(64, 0);
            assertThat(send(sim, p)).containsExactly(64, 48);                // once computed, it is served
        }
        try (ModelServerSimulator sim = simulator(100_000, 5, 1)) {
            // one slot: the second waits, is looked up when it takes the slot, and finds the first's blocks
            CompletableFuture<long[]> a = CompletableFuture.supplyAsync(() -> quietly(sim, p));
            CompletableFuture<long[]> b = CompletableFuture.supplyAsync(() -> quietly(sim, p));
            List<Long> cached = new ArrayList<>(List.of(a.get()[1], b.get()[1]));
            assertThat(cached).containsExactlyInAnyOrder(0L, 48L);
        }
    }

    private static long[] quietly(ModelServerSimulator sim, String body) {
        try {
            return send(sim, body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test void atCapacityTheLeastRecentlyUsedFreeBlocksAreEvicted() throws Exception {
        List<ObjectNode> a = List.of(text(61, 'a')), b = List.of(text(61, 'h')), c = List.of(text(61, 'o')); // 4 blocks each
        try (ModelServerSimulator sim = simulator(64, 0, 4)) {              // room for 4 blocks
            send(sim, body(a));
            assertThat(send(sim, body(b))).containsExactly(64, 0);           // evicts all of a's blocks
            assertThat(send(sim, body(a))).containsExactly(64, 0);
            assertThat(stats(sim).path("prefix_cache").path("evicted_blocks").asLong()).isEqualTo(8);
        }
        try (ModelServerSimulator sim = simulator(128, 0, 4)) {             // room for 8 blocks
            send(sim, body(a));
            send(sim, body(b));
            assertThat(send(sim, body(a))).containsExactly(64, 48);          // a is now more recent than b
            assertThat(send(sim, body(c))).containsExactly(64, 0);           // evicts b's 4 blocks, the least recently used
            assertThat(send(sim, body(a))).containsExactly(64, 48);
            assertThat(send(sim, body(b))).containsExactly(64, 0);
        }
    }

    @Test void aFinishedRequestsLastBlockIsEvictedFirst() {
        PrefixCache cache = new PrefixCache(64, 16);                         // 4 blocks
        long[] a = {11, 12, 13, 14};
        cache.release(cache.admit(a, 65));
        cache.release(cache.admit(new long[]{21}, 17));                      // needs one block: evicts a's last, 14
        assertThat(cache.admit(a, 65).cachedTokens()).isEqualTo(48);        // 11, 12, 13 still served
    }

    @Test void statsResetAndTheCacheEmpties() throws Exception {
        try (ModelServerSimulator sim = simulator(100_000, 0, 4)) {
            String p = body(List.of(text(61, 'a')));
            send(sim, p);
            send(sim, p);
            assertThat(stats(sim).path("cached_tokens").asLong()).isEqualTo(48);
            JsonNode reset = post(sim, "/sim/stats/reset", "");
            assertThat(reset.path("prompt_tokens").asLong()).isZero();
            assertThat(reset.path("cached_tokens").asLong()).isZero();
            assertThat(send(sim, p)).containsExactly(64, 48);                // the cache keeps its blocks through a counter reset
            assertThat(post(sim, "/reset_prefix_cache", "").path("dropped_blocks").asLong()).isEqualTo(4);
            assertThat(send(sim, p)).containsExactly(64, 0);
            assertThat(sim.tokenSummary()).contains("2 requests, 128 prompt tokens, 48 cached, 80 computed (62.5%)");
        }
    }

    @Test void withoutACacheRepliesReportNoCachedTokensAndEveryTokenIsComputed() throws Exception {
        try (ModelServerSimulator sim = new ModelServerSimulator(SimulatorSettings.fixed(Duration.ZERO, 4))) {
            String p = body(List.of(text(61, 'a')));
            send(sim, p);
            JsonNode usage = post(sim, "/v1/chat/completions", p).path("usage");
            assertThat(usage.has("prompt_tokens_details")).isFalse();
            assertThat(stats(sim).path("computed_tokens").asLong()).isEqualTo(128);
        }
    }

    @Test void theTokenSequenceHasTheCountedLength() throws Exception {
        String b = body(List.of(text(5, 'a'), image(Color.GREEN)), List.of(Json.MAPPER.createObjectNode().put("type", "text").put("text", "odd")));
        SimulatedRequest r = SimulatedRequest.parse(new ByteArrayInputStream(b.getBytes(StandardCharsets.UTF_8)));
        SimulatorSettings s = SimulatorSettings.fixed(Duration.ZERO, 1);
        SimulatedRequest.Tokens t = r.tokens(s.imageTokens());
        assertThat((long) t.ids().length).isEqualTo(r.promptTokens(s.imageTokens()));
        assertThat(t.images()).singleElement().satisfies(i -> assertThat(i.offset()).isEqualTo(8));
    }
}
