package dev.gamagent.server;

import dev.gamagent.image.DecodeBudget;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.testing.Fuzz;
import dev.gamagent.testing.FuzzRun;
import dev.gamagent.testing.Pngs;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzing of the server's request parser: chat-completion bodies built from the request's field names
 * with good, broken, huge and hostile image URLs, cut and spliced. Whatever arrives, the parser answers
 * with an {@link ApiError} (a 4xx the client can read) or a question; nothing else may escape (it would
 * be a 500), and no remote URL is fetched unless its host is allowed.
 */
class RequestFuzzTest {
    private static final ServerSettings SETTINGS = new ServerSettings("127.0.0.1", 0, null, 0, 0, 0, List.of("images.example"), null, 0);
    private static final ImageLoader LOADER = new ImageLoader(SETTINGS.maxImagePixels(), "server.max_image_megapixels")
            .withBudget(new DecodeBudget(200_000_000)).keepingAtMost(1_000_000);
    private static final String TINY = new dev.gamagent.image.Picture("t", ServerFixture.image(6, 4)).dataUrl();
    private static final List<String> STRINGS;

    static {
        List<String> s = new ArrayList<>(Fuzz.WIRE_STRINGS);
        s.addAll(List.of(TINY, TINY.substring(0, TINY.length() - 9), "data:image/png;base64," + Base64.getEncoder().encodeToString(Pngs.claiming(9000, 9000)),
                "data:image/png;base64," + Base64.getEncoder().encodeToString(Pngs.claiming(3, 3)), "http://images.example/a.png",
                "http://evil.example/a.png", "ftp://x/y", "What colour?\nA. red\nB. blue", "A. only one", "developer", "input_image", "input_text"));
        STRINGS = List.copyOf(s);
    }

    static byte[] body(Random r) {
        String text;
        if (r.nextInt(3) == 0) {
            text = Json.write(Fuzz.json(r, 5, Fuzz.WIRE_FIELDS, STRINGS));
        } else {
            var o = Json.MAPPER.createObjectNode();
            o.put("model", r.nextBoolean() ? "single" : STRINGS.get(r.nextInt(STRINGS.size())));
            if (r.nextBoolean()) o.put("stream", r.nextBoolean());
            var msgs = o.putArray("messages");
            int n = r.nextInt(4);
            for (int i = 0; i < n; i++) {
                var m = msgs.addObject();
                m.put("role", List.of("user", "system", "assistant", "developer", "tool").get(r.nextInt(5)));
                if (r.nextInt(4) == 0) {
                    m.set("content", Fuzz.json(r, 2, Fuzz.WIRE_FIELDS, STRINGS));
                    continue;
                }
                var parts = m.putArray("content");
                int k = r.nextInt(4);
                for (int j = 0; j < k; j++) {
                    var p = parts.addObject();
                    if (r.nextBoolean()) {
                        p.put("type", "text").put("text", Fuzz.reply(r));
                    } else {
                        p.put("type", r.nextInt(5) == 0 ? "input_image" : "image_url");
                        String url = STRINGS.get(r.nextInt(STRINGS.size()));
                        if (r.nextBoolean()) p.putObject("image_url").put("url", url);
                        else p.put("image_url", url);
                    }
                }
            }
            text = Json.write(o);
        }
        if (r.nextInt(4) == 0) text = Fuzz.mutate(text, r, List.of("{", "}", "[", "]", "\"", TINY, "null"));
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return r.nextInt(8) == 0 ? Fuzz.withBadUtf8(b, r) : b;
    }

    @Test void anyBodyBecomesAQuestionOrAClientError() {
        FuzzRun.check("server request parser", RequestFuzzTest::body, RequestFuzzTest::parse);
    }

    private static void parse(byte[] body) {
        try {
            CompletionRequest.parse(body, SETTINGS, url -> {
                if (!SETTINGS.imageHostAllowed(url.getHost())) throw new AssertionError("fetched a URL from a host not allowed: " + url);
                throw ApiError.badRequest("image_fetch_failed", "no network in the fuzz test");
            }, LOADER);
        } catch (ApiError clientError) {
            assertThat(clientError.status()).isBetween(400, 499);
        }
    }
}
