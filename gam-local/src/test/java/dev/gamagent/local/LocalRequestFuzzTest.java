package dev.gamagent.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.testing.Fuzz;
import dev.gamagent.testing.FuzzRun;
import dev.gamagent.testing.Pngs;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzing of {@code gam local-server}'s request reader: any JSON body becomes a chat request or an
 * IllegalArgumentException (a 400/413 naming the field); nothing else may escape.
 */
class LocalRequestFuzzTest {
    private static LocalChatServer server;
    private static List<String> strings;

    @BeforeAll static void start() throws Exception {
        server = new LocalChatServer(new LocalBackend(new LocalPerception(new LayoutOcr(), new BlobSceneAnalyzer(), 8)), LocalBackend.MODEL, 0, 1);
        List<String> s = new ArrayList<>(Fuzz.WIRE_STRINGS);
        s.add(LocalBackendTest.scene().dataUrl());
        s.add("data:image/png;base64," + Base64.getEncoder().encodeToString(Pngs.claiming(30_000, 30_000)));
        strings = List.copyOf(s);
    }

    @AfterAll static void stop() { server.close(); }

    private static JsonNode body(Random r) {
        JsonNode n = Fuzz.json(r, 5, Fuzz.WIRE_FIELDS, strings);
        if (r.nextBoolean() && n instanceof ObjectNode o) {
            var content = o.putArray("messages").addObject().put("role", r.nextBoolean() ? "user" : "robot").putArray("content");
            content.addObject().put("type", "text").put("text", Fuzz.reply(r));
            content.addObject().put("type", "image_url").putObject("image_url").put("url", strings.get(r.nextInt(strings.size())));
        }
        return n;
    }

    @Test void anyBodyBecomesARequestOrANamedRefusal() {
        FuzzRun.check("local-server request reader", LocalRequestFuzzTest::body, body -> {
            try {
                server.request(Json.write(body).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            } catch (IllegalArgumentException named) {
                assertThat(named.getMessage()).isNotBlank();
            }
        });
    }
}
