package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.eval.grade.VlmEvalKitMatcher;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request parameters the official OpenAI Python SDK can send, each honoured, accepted without effect (documented)
 * or refused with a 400 naming it; and a reply whose method reached no answer still has text content, plain and
 * streamed. docs/SERVER.md, "Request parameters".
 */
class ServeRequestParametersTest {
    private static final String QUESTION = "What colour is the left half?\nA. blue\nB. red\nC. green";

    @TempDir Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach void closeAll() throws Exception {
        for (AutoCloseable c : open) c.close();
    }

    /** A method that reaches no answer, as gam does when every expert holds no opinion. */
    static final class Opinionless implements Method {
        @Override public String name() { return "opinionless"; }

        @Override public Answer run(Question q, RunContext ctx) {
            return new Answer(null, null, 0.0, 1.0, 1, Termination.STAGNATION, TokenCount.ZERO, 0, 1, null);
        }
    }

    private ServerFixture start(ScriptedBackend backend) throws Exception {
        Map<String, Supplier<Method>> extra = Map.of("opinionless", Opinionless::new);
        ServerFixture f = new ServerFixture(ServerFixture.settings(dir), backend, extra, List.of());
        open.add(f);
        return f;
    }

    private static ObjectNode with(String field, Object value) {
        ObjectNode o = ServerFixture.request("single", QUESTION, false, ServerFixture.dataUrl());
        o.set(field, Json.MAPPER.valueToTree(value));
        return o;
    }

    @Test void whatCannotBeHonouredIsRefusedNamingTheParameter() throws Exception {
        ServerFixture f = start(ScriptedBackend.text(r -> "B"));
        Map<String, Object> refused = new LinkedHashMap<>();
        refused.put("n", 2);
        refused.put("logprobs", true);
        refused.put("top_logprobs", 3);
        refused.put("tools", List.of(Map.of("type", "function", "function", Map.of("name", "f"))));
        refused.put("tool_choice", "auto");
        refused.put("functions", List.of(Map.of("name", "f")));
        refused.put("function_call", "auto");
        refused.put("logit_bias", Map.of("50256", -100));
        refused.put("audio", Map.of("voice", "alloy", "format", "wav"));
        refused.put("web_search_options", Map.of());
        refused.put("response_format", Map.of("type", "json_schema", "json_schema", Map.of("name", "a", "schema", Map.of("type", "object"))));
        refused.put("stop", List.of("a", "b", "c", "d", "e"));
        refused.put("top_k", 5); // not OpenAI's: refused as OpenAI refuses it, so a typo cannot pass unseen
        for (var e : refused.entrySet()) {
            HttpResponse<String> r = f.post("/v1/chat/completions", with(e.getKey(), e.getValue()));
            assertThat(r.statusCode()).as(e.getKey() + ": " + r.body()).isEqualTo(400);
            JsonNode err = ServerFixture.json(r).path("error");
            assertThat(err.path("param").asText()).as(r.body()).isEqualTo(e.getKey());
            assertThat(err.path("code").asText()).isEqualTo("unsupported_parameter");
            assertThat(err.path("message").asText()).startsWith(e.getKey() + ": ");
        }
    }

    @Test void whatChangesNothingHereIsAcceptedAndTheAnswerStaysTheSame() throws Exception {
        ServerFixture f = start(ScriptedBackend.text(r -> "B"));
        Map<String, Object> accepted = new LinkedHashMap<>();
        accepted.put("n", 1);
        accepted.put("logprobs", false);
        accepted.put("top_logprobs", 0);
        accepted.put("tool_choice", "none");
        accepted.put("temperature", 0.7);
        accepted.put("top_p", 0.9);
        accepted.put("seed", 7);
        accepted.put("frequency_penalty", 0.5);
        accepted.put("presence_penalty", 0.5);
        accepted.put("stream_options", Map.of("include_usage", true));
        accepted.put("modalities", List.of("text"));
        accepted.put("parallel_tool_calls", false);
        accepted.put("prediction", Map.of("type", "content", "content", "B"));
        accepted.put("reasoning_effort", "low");
        accepted.put("verbosity", "low");
        accepted.put("user", "u-1");
        accepted.put("metadata", Map.of("k", "v"));
        accepted.put("store", false);
        accepted.put("service_tier", "auto");
        accepted.put("prompt_cache_key", "k");
        accepted.put("safety_identifier", "s");
        accepted.put("response_format", Map.of("type", "text"));
        for (var e : accepted.entrySet()) {
            HttpResponse<String> r = f.post("/v1/chat/completions", with(e.getKey(), e.getValue()));
            assertThat(r.statusCode()).as(e.getKey() + ": " + r.body()).isEqualTo(200);
            assertThat(ServerFixture.json(r).at("/choices/0/message/content").asText()).as(e.getKey()).isEqualTo("B. red");
        }
        // docs/SERVER.md names every parameter and what it does here
        String doc = Files.readString(Path.of("docs/SERVER.md"));
        for (String p : ReplyParameters.WITHOUT_EFFECT.keySet()) assertThat(doc).as(p).contains("`" + p + "`");
        for (String p : ReplyParameters.REFUSED.keySet()) assertThat(doc).as(p).contains("`" + p + "`");
        for (String p : List.of("n", "logprobs", "top_logprobs", "max_tokens", "max_completion_tokens", "stop", "response_format", "tool_choice")) {
            assertThat(doc).as(p).contains("`" + p + "`");
        }
    }

    @Test void maxTokensBoundsTheContentTheClientReceivesNeverTheAgentsCalls() throws Exception {
        String open = "a tall red triangle standing on a white ground beside a small blue circle";
        ScriptedBackend backend = ScriptedBackend.text(r -> open);
        ServerFixture f = start(backend);
        ObjectNode whole = ServerFixture.request("single", "Describe the picture.", false, ServerFixture.dataUrl());
        JsonNode full = ServerFixture.json(f.post("/v1/chat/completions", whole));
        assertThat(full.at("/choices/0/message/content").asText()).isEqualTo(open);
        List<Integer> agentLimits = backend.requests.stream().map(ChatRequest::maxTokens).toList();
        for (String field : List.of("max_tokens", "max_completion_tokens")) {
            ObjectNode bounded = whole.deepCopy().put(field, 3);
            int before = backend.requests.size();
            JsonNode cut = ServerFixture.json(f.post("/v1/chat/completions", bounded));
            String content = cut.at("/choices/0/message/content").asText();
            assertThat(open).startsWith(content);
            assertThat(content.length()).isLessThan(open.length()).isPositive();
            assertThat(cut.at("/choices/0/finish_reason").asText()).isEqualTo("length");
            assertThat(cut.at("/gam/answer").asText()).as("the gam object keeps the whole answer").isEqualTo(open);
            assertThat(backend.requests.subList(before, backend.requests.size()).stream().map(ChatRequest::maxTokens).toList())
                    .as("the agent's own call asked for what it always asks").isEqualTo(agentLimits);
            List<JsonNode> chunks = chunks(f.post("/v1/chat/completions", bounded.deepCopy().put("stream", true)));
            assertThat(streamedContent(chunks)).isEqualTo(content);
            assertThat(chunks.get(chunks.size() - 1).at("/choices/0/finish_reason").asText()).isEqualTo("length");
        }
        // a bound the answer fits in changes nothing
        JsonNode roomy = ServerFixture.json(f.post("/v1/chat/completions", whole.deepCopy().put("max_tokens", 2048)));
        assertThat(roomy.at("/choices/0/message/content").asText()).isEqualTo(open);
        assertThat(roomy.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
    }

    @Test void stopSequencesEndTheContentBeforeTheFirstOfThem() throws Exception {
        ServerFixture f = start(ScriptedBackend.text(r -> "B"));
        JsonNode one = ServerFixture.json(f.post("/v1/chat/completions", with("stop", ".")));
        assertThat(one.at("/choices/0/message/content").asText()).isEqualTo("B");
        assertThat(one.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        JsonNode many = ServerFixture.json(f.post("/v1/chat/completions", with("stop", List.of("red", " "))));
        assertThat(many.at("/choices/0/message/content").asText()).isEqualTo("B.");
        List<JsonNode> chunks = chunks(f.post("/v1/chat/completions", with("stop", List.of("red", " ")).put("stream", true)));
        assertThat(streamedContent(chunks)).isEqualTo("B.");
    }

    @Test void aJsonObjectFormatGivesTheAnswerAsOneJsonObject() throws Exception {
        ServerFixture f = start(ScriptedBackend.text(r -> "B"));
        JsonNode o = ServerFixture.json(f.post("/v1/chat/completions", with("response_format", Map.of("type", "json_object"))));
        JsonNode content = Json.MAPPER.readTree(o.at("/choices/0/message/content").asText());
        assertThat(content.path("answer").asText()).isEqualTo("red");
        assertThat(content.path("option").asText()).isEqualTo("B");
        assertThat(content.path("confidence").isNumber()).isTrue();
        ObjectNode none = ServerFixture.request("opinionless", QUESTION, false, ServerFixture.dataUrl());
        none.putObject("response_format").put("type", "json_object");
        JsonNode empty = Json.MAPPER.readTree(ServerFixture.json(f.post("/v1/chat/completions", none)).at("/choices/0/message/content").asText());
        assertThat(empty.path("answer").isNull()).isTrue();
        assertThat(empty.path("note").asText()).isEqualTo(ReplyParameters.NO_ANSWER);
    }

    @Test void aReplyWithoutAnAnswerSaysSoInWordsThatHarnessesGradeAsNoAnswer() throws Exception {
        ServerFixture f = start(ScriptedBackend.text(r -> "B"));
        HttpResponse<String> r = f.post("/v1/chat/completions", ServerFixture.request("opinionless", QUESTION, false, ServerFixture.dataUrl()));
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode o = ServerFixture.json(r);
        JsonNode content = o.at("/choices/0/message/content");
        assertThat(content.isTextual()).as(r.body()).isTrue();
        assertThat(content.asText()).isEqualTo(ReplyParameters.NO_ANSWER);
        assertThat(o.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(o.at("/gam/answer").isNull()).isTrue();
        assertThat(o.at("/gam/option").isNull()).isTrue();
        assertThat(o.at("/gam/termination").asText()).isEqualTo("stagnation");
        // VLMEvalKit's matcher reads it as a refusal, not as a letter
        Map<String, String> options = Map.of("A", "blue", "B", "red", "C", "green");
        VlmEvalKitMatcher.Match m = VlmEvalKitMatcher.infer(content.asText(), options, VlmEvalKitMatcher.Rules.latest());
        assertThat(m.letter()).isEqualTo("Z");
        assertThat(m.step()).isEqualTo(VlmEvalKitMatcher.Step.REFUSAL);

        List<JsonNode> chunks = chunks(f.post("/v1/chat/completions", ServerFixture.request("opinionless", QUESTION, true, ServerFixture.dataUrl())));
        assertThat(streamedContent(chunks)).isEqualTo(ReplyParameters.NO_ANSWER);
        JsonNode last = chunks.get(chunks.size() - 1);
        assertThat(last.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(last.at("/gam/answer").isNull()).isTrue();
    }

    private static List<JsonNode> chunks(HttpResponse<String> r) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        List<JsonNode> out = new ArrayList<>();
        for (String block : r.body().split("\n\n")) {
            if (block.isBlank() || block.equals("data: [DONE]")) continue;
            out.add(Json.MAPPER.readTree(block.substring("data: ".length())));
        }
        return out;
    }

    private static String streamedContent(List<JsonNode> chunks) {
        StringBuilder s = new StringBuilder();
        for (JsonNode c : chunks) {
            assertThat(c.has("error")).as(c.toString()).isFalse();
            s.append(c.at("/choices/0/delta/content").asText(""));
        }
        return s.toString();
    }
}
