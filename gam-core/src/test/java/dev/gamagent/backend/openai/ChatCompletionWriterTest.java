package dev.gamagent.backend.openai;

import dev.gamagent.backend.Choice;
import dev.gamagent.backend.OpenAiReplyContract;
import dev.gamagent.backend.TokenLogprob;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one writer of OpenAI's reply shapes: the bytes in OpenAI's field order, and what it writes reads back through the
 * one reader (OpenAiCompatibleBackend's parser) as what was meant, whole or streamed.
 */
class ChatCompletionWriterTest {
    private static final List<Choice> CHOICES = List.of(
            new Choice("ANSWER: B", List.of(new TokenLogprob("ANSWER", -0.01, List.of(new TokenLogprob.Alternative("ANSWER", -0.01),
                    new TokenLogprob.Alternative(" the", -4.5))), new TokenLogprob(": B", -0.25, List.of(new TokenLogprob.Alternative(": B", -0.25),
                    new TokenLogprob.Alternative(": é", -1.75)))), "stop"),
            new Choice("ANSWER: é", List.of(new TokenLogprob("ANSWER: é", -0.5, List.of())), "length"));

    private static String text(Object reply) { return new String(ChatCompletionWriter.bytes(reply), StandardCharsets.UTF_8); }

    private static ChatCompletionReply.Completion completion(boolean logprobs) {
        return new ChatCompletionReply.Completion("chatcmpl-1", 1_700_000_000L, "m", null, List.of(
                ChatCompletionReply.CompletionChoice.of(0, CHOICES.get(0), logprobs), ChatCompletionReply.CompletionChoice.of(1, CHOICES.get(1), logprobs)),
                ChatCompletionReply.TokenUsage.of(30, 7), null);
    }

    @Test void aReplyIsWrittenInOpenAisFieldOrderWithTheNullsOpenAiSends() {
        var one = new ChatCompletionReply.Completion("chatcmpl-1", 5, "m", "fp", List.of(new ChatCompletionReply.CompletionChoice(0,
                new ChatCompletionReply.Message("hi"), ChatCompletionReply.Logprobs.of(List.of(new TokenLogprob("é", -0.5,
                        List.of(new TokenLogprob.Alternative("é", -0.5), new TokenLogprob.Alternative("a", -1)))), 1), "stop")),
                new ChatCompletionReply.TokenUsage(3, 1, 4), null);
        assertThat(text(one)).isEqualTo("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":5,\"model\":\"m\",\"system_fingerprint\":\"fp\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"logprobs\":{\"content\":[{\"token\":\"é\","
                + "\"logprob\":-0.5,\"bytes\":[195,169],\"top_logprobs\":[{\"token\":\"é\",\"logprob\":-0.5,\"bytes\":[195,169]}]}],\"refusal\":null},"
                + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,\"total_tokens\":4}}");
        assertThat(text(completion(false))).contains("\"logprobs\":null,\"finish_reason\":\"stop\"").doesNotContain("system_fingerprint", "\"gam\"");
        var chunk = ChatCompletionReply.Chunk.of("c", 5, "m", new ChatCompletionReply.ChunkChoice(0, ChatCompletionReply.Delta.none(), null, null));
        assertThat(text(chunk)).isEqualTo("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":5,\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"delta\":{},\"logprobs\":null,\"finish_reason\":null}]}");
    }

    @Test void errorsAndTheModelListHaveOneShape() {
        assertThat(text(ChatCompletionReply.ErrorReply.of("busy", "rate_limit_exceeded", null)))
                .isEqualTo("{\"error\":{\"message\":\"busy\",\"type\":\"rate_limit_exceeded\",\"code\":null}}");
        assertThat(text(new ChatCompletionReply.ErrorReply(new ChatCompletionReply.ErrorDetail("n: no", "invalid_request_error", "unsupported_parameter", "n"))))
                .isEqualTo("{\"error\":{\"message\":\"n: no\",\"type\":\"invalid_request_error\",\"code\":\"unsupported_parameter\",\"param\":\"n\"}}");
        assertThat(text(ChatCompletionReply.ModelList.of(List.of("gam", "debate"), "gam-agent"))).isEqualTo("{\"object\":\"list\",\"data\":["
                + "{\"id\":\"gam\",\"object\":\"model\",\"created\":0,\"owned_by\":\"gam-agent\"},"
                + "{\"id\":\"debate\",\"object\":\"model\",\"created\":0,\"owned_by\":\"gam-agent\"}]}");
    }

    @Test void whatItWritesTheOneReaderReadsAsMeantWholeAndStreamed() {
        OpenAiReplyContract.Read whole = OpenAiReplyContract.parse(text(completion(true)));
        assertThat(whole.choices()).isEqualTo(CHOICES);
        assertThat(whole.promptTokens()).isEqualTo(30);
        assertThat(whole.completionTokens()).isEqualTo(7);
        assertThat(OpenAiReplyContract.parse(text(completion(false))).choices()).extracting(Choice::text, Choice::logprobs)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ANSWER: B", List.of()), org.assertj.core.groups.Tuple.tuple("ANSWER: é", List.of()));

        ByteArrayOutputStream events = new ByteArrayOutputStream();
        var c = completion(true);
        for (var choice : c.choices()) {
            events.writeBytes(ChatCompletionWriter.event(ChatCompletionReply.Chunk.of(c.id(), c.created(), c.model(), new ChatCompletionReply.ChunkChoice(
                    choice.index(), ChatCompletionReply.Delta.first(choice.message().content()), choice.logprobs(), null))));
            events.writeBytes(ChatCompletionWriter.event(ChatCompletionReply.Chunk.of(c.id(), c.created(), c.model(), new ChatCompletionReply.ChunkChoice(
                    choice.index(), ChatCompletionReply.Delta.none(), null, choice.finishReason())).withUsage(c.usage(), null)));
        }
        events.writeBytes(ChatCompletionWriter.DONE.getBytes(StandardCharsets.UTF_8));
        assertThat(OpenAiReplyContract.parseStream(events.toString(StandardCharsets.UTF_8))).isEqualTo(whole);
    }
}
