package dev.gamagent.bench.sim;

import dev.gamagent.backend.openai.WireFormatException;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.WireRequestCases;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator reads a chat-completions body with the shared reader: on the bodies the receivers once disagreed on it
 * accepts and refuses what the reader does, and counts every image part's tokens, however its URL is given.
 */
class SimulatedRequestWireTest {
    private static SimulatedRequest parse(String body) throws java.io.IOException {
        return SimulatedRequest.parse(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test void theSimulatorAcceptsAndRefusesWhatTheSharedReaderDoes() throws Exception {
        String image = new Picture("p", new BufferedImage(333, 222, BufferedImage.TYPE_INT_RGB)).dataUrl();
        WireRequestCases.check(image, SimulatedRequestWireTest::parse, WireFormatException.class, (c, r) -> {
            assertThat(r.imageSizes()).as(c.name()).isNotEmpty().allSatisfy(s -> assertThat(s).containsExactly(333, 222));
            assertThat(r.maxTokens()).as(c.name()).isEqualTo(c.name().equals(WireRequestCases.BOTH_MAX_TOKENS) ? 64
                    : SimulatedRequest.DEFAULT_MAX_TOKENS);
        });
    }
}
