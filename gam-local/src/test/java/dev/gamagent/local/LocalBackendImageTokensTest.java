package dev.gamagent.local;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 39: the built-in model's usage counts an image as the processor of the family in {@code image.tokens} does. */
class LocalBackendImageTokensTest {
    static ChatRequest ask(int w, int h) {
        return ChatRequest.of(List.of(ChatMessage.user("What is shown?", List.of(new Picture("t", new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB))))));
    }

    @Test void promptTokensFollowTheConfiguredFamilyAndItsPixelBudget() {
        // the JVM's engines (RealEngines), each backend with the rule its configuration names; the flag's test below
        // makes its backend from the configuration alone
        try (LocalBackend qwen = LocalBackend.create(Config.defaults(), RealEngines.backend().perception());
             LocalBackend gemma = LocalBackend.create(Config.defaults().with("image.tokens", "gemma3"), RealEngines.backend().perception());
             LocalBackend capped = LocalBackend.create(Config.defaults().with("image.tokens", "qwen:max_pixels=1003520"),
                     RealEngines.backend().perception())) {
            check(qwen, gemma, capped);
        }
    }

    private static void check(LocalBackend qwen, LocalBackend gemma, LocalBackend capped) {
        long text = gemma.promptTokens(ask(448, 336)) - 256; // Gemma 3: 256 tokens an image, whatever its size
        assertThat(gemma.promptTokens(ask(1536, 1152))).isEqualTo(text + 256);
        assertThat(qwen.promptTokens(ask(448, 336))).isEqualTo(text + 192); // 16·12 patches of 28 px
        assertThat(qwen.promptTokens(ask(1536, 1152))).isEqualTo(text + 2255); // 55·41
        assertThat(capped.promptTokens(ask(1536, 1152))).isEqualTo(text + 1230); // past the budget: 41·30
        // the rule travels with the backend's own-cache copies an evaluation makes per method
        assertThat(((LocalBackend) gemma.withOwnCaches()).promptTokens(ask(1536, 1152))).isEqualTo(text + 256);
    }

    /** {@code --image-tokens} with {@code --backend local} sets {@code image.tokens} for the built-in model. */
    @Test void theImageTokensFlagReachesTheBuiltInModel() {
        var spec = new dev.gamagent.backend.BackendSpec("local", List.of(), null, null, null, 0, 8, null, null, "gemma3");
        try (var b = (LocalBackend) dev.gamagent.backend.BackendFactory.create(spec, Config.defaults());
             LocalBackend qwen = RealEngines.backend()) {
            assertThat(b.promptTokens(ask(1536, 1152))).isEqualTo(qwen.promptTokens(ask(1536, 1152)) - 2255 + 256);
        }
    }

    @Test void anUnknownFamilyIsRefusedWhenTheBackendIsMade() {
        assertThatThrownBy(() -> LocalBackend.create(Config.defaults().with("image.tokens", "qwen2-vl")))
                .hasMessageContaining("unknown image-token family 'qwen2-vl'");
    }
}
