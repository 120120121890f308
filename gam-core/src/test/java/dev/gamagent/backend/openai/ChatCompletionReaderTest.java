package dev.gamagent.backend.openai;

import dev.gamagent.backend.openai.ChatCompletionRequest.ImageUrl;
import dev.gamagent.backend.openai.ChatCompletionRequest.Role;
import dev.gamagent.backend.openai.ChatCompletionRequest.Text;
import dev.gamagent.backend.openai.WireFormatException.Problem;
import dev.gamagent.testing.WireRequestCases;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one reader of an OpenAI chat-completions body: every field the receivers use, typed, and refusals naming the field. */
class ChatCompletionReaderTest {
    private static final String IMAGE = "data:image/png;base64,iVBORw0KGgo=";

    private static ChatCompletionRequest read(String body) {
        return ChatCompletionReader.read(body.getBytes(StandardCharsets.UTF_8));
    }

    private static WireFormatException refusal(String body) {
        try {
            read(body);
        } catch (WireFormatException e) {
            return e;
        }
        throw new AssertionError("accepted: " + body);
    }

    @Test void everyFieldTheReceiversUseIsReadTyped() {
        ChatCompletionRequest r = read("""
                {"model": "gam", "temperature": 0.7, "max_tokens": 512, "n": 3, "seed": 12345678901, "logprobs": true,
                 "top_logprobs": 5, "stream": true, "stop": ["\\n"], "extra": {"nested": [1, {"deep": true}]},
                 "response_format": {"type": "json_schema", "json_schema": {"name": "answer", "schema": {"type": "object"}, "strict": true}},
                 "messages": [
                   {"role": "system", "content": "Be brief."},
                   {"role": "user", "name": "u", "content": [
                     {"type": "text", "text": "What colour?"},
                     {"image_url": {"detail": "high", "url": "%s"}, "type": "image_url"},
                     {"type": "input_image", "image_url": "https://images.example/a.png"}]},
                   {"role": "assistant", "content": null, "tool_calls": []}]}
                """.formatted(IMAGE));
        assertThat(r.model()).isEqualTo("gam");
        assertThat(r.temperature()).isEqualTo(0.7);
        assertThat(r.maxTokens()).isEqualTo(512);
        assertThat(r.n()).isEqualTo(3);
        assertThat(r.seed()).isEqualTo(12345678901L);
        assertThat(r.logprobs()).isTrue();
        assertThat(r.topLogprobs()).isEqualTo(5);
        assertThat(r.stream()).isTrue();
        assertThat(r.response().jsonSchema()).isTrue();
        assertThat(r.response().name()).isEqualTo("answer");
        assertThat(r.response().schema().path("type").asText()).isEqualTo("object");
        assertThat(r.stop()).containsExactly("\n");
        assertThat(r.others()).containsExactly("extra");
        assertThat(r.messages()).extracting(ChatCompletionRequest.Message::role).containsExactly(Role.SYSTEM, Role.USER, Role.ASSISTANT);
        assertThat(r.messages().get(0).content()).containsExactly(new Text("Be brief."));
        assertThat(r.messages().get(1).content()).containsExactly(new Text("What colour?"), new ImageUrl(IMAGE, "high"),
                new ImageUrl("https://images.example/a.png", null));
        assertThat(r.messages().get(2).content()).isEmpty();
    }

    @Test void fieldsLeftOutOrNullAreNullOrTheWireFormatsDefaults() {
        for (String extra : new String[]{"", "\"model\": null, \"max_tokens\": null, \"temperature\": null, \"n\": null, \"seed\": null, "
                + "\"logprobs\": null, \"top_logprobs\": null, \"stream\": null, \"response_format\": null, "}) {
            ChatCompletionRequest r = read("{" + extra + "\"messages\": [{\"role\": \"user\", \"content\": \"Hi\"}]}");
            assertThat(r.model()).as(extra).isNull();
            assertThat(r.maxTokens()).isNull();
            assertThat(r.temperature()).isNull();
            assertThat(r.seed()).isNull();
            assertThat(r.response()).isNull();
            assertThat(r.n()).isEqualTo(1);
            assertThat(r.topLogprobs()).isZero();
            assertThat(r.logprobs()).isFalse();
            assertThat(r.stream()).isFalse();
        }
    }

    @Test void maxCompletionTokensIsTheLimitWhereverItStandsAndOnlyJsonSchemaFormatsAskForASchema() {
        String m = "\"messages\": [{\"role\": \"user\", \"content\": \"Hi\"}]";
        assertThat(read("{\"max_completion_tokens\": 64, \"max_tokens\": 5, " + m + "}").maxTokens()).isEqualTo(64);
        assertThat(read("{\"max_tokens\": 5, \"max_completion_tokens\": 64, " + m + "}").maxTokens()).isEqualTo(64);
        assertThat(read("{\"response_format\": {\"type\": \"json_object\", \"json_schema\": {\"schema\": {}}}, " + m + "}")
                .response().jsonSchema()).isFalse();
        ChatCompletionRequest.ResponseFormat bare = read("{\"response_format\": {\"type\": \"json_schema\"}, " + m + "}").response();
        assertThat(bare.jsonSchema()).isTrue();
        assertThat(bare.schema()).isNull();
        assertThat(bare.name()).isNull();
    }

    @Test void stopToolChoiceAndTheFieldsNotTypedAreReadForTheReceiversToDecideOn() {
        String m = "\"messages\": [{\"role\": \"user\", \"content\": \"Hi\"}]";
        assertThat(read("{\"stop\": \"END\", " + m + "}").stop()).containsExactly("END");
        assertThat(read("{\"stop\": [\"a\", \"b\"], " + m + "}").stop()).containsExactly("a", "b");
        assertThat(read("{\"stop\": null, " + m + "}").stop()).isNull();
        assertThat(read("{" + m + "}").stop()).isNull();
        assertThat(refusal("{\"stop\": [\"a\", 1], " + m + "}").getMessage()).startsWith("stop[1]: must be a string, got 1");
        assertThat(refusal("{\"stop\": 5, " + m + "}").getMessage()).startsWith("stop: must be a string or an array of strings");
        assertThat(read("{\"tool_choice\": \"none\", " + m + "}").toolChoice()).isEqualTo("none");
        assertThat(read("{\"tool_choice\": {\"function\": {\"name\": \"f\"}, \"type\": \"function\"}, " + m + "}").toolChoice())
                .isEqualTo("function");
        assertThat(refusal("{\"tool_choice\": 3, " + m + "}").getMessage()).startsWith("tool_choice: must be a string or an object");
        // what is not typed is named, in order, once; a field sent as null is as good as left out
        assertThat(read("{\"tools\": [{\"type\": \"function\"}], \"top_p\": 1, \"logit_bias\": {}, \"user\": null, \"top_p\": 0.5, "
                + m + "}").others()).containsExactly("tools", "top_p", "logit_bias");
    }

    @Test void everyRoleIsReadAsTheWireSpellsIt() {
        for (Role r : Role.values()) {
            assertThat(read("{\"messages\": [{\"role\": \"" + r.wire() + "\", \"content\": \"x\"}]}").messages().get(0).role()).isEqualTo(r);
        }
        assertThat(refusal("{\"messages\": [{\"role\": \"User\", \"content\": \"x\"}]}").getMessage()).startsWith("messages[0].role: 'User'");
        assertThat(refusal("{\"messages\": [{\"role\": 1, \"content\": \"x\"}]}").getMessage()).startsWith("messages[0].role: not a string");
    }

    @Test void aStreamAndBytesReadTheSame() throws IOException {
        String body = "{\"model\": \"m\", \"seed\": 3, \"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"Q\"}]}]}";
        assertThat(ChatCompletionReader.read(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)))).isEqualTo(read(body));
    }

    @Test void refusalsNameTheFieldAndCarryACode() {
        String ok = "{\"role\": \"user\", \"content\": \"Q\"}";
        WireFormatException e = refusal("{\"messages\": [" + ok + ", " + ok + ", {\"role\": \"user\", \"content\": [{\"type\": \"text\", "
                + "\"text\": \"Q\"}, {\"type\": \"image_url\", \"image_url\": {\"url\": \"  \"}}]}]}");
        assertThat(e.getMessage()).startsWith("messages[2].content[1].image_url.url: missing");
        assertThat(e.problem()).isEqualTo(Problem.MISSING_IMAGE_URL);
        assertThat(e.problem().code()).isEqualTo("missing_image_url");
        assertThat(refusal("{\"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"video_url\"}]}]}").problem())
                .isEqualTo(Problem.UNSUPPORTED_CONTENT);
        assertThat(refusal("{\"model\": \"m\"}")).hasMessageContaining("'messages' is missing").extracting(WireFormatException::problem)
                .isEqualTo(Problem.MISSING_MESSAGES);
        assertThat(refusal("{\"seed\": 123456789012345678901234567890, \"messages\": [" + ok + "]}").getMessage())
                .startsWith("seed: must fit in 64 bits");
        assertThat(refusal("{\"n\": 4294967296, \"messages\": [" + ok + "]}").getMessage()).startsWith("n: must be at least 1 and at most");
        assertThat(refusal("{\"stream\": \"yes\", \"messages\": [" + ok + "]}").getMessage()).isEqualTo("stream: must be true or false, got \"yes\"");
        assertThat(refusal("{\"temperature\": [1], \"messages\": [" + ok + "]}").getMessage()).isEqualTo("temperature: must be a number, got an array");
        assertThat(refusal("{\"response_format\": \"json\", \"messages\": [" + ok + "]}").problem()).isEqualTo(Problem.INVALID_FIELD);
    }

    @Test void aBodyThatIsNotAJsonObjectIsInvalidJsonEvenWhenSomethingElseIsWrongFirst() {
        for (String body : new String[]{"", "[1, 2]", "5", "{\"model\": \"single\", "}) {
            assertThat(refusal(body).problem()).as(body).isEqualTo(Problem.INVALID_JSON);
        }
        assertThat(refusal("{\"model\": \"single\", ").getMessage()).startsWith("the request body is not valid JSON: ").contains("line 1");
        // the first message is wrong, but the body is broken further on: that is what the client must fix first
        String deep = "{\"messages\": [7, " + "[".repeat(1001) + "]".repeat(1001) + "]}";
        assertThat(refusal(deep).getMessage()).contains("nested more than 1000 levels");
        assertThat(refusal("{\"messages\": [7]} trailing").getMessage()).startsWith("messages[0]: must be an object");
    }

    @Test void theCasesTheReceiversOnceDisagreedOnAreReadOneWay() throws Exception {
        WireRequestCases.check(IMAGE, ChatCompletionReaderTest::read, WireFormatException.class,
                (c, r) -> assertThat(r.messages()).as(c.name()).isNotEmpty());
    }
}
