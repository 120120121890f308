package dev.gamagent.backend;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.internal.RequestBody;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import dev.gamagent.backend.internal.Sampling;

/** Bodies with spliced image bytes are the same JSON every wire format would have written inline. */
class RequestBodyTest {
    @Test void splicedBodiesEqualTheInlineJsonForEveryWireFormat() throws Exception {
        Picture a = new Picture("a", new BufferedImage(12, 8, BufferedImage.TYPE_INT_RGB));
        Picture b = new Picture("b", new BufferedImage(5, 9, BufferedImage.TYPE_INT_RGB));
        ChatRequest r = Sampling.greedy(16, 3).request(List.of(ChatMessage.system("be brief"),
                ChatMessage.user("Which one? A. left\nB. right — “quoted” \\ text", List.of(a, b))));
        check(imgs -> OpenAiCompatibleBackend.body(r, "m", false, false, imgs), "/messages/1/content/0/image_url/url", a.dataUrl());
        check(imgs -> OllamaBackend.body(r, "m", imgs), "/messages/1/images/1", b.base64());
        check(imgs -> GeminiBackend.body(r, imgs), "/contents/0/parts/0/inlineData/data", a.base64());
        check(imgs -> AnthropicBackend.body(r, "m", imgs), "/messages/0/content/1/source/data", b.base64());
    }

    private static void check(java.util.function.Function<RequestBody, JsonNode> build, String pointer, String expected) throws Exception {
        RequestBody images = new RequestBody();
        JsonNode tree = build.apply(images);
        JsonNode sent = Json.MAPPER.readTree(images.bytes(tree));
        assertThat(sent.at(pointer).asText()).isEqualTo(expected);
        assertThat(Json.write(sent)).doesNotContain("gam-image-");
        assertThat(sent.toString().length()).isGreaterThan(tree.toString().length()); // the images were spliced in
    }
}
