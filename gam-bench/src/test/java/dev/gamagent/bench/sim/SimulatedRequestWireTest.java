package dev.gamagent.bench.sim;

import dev.gamagent.backend.openai.WireFormatException;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.WireRequestCases;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator reads a chat-completions body with the shared reader: on the bodies the receivers once disagreed on it
 * accepts and refuses what the reader does, and counts every image part's tokens, however its URL is given.
 */
class SimulatedRequestWireTest {
    private static SimulatedRequest parse(String body) throws IOException {
        return SimulatedRequest.parse(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test void theSimulatorAcceptsAndRefusesWhatTheSharedReaderDoes() throws IOException {
        String image = new Picture("p", new BufferedImage(333, 222, BufferedImage.TYPE_INT_RGB)).dataUrl();
        for (WireRequestCases.Case c : WireRequestCases.all(image)) {
            if (c.accepted()) {
                SimulatedRequest r = parse(c.body());
                assertThat(r.imageSizes()).as(c.name()).isNotEmpty().allSatisfy(s -> assertThat(s).containsExactly(333, 222));
                assertThat(r.maxTokens()).as(c.name()).isEqualTo(c.name().equals(WireRequestCases.BOTH_MAX_TOKENS) ? 64
                        : SimulatedRequest.DEFAULT_MAX_TOKENS);
                continue;
            }
            try {
                parse(c.body());
                throw new AssertionError(c.name() + ": accepted");
            } catch (WireFormatException e) {
                assertThat(e.getMessage()).as(c.name()).contains(c.refusal());
            }
        }
    }
}
