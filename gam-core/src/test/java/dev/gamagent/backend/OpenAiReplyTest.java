package dev.gamagent.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.gamagent.backend.internal.EndpointSettings;
import dev.gamagent.backend.internal.HttpTransport;
import dev.gamagent.backend.internal.OpenAiReply;
import dev.gamagent.backend.internal.WireAnswer;
import dev.gamagent.backend.internal.WireParse;
import dev.gamagent.testing.FuzzRun;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAI-compatible reply streamed into its answer ({@link OpenAiReply}, no tree) gives exactly what the tree walk
 * it replaced gave: the same choices, tokens, alternatives, log-probs (bit for bit), finish reasons, usage with
 * {@code cached_tokens} and model, or the same error, on real-shaped replies (vLLM and OpenAI with top log-probs and
 * {@code bytes}, llama.cpp's entries with ids) and on every fuzzed body of {@link WireFuzzTest}. The reference is the
 * parse as it was before (a whole tree, walked), kept here.
 */
class OpenAiReplyTest {
    private static final EndpointSettings SETTINGS = new EndpointSettings("http://127.0.0.1:9/v1", "m", null, Duration.ofSeconds(1), 20, "qwen");
    private static final OpenAiCompatibleBackend BACKEND = new OpenAiCompatibleBackend(SETTINGS);
    private static final String WHERE = "http://127.0.0.1:9/v1/chat/completions";
    private static final ObjectReader WHOLE = Json.MAPPER.reader().with(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .with(com.fasterxml.jackson.core.StreamReadFeature.USE_FAST_DOUBLE_PARSER);

    @Test void vllmReplyWithTopLogprobsBytesAndCachedTokens() {
        String raw = "{\"id\":\"chatcmpl-9f\",\"object\":\"chat.completion\",\"created\":1764900000,\"model\":\"Qwen/Qwen2.5-VL-7B-Instruct\","
                + "\"choices\":[" + choice(0, "{\\\"answer\\\": \\\"B\\\", \\\"claims\\\": [\\\"the sign is red\\\"]}", 60, 5, false, "stop") + ","
                + choice(1, "ANSWER: C", 7, 5, false, "length") + "],"
                + "\"usage\":{\"prompt_tokens\":1843,\"total_tokens\":1910,\"completion_tokens\":67,\"prompt_tokens_details\":{\"cached_tokens\":1792}},"
                + "\"prompt_logprobs\":null,\"kv_transfer_params\":null}";
        WireAnswer a = same(raw);
        assertThat(a.choices()).hasSize(2);
        assertThat(a.choices().get(0).logprobs()).hasSize(60);
        assertThat(a.choices().get(0).logprobs().get(3).top()).hasSize(5);
        assertThat(a.choices().get(1).finishReason()).isEqualTo("length");
        assertThat(a.promptTokens()).isEqualTo(1843L);
        assertThat(a.cachedPromptTokens()).isEqualTo(1792L);
        assertThat(a.model()).isEqualTo("Qwen/Qwen2.5-VL-7B-Instruct");
    }

    @Test void openAiReplyWithRefusalServiceTierAndDetails() {
        String raw = "{\"id\":\"chatcmpl-B\",\"object\":\"chat.completion\",\"created\":1764900000,\"model\":\"gpt-4o-2024-08-06\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"The answer is A.\",\"refusal\":null,\"annotations\":[]},"
                + "\"logprobs\":{\"content\":" + tokens(12, 3, false) + ",\"refusal\":null},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":1210,\"completion_tokens\":12,\"total_tokens\":1222,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":1152,\"audio_tokens\":0},"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":0,\"audio_tokens\":0,\"accepted_prediction_tokens\":0,\"rejected_prediction_tokens\":0}},"
                + "\"service_tier\":\"default\",\"system_fingerprint\":\"fp_50cad350e4\"}";
        WireAnswer a = same(raw);
        assertThat(a.choices().get(0).logprobs()).hasSize(12);
        assertThat(a.cachedPromptTokens()).isEqualTo(1152L);
    }

    @Test void llamaCppReplyWithIdsTimingsAndMinusInfinity() {
        String raw = "{\"choices\":[{\"finish_reason\":\"STOP\",\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"A\"},"
                + "\"logprobs\":{\"content\":" + tokens(9, 4, true) + "}}],\"created\":1764900000,\"model\":\"gpt-3.5-turbo\","
                + "\"system_fingerprint\":\"b5000\",\"object\":\"chat.completion\","
                + "\"usage\":{\"completion_tokens\":9,\"prompt_tokens\":311,\"total_tokens\":320,\"prompt_tokens_details\":{\"cached_tokens\":300}},"
                + "\"id\":\"chatcmpl-x\",\"timings\":{\"prompt_n\":11,\"prompt_ms\":40.1,\"predicted_n\":9,\"predicted_ms\":80.5}}";
        WireAnswer a = same(raw);
        assertThat(a.choices().get(0).finishReason()).isEqualTo("stop");
        assertThat(a.choices().get(0).logprobs().get(0).top().get(3).logprob()).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(a.cachedPromptTokens()).isEqualTo(300L);
    }

    /** The shapes a tree reads in its own way: repeated fields, entries that are not objects, numbers for text, text for numbers. */
    @Test void oddShapesAsTheTreeReadThem() {
        same("{\"choices\":[{\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"A\"},{\"type\":\"text\",\"text\":\"B\"}]},"
                + "\"logprobs\":{\"content\":[{\"token\":7,\"logprob\":\"-inf\",\"top_logprobs\":null},5,null,"
                + "{\"token\":null,\"logprob\":null,\"top_logprobs\":[1,{\"token\":true,\"logprob\":\"-0.5\"},{\"logprob\":NaN},{\"token\":1.5e3,\"logprob\":-1E400}]},"
                + "{\"token\":\"a\",\"token\":\"b\",\"logprob\":-1,\"logprob\":-2,\"top_logprobs\":[{\"token\":\"x\",\"logprob\":-0.0}],\"top_logprobs\":[]},"
                + "{\"token\":{\"x\":1},\"logprob\":[1],\"bytes\":null},{\"token\":\"\\u00e9\",\"logprob\":12345678901234567890}]},"
                + "\"finish_reason\":7},"
                + "{\"message\":{\"content\":null},\"logprobs\":[1],\"finish_reason\":\"Length\",\"message\":{\"content\":42}}],"
                + "\"usage\":{\"prompt_tokens\":1.7,\"completion_tokens\":\"3\",\"prompt_tokens_details\":{\"cached_tokens\":-1}},"
                + "\"model\":5}");
        same("{\"choices\":[{\"message\":{\"content\":\"first\"}}],\"model\":\"m\",\"choices\":[{\"message\":{\"content\":\"second choices win\"},"
                + "\"logprobs\":{\"content\":[{\"token\":\"q\",\"logprob\":-Infinity,\"bytes\":[1,[2,{\"bytes\":3}]]}]}}]}");
        same("{\"choices\":[{\"message\":{\"content\":\"A\"},\"logprobs\":{\"content\":[{\"token\":\"first\",\"logprob\":-1}]},"
                + "\"logprobs\":{\"content\":[{\"token\":\"last\",\"logprob\":-3}],\"content\":[{\"token\":\"later\",\"logprob\":-4}]}}]}");
        same("{\"choices\":[{\"message\":{},\"logprobs\":null}],\"usage\":[],\"model\":\"m\",\"model\":null}");
        same("{\"choices\":[{\"message\":{\"content\":\"x\"}}],\"usage\":{\"prompt_tokens\":3,\"prompt_tokens_details\":{\"cached_tokens\":null}}}");
    }

    @Test void malformedRepliesFailAlike() {
        for (String raw : List.of("", "  ", "null", "[]", "5", "\"x\"", "{}", "{\"choices\":{}}", "{\"choices\":[]}", "{\"choices\":[3]}",
                "{\"choices\":[{\"message\":\"A\"}]}", "{\"choices\":[{\"message\":{\"content\":\"A\"}},{\"text\":\"B\"}]}",
                "{\"choices\":[{\"message\":{\"content\":\"A\"},\"logprobs\":{\"content\":[{\"token\":\"A\",\"bytes\":[65,]}]}}]}",
                "{\"choices\":[{\"message\":{\"content\":\"A\"}}]", "{\"choices\":[{\"message\":{\"content\":\"A\"}}]} trailing",
                "{\"choices\":[{\"message\":{\"content\":\"A\"}}],\"usage\":{\"prompt_tokens\":1e}}")) {
            assertThat(outcome(() -> streamed(raw))).as(raw).isEqualTo(outcome(() -> before(raw)));
            assertThat(outcome(() -> viaTree(raw))).as(raw).isEqualTo(outcome(() -> before(raw)));
        }
        assertThat(outcome(() -> streamed("{\"choices\":[]}"))).contains("without choices");
        assertThat(outcome(() -> streamed("{\"choices\":[{\"message\":{\"content\":\"A\"},\"logprobs\":{\"content\":[{\"bytes\":[6,]}]}}]}")))
                .contains("not JSON");
    }

    /** Every fuzzed body of the wire fuzz test (random JSON, cut and spliced real answers): the same answer or the same error. */
    @Test void fuzzedBodiesReadAlike() {
        FuzzRun.check("streamed OpenAI reply = tree walk", OpenAiReplyTest::fuzzed, raw -> {
            String expected = outcome(() -> before(raw));
            assertThat(outcome(() -> streamed(raw))).as(raw).isEqualTo(expected);
            assertThat(outcome(() -> viaTree(raw))).as(raw).isEqualTo(expected);
        });
    }

    private static String fuzzed(Random r) {
        // mostly OpenAI replies (the first sample), so the log-prob entries are what gets mutated
        return r.nextInt(3) == 0 ? WireFuzzTest.body(r) : dev.gamagent.testing.Fuzz.mutate(
                "{\"model\":\"m\",\"choices\":[" + choice(0, "A", 3, 2, false, "stop") + "],\"usage\":{\"prompt_tokens\":10,"
                        + "\"completion_tokens\":3,\"prompt_tokens_details\":{\"cached_tokens\":8}}}",
                r, List.of("null", "[]", "{}", "\"x\"", "-9999", "NaN", "-Infinity", ",", "1.5", "\"-inf\""));
    }

    // ---- the three ways, and the reference -------------------------------------------------------------

    /** As a call reads it now: the text streamed into the answer. */
    private static WireAnswer streamed(String raw) {
        return BACKEND.answer(HttpTransport.read(200, raw, WHERE, OpenAiReply::read).value(), raw);
    }

    /** As the fuzz tests read it: the transport's tree, then {@code parse}. */
    private static WireAnswer viaTree(String raw) {
        return BACKEND.parse(HttpTransport.body(200, raw, WHERE).body(), raw);
    }

    /** The parse before the stream (a whole tree, walked), kept as the reference. */
    private static WireAnswer before(String raw) {
        JsonNode body;
        try {
            body = WHOLE.readTree(raw);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new BackendException.MalformedResponse(WHERE + " answered 200 with a body that is not JSON (" + e.getOriginalMessage() + "): "
                    + HttpTransport.abbreviate(raw), e);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        if (body == null || body.isMissingNode()) throw new BackendException.MalformedResponse(WHERE + " answered 200 with an empty body", null);
        JsonNode choices = body.path("choices");
        if (!choices.isArray() || choices.isEmpty()) throw BACKEND.malformed("without choices", raw);
        List<Choice> out = new ArrayList<>();
        for (JsonNode c : choices) {
            JsonNode msg = c.path("message");
            if (!msg.isObject()) throw BACKEND.malformed("a choice has no message", raw);
            JsonNode lp = c.path("logprobs");
            List<TokenLogprob> tokens = new ArrayList<>();
            if (lp.isObject() && lp.path("content").isArray()) {
                for (JsonNode t : lp.path("content")) {
                    List<TokenLogprob.Alternative> top = new ArrayList<>();
                    JsonNode tops = t.path("top_logprobs");
                    if (tops.isArray()) {
                        for (JsonNode x : tops) top.add(new TokenLogprob.Alternative(x.path("token").asText(""), WireParse.logprob(x.get("logprob"))));
                    }
                    tokens.add(new TokenLogprob(t.path("token").asText(""), WireParse.logprob(t.get("logprob")), top));
                }
            }
            String finish = c.path("finish_reason").isTextual() ? c.get("finish_reason").asText().toLowerCase(Locale.ROOT) : null;
            out.add(new Choice(WireParse.text(msg.get("content")), tokens, finish));
        }
        JsonNode u = body.path("usage");
        return new WireAnswer(out, WireParse.optLong(u.get("prompt_tokens")), WireParse.optLong(u.get("completion_tokens")),
                WireParse.optCount(u.path("prompt_tokens_details").get("cached_tokens")),
                body.path("model").isTextual() ? body.get("model").asText() : null);
    }

    /** The streamed answer, checked equal to the reference and to the tree's, field by field (log-probs bit for bit). */
    private static WireAnswer same(String raw) {
        WireAnswer before = before(raw);
        assertThat(streamed(raw)).isEqualTo(before);
        assertThat(viaTree(raw)).isEqualTo(before);
        return before;
    }

    /** An answer (records compare doubles bit for bit) or the exception's class and message. */
    private static String outcome(java.util.function.Supplier<WireAnswer> read) {
        try {
            return "answer " + read.get();
        } catch (RuntimeException e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    // ---- real-shaped replies ------------------------------------------------------------------------------

    private static String choice(int index, String content, int tokens, int top, boolean llamaCpp, String finish) {
        return "{\"index\":" + index + ",\"message\":{\"role\":\"assistant\",\"content\":\"" + content + "\",\"tool_calls\":[],\"reasoning_content\":null},"
                + "\"logprobs\":{\"content\":" + tokens(tokens, top, llamaCpp) + "},\"finish_reason\":\"" + finish + "\",\"stop_reason\":null}";
    }

    /** {@code n} entries of {@code k} alternatives each, with {@code bytes} (vLLM, OpenAI) and ids (llama.cpp), some impossible. */
    private static String tokens(int n, int k, boolean llamaCpp) {
        Random r = new Random(n * 31L + k);
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append(',');
            sb.append(entry(r, i, llamaCpp)).append(",\"top_logprobs\":[");
            for (int j = 0; j < k; j++) {
                if (j > 0) sb.append(',');
                sb.append(entry(r, j, llamaCpp)).append('}');
            }
            sb.append("]}");
        }
        return sb.append(']').toString();
    }

    private static String entry(Random r, int i, boolean llamaCpp) {
        String token = List.of("A", " B", "\\\"", "é", " the", "\\n", "{\\\"", ":", "红").get(r.nextInt(9));
        String logprob = i == 3 ? (llamaCpp ? "-Infinity" : "-9999.0") : Double.toString(-r.nextDouble() * 12);
        StringBuilder bytes = new StringBuilder("[");
        for (byte b : token.replace("\\\"", "\"").replace("\\n", "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            if (bytes.length() > 1) bytes.append(',');
            bytes.append(b & 0xff);
        }
        bytes.append(']');
        return "{" + (llamaCpp ? "\"id\":" + r.nextInt(150_000) + "," : "") + "\"token\":\"" + token + "\",\"logprob\":" + logprob
                + ",\"bytes\":" + bytes;
    }
}
