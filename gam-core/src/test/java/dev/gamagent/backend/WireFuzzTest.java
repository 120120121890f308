package dev.gamagent.backend;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.internal.HttpTransport;
import dev.gamagent.backend.internal.WireAnswer;
import dev.gamagent.testing.Fuzz;
import dev.gamagent.testing.FuzzRun;
import dev.gamagent.uncertainty.UncertaintyEstimator;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import dev.gamagent.backend.internal.EndpointSettings;

/**
 * Fuzzing of the wire parsers: whatever a server answers with a 200 (random JSON built from the
 * four formats' field names, and cut or spliced real answers) goes through the path a real answer takes:
 * the body read as JSON, the format's parser, usage estimation, the choice and the uncertainty estimators
 * that read its log-probs. Only a typed {@link BackendException} may come out.
 */
class WireFuzzTest {
    private static final EndpointSettings SETTINGS = new EndpointSettings("http://127.0.0.1:9/v1", "m", "sk-fuzz-key-123456", Duration.ofSeconds(1),
            20, "qwen");
    private static final ChatRequest REQUEST = ChatRequest.of(List.of(ChatMessage.user("What colour?", List.of())));

    private static final List<String> SAMPLES = List.of(
            "{\"id\":\"c\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"ANSWER: A\"},"
                    + "\"logprobs\":{\"content\":[{\"token\":\"A\",\"logprob\":-0.1,\"bytes\":[65],\"top_logprobs\":[{\"token\":\"A\",\"logprob\":-0.1},"
                    + "{\"token\":\"B\",\"logprob\":-2.5}]}]},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":1}}",
            "{\"model\":\"m\",\"message\":{\"role\":\"assistant\",\"content\":\"B\"},\"done_reason\":\"stop\",\"prompt_eval_count\":9,\"eval_count\":1,"
                    + "\"logprobs\":[{\"token\":\"B\",\"logprob\":-0.2,\"top_logprobs\":[{\"token\":\"B\",\"logprob\":-0.2}]}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"thinking\",\"thought\":true},{\"text\":\"A\"}]},\"finishReason\":\"STOP\","
                    + "\"logprobsResult\":{\"chosenCandidates\":[{\"token\":\"A\",\"logProbability\":-0.3}],\"topCandidates\":[{\"candidates\":"
                    + "[{\"token\":\"A\",\"logProbability\":-0.3},{\"token\":\"C\",\"logProbability\":-1e309}]}]}}],"
                    + "\"usageMetadata\":{\"promptTokenCount\":5,\"candidatesTokenCount\":1},\"modelVersion\":\"g\"}",
            "{\"content\":[{\"type\":\"text\",\"text\":\"ANSWER: C\"}],\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":7,\"output_tokens\":3},\"model\":\"c\"}");

    private static final List<HttpChatBackend> BACKENDS = List.of(new OpenAiCompatibleBackend(SETTINGS), new OllamaBackend(SETTINGS),
            new GeminiBackend(SETTINGS), new AnthropicBackend(SETTINGS));

    static String body(Random r) {
        return switch (r.nextInt(3)) {
            case 0 -> Json.write(Fuzz.json(r, 5, Fuzz.WIRE_FIELDS, Fuzz.WIRE_STRINGS));
            case 1 -> Fuzz.mutate(SAMPLES.get(r.nextInt(SAMPLES.size())), r, List.of("null", "[]", "{}", "\"x\"", "-9999", "NaN", "-Infinity", ","));
            default -> graft(r);
        };
    }

    /** A real answer with one subtree replaced by random JSON: well-formed, but with surprises deep inside. */
    private static String graft(Random r) {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(SAMPLES.get(r.nextInt(SAMPLES.size())));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        JsonNode n = root;
        for (int depth = 0; depth < 4 && n.isContainerNode() && n.size() > 0; depth++) {
            JsonNode child = n.isArray() ? n.get(r.nextInt(n.size())) : n.get(List.copyOf(iter(n)).get(r.nextInt(n.size())));
            if (r.nextInt(3) == 0 || !child.isContainerNode()) {
                JsonNode replacement = Fuzz.json(r, 3, Fuzz.WIRE_FIELDS, Fuzz.WIRE_STRINGS);
                if (n instanceof com.fasterxml.jackson.databind.node.ArrayNode a) a.set(r.nextInt(a.size()), replacement);
                else ((com.fasterxml.jackson.databind.node.ObjectNode) n).set(List.copyOf(iter(n)).get(r.nextInt(n.size())), replacement);
                break;
            }
            n = child;
        }
        return Json.write(root);
    }

    private static List<String> iter(JsonNode n) {
        List<String> names = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test void anyTwoHundredAnswerIsReadOrRefusedWithATypedError() {
        FuzzRun.check("wire parsers", WireFuzzTest::body, WireFuzzTest::read);
    }

    private static void read(String raw) {
        UncertaintyEstimator u = UncertaintyEstimator.defaults();
        for (HttpChatBackend b : BACKENDS) {
            try {
                JsonNode json = HttpTransport.body(200, raw, "fuzz").body();
                WireAnswer a = b.parse(json, raw);
                Usage usage = b.estimator.usage(REQUEST, a.choices(), a.promptTokens(), a.completionTokens(), a.cachedPromptTokens());
                ChatResult r = new ChatResult(a.choices(), usage, Duration.ZERO, a.model());
                for (Choice c : r.choices()) {
                    u.estimate(c);
                    u.anll(c);
                    c.signal();
                }
            } catch (BackendException typed) {
                // MalformedResponse or InvalidRequest: what the caller is built to handle
            }
        }
    }
}
