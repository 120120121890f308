package dev.gamagent.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.openai.ChatCompletionReply;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A reply's tree is the whole reply but its log-prob entries' {@code bytes} arrays. */
class ReplyTreeTest {

    @Test
    void aReplyReadsAsItsWholeTreeWithoutTheLogprobEntriesBytes() throws Exception {
        List<TokenLogprob> tokens = new ArrayList<>();
        for (String t : List.of("ANSWER", ":", " B", " é", "😀")) {
            tokens.add(new TokenLogprob(t, -0.25, List.of(new TokenLogprob.Alternative(t, -0.25), new TokenLogprob.Alternative(" A", -1.5),
                    new TokenLogprob.Alternative("\u00a0", Double.NEGATIVE_INFINITY))));
        }
        ChatCompletionReply.Completion reply = new ChatCompletionReply.Completion("c-1", 1, "m", null,
                List.of(ChatCompletionReply.CompletionChoice.of(0, new Choice("ANSWER: B é😀", tokens, "stop"), true)),
                ChatCompletionReply.TokenUsage.of(12, 5), null);
        ObjectNode whole = (ObjectNode) Json.MAPPER.valueToTree(reply);
        whole.put("bytes", "kept: not a log-prob entry's");
        ((ObjectNode) whole.get("usage")).putArray("bytes").add(1);
        String raw = Json.MAPPER.writeValueAsString(whole).replace("\"-Infinity\"", "-Infinity");
        assertThat(raw).contains("\"logprob\":-Infinity");

        JsonNode read = HttpTransport.body(200, raw, "test").body();

        JsonNode expected = Json.MAPPER.reader().with(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).readTree(raw);
        int removed = removeEntryBytes(expected);
        assertThat(removed).as("bytes arrays in the reply").isEqualTo(5 + 5 * 3);
        assertThat(read).isEqualTo(expected);
        assertThat(read.toString().split("\"bytes\":\\[", -1)).as("bytes arrays read").hasSize(2); // usage's, not an array's element
        assertThat(read.get("bytes").asText()).startsWith("kept");
        assertThat(read.path("usage").path("bytes").get(0).asInt()).isEqualTo(1);
        assertThat(read.at("/choices/0/logprobs/content/3/top_logprobs/2/logprob").asDouble()).isEqualTo(Double.NEGATIVE_INFINITY);
    }

    @Test
    void aBrokenBytesArrayIsStillABodyThatIsNotJson() {
        String raw = "{\"choices\":[{\"logprobs\":{\"content\":[{\"token\":\"A\",\"logprob\":-0.1,\"bytes\":[65,,66]}]}}]}";
        assertThatThrownBy(() -> HttpTransport.body(200, raw, "http://127.0.0.1:9/v1/chat/completions"))
                .isInstanceOf(BackendException.MalformedResponse.class)
                .hasMessageContaining("with a body that is not JSON");
    }

    @Test
    void anEmptyBodyIsStillRefusedAsEmpty() {
        assertThatThrownBy(() -> HttpTransport.body(200, "  ", "http://127.0.0.1:9/v1/chat/completions"))
                .isInstanceOf(BackendException.MalformedResponse.class)
                .hasMessageContaining("with an empty body");
    }

    /** Removes every {@code bytes} field of an object held in an array, as the streaming reader skips them. */
    private static int removeEntryBytes(JsonNode n) {
        int removed = 0;
        if (n instanceof ArrayNode a) {
            for (JsonNode e : a) {
                if (e instanceof ObjectNode o && o.remove("bytes") != null) removed++;
                removed += removeEntryBytes(e);
            }
        } else if (n instanceof ObjectNode o) {
            for (JsonNode e : o) removed += removeEntryBytes(e);
        }
        return removed;
    }
}
