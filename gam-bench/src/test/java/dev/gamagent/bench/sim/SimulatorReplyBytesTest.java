package dev.gamagent.bench.sim;

import dev.gamagent.backend.Choice;
import dev.gamagent.backend.OpenAiReplyContract;
import dev.gamagent.backend.TokenLogprob;
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

    private static final SimulatorSettings SETTINGS = SimulatorSettings.fixed(Duration.ZERO, 1);

    private static SimulatedRequest request(String body) throws IOException {
        try (InputStream in = new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))) {
            return SimulatedRequest.parse(in);
        }
    }

    private static List<SimulatedReply.Choice> choices(SimulatedRequest r) {
        List<SimulatedReply.Choice> choices = new ArrayList<>();
        for (int i = 0; i < r.n(); i++) choices.add(SimulatedReply.generate(r, SETTINGS, i));
        return choices;
    }

    /** The reply the simulator sends for {@code body}, as its handler builds it (id, model and creation time fixed). */
    private static byte[] reply(String body) throws IOException {
        SimulatorSettings settings = SETTINGS;
        SimulatedRequest r = request(body);
        List<SimulatedReply.Choice> choices = choices(r);
        return SimulatedReply.body("chatcmpl-sim-1", r.model() == null ? settings.model() : r.model(), CREATED, r, choices,
                r.promptTokens(settings.imageTokens()), null);
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

    /** The shared reply contract: what the simulator meant (its choices, log-probs to 6 places, top-k) is what the one reader reads. */
    @Test void theOneReaderReadsWhatTheSimulatorMeant() throws IOException {
        for (Map.Entry<String, String> c : cases().entrySet()) {
            SimulatedRequest r = request(c.getValue());
            List<Choice> meant = new ArrayList<>();
            long tokens = 0;
            for (SimulatedReply.Choice ch : choices(r)) {
                List<TokenLogprob> lp = new ArrayList<>();
                for (SimulatedReply.Token t : r.logprobs() ? ch.tokens() : List.<SimulatedReply.Token>of()) {
                    lp.add(new TokenLogprob(t.text(), round(t.logprob()), t.top().subList(0, Math.min(r.topLogprobs(), t.top().size())).stream()
                            .map(a -> new TokenLogprob.Alternative(a.text(), round(a.logprob()))).toList()));
                }
                meant.add(new Choice(ch.content(), lp, ch.finishReason()));
                tokens += ch.tokens().size();
            }
            OpenAiReplyContract.Read read = OpenAiReplyContract.parse(new String(reply(c.getValue()), StandardCharsets.UTF_8));
            assertThat(read.choices()).as(c.getKey()).isEqualTo(meant);
            assertThat(read.completionTokens()).as(c.getKey()).isEqualTo(tokens);
            assertThat(read.promptTokens()).as(c.getKey()).isEqualTo(r.promptTokens(SETTINGS.imageTokens()));
        }
    }

    private static double round(double logprob) { return Math.round(logprob * 1e6) / 1e6; }
}
