package dev.gamagent.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.AnswerJson;
import dev.gamagent.util.Json;

/**
 * An answer in OpenAI's chat-completions response shapes: the whole {@code chat.completion}, the
 * {@code chat.completion.chunk}s of a stream, their {@code usage}, and our {@code gam} object (where a reply without an
 * answer says {@code "answer": null}; its content says so in words, {@link ReplyParameters#NO_ANSWER}).
 */
final class CompletionJson {
    private CompletionJson() { }

    /** The whole reply: the content and finish reason as {@code reply} shapes them, usage, and our {@code gam} object. */
    static ObjectNode completion(Answer a, ReplyParameters.Reply reply, String model, String traceId, String backendName) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("id", "chatcmpl-" + traceId);
        o.put("object", "chat.completion");
        o.put("created", System.currentTimeMillis() / 1000);
        o.put("model", model);
        ArrayNode choices = o.putArray("choices");
        ObjectNode c = choices.addObject();
        c.put("index", 0);
        c.putObject("message").put("role", "assistant").put("content", reply.content());
        c.put("finish_reason", reply.finishReason());
        o.set("usage", usage(a));
        o.set("gam", gam(a, traceId, backendName));
        return o;
    }

    static ObjectNode usage(Answer a) {
        ObjectNode u = Json.MAPPER.createObjectNode();
        u.put("prompt_tokens", a.tokens().prompt());
        u.put("completion_tokens", a.tokens().completion());
        u.put("total_tokens", a.tokens().total());
        return u;
    }

    /** The answer as {@code gam ask --json} gives it, with the backend and the trace's id. */
    static ObjectNode gam(Answer a, String traceId, String backendName) {
        ObjectNode g = AnswerJson.of(a, false);
        g.put("backend", backendName);
        g.put("trace_id", traceId);
        return g;
    }

    static ObjectNode chunk(String id, long created, String model, ObjectNode delta, String finish) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("id", id);
        o.put("object", "chat.completion.chunk");
        o.put("created", created);
        o.put("model", model);
        ObjectNode c = o.putArray("choices").addObject();
        c.put("index", 0);
        c.set("delta", delta);
        if (finish == null) c.putNull("finish_reason"); else c.put("finish_reason", finish);
        return o;
    }
}
