package dev.gamagent.bench.sim;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator's reply bytes for fixed requests, byte for byte as committed in {@code src/test/resources/sim-replies/}:
 * the golden record's simulator runs read these replies (their log-probs rounded to 6 places, the top-k lists, the
 * {@code bytes} arrays, the field order), so a change in how a reply is written shows here before it moves a figure.
 * {@code -Dsim.replies.write=true} rewrites the fixtures (then the diff is the change to review).
 */
class SimulatorReplyBytesTest {
    private static final long CREATED = 1_700_000_000L;
    private static final String QUESTION = "What colour is the triangle?\\nA. red\\nB. green\\nC. blue\\nD. yellow\\n"
            + "Reply in this format:\\nANSWER: <option letter>\\nCONFIDENCE: <0..1>";

    /** Name → request body; each an input the golden runs send one like (options, schema, n, top-k, a cut reply). */
    private static Map<String, String> cases() {
        Map<String, String> c = new LinkedHashMap<>();
        String user = "{\"role\": \"user\", \"content\": \"" + QUESTION + "\"}";
        c.put("options-top5", "{\"model\": \"m\", \"max_tokens\": 64, \"logprobs\": true, \"top_logprobs\": 5, \"messages\": [" + user + "]}");
        c.put("options-no-logprobs", "{\"max_tokens\": 64, \"seed\": 3, \"messages\": [" + user + "]}");
        c.put("n3-top2-seed7", "{\"max_tokens\": 64, \"n\": 3, \"seed\": 7, \"logprobs\": true, \"top_logprobs\": 2, \"messages\": [" + user + "]}");
        c.put("logprobs-top0", "{\"max_tokens\": 64, \"logprobs\": true, \"messages\": [" + user + "]}");
        c.put("cut-at-5-tokens", "{\"max_tokens\": 5, \"logprobs\": true, \"top_logprobs\": 3, \"messages\": [" + user + "]}");
        c.put("open-question-top20", "{\"max_tokens\": 40, \"logprobs\": true, \"top_logprobs\": 20, \"messages\": [{\"role\": \"system\", "
                + "\"content\": \"Answer in one word.\"}, {\"role\": \"user\", \"content\": \"How many shapes are there?\"}]}");
        c.put("json-schema", "{\"max_tokens\": 80, \"logprobs\": true, \"top_logprobs\": 4, \"response_format\": {\"type\": \"json_schema\", "
                + "\"json_schema\": {\"name\": \"answer\", \"schema\": {\"type\": \"object\", \"properties\": {\"answer\": {\"type\": \"string\"}, "
                + "\"confidence\": {\"type\": \"number\"}, \"reason\": {\"type\": \"string\"}, \"region\": {\"type\": \"array\", \"items\": "
                + "{\"type\": \"number\"}}, \"claims\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}, \"kind\": {\"enum\": [\"x\", \"y\"]}, "
                + "\"count\": {\"type\": \"integer\"}, \"sure\": {\"type\": \"boolean\"}}}}}, \"messages\": [" + user + "]}");
        return c;
    }

    /** The reply the simulator sends for {@code body}, as its handler builds it (id, model and creation time fixed). */
    private static byte[] reply(String body) throws IOException {
        SimulatorSettings settings = SimulatorSettings.fixed(Duration.ZERO, 1);
        SimulatedRequest r;
        try (InputStream in = new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))) {
            r = SimulatedRequest.parse(in);
        }
        List<SimulatedReply.Choice> choices = new ArrayList<>();
        for (int i = 0; i < r.n(); i++) choices.add(SimulatedReply.generate(r, settings, i));
        return SimulatedReply.body("chatcmpl-sim-1", r.model() == null ? settings.model() : r.model(), CREATED, r, choices,
                r.promptTokens(settings.imageTokens()));
    }

    @Test void theRepliesAreTheCommittedBytes() throws IOException {
        Path dir = Path.of("gam-bench/src/test/resources/sim-replies");
        boolean write = Boolean.getBoolean("sim.replies.write");
        for (Map.Entry<String, String> c : cases().entrySet()) {
            byte[] now = reply(c.getValue());
            Path fixture = dir.resolve(c.getKey() + ".json");
            if (write) Files.write(fixture, now);
            assertThat(new String(now, StandardCharsets.UTF_8)).as(c.getKey())
                    .isEqualTo(Files.readString(fixture, StandardCharsets.UTF_8));
        }
    }
}
