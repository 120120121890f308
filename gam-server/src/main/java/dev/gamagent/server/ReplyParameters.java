package dev.gamagent.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.AnswerJson;
import dev.gamagent.backend.internal.TokenEstimator;
import dev.gamagent.backend.openai.ChatCompletionRequest;
import dev.gamagent.util.Json;

import java.util.List;
import java.util.Map;

/**
 * A request's parameters as {@code gam serve} takes them (docs/SERVER.md, "Request parameters"): each one the official
 * OpenAI SDK can send is honoured, accepted with its lack of effect documented, or refused with a 400 naming it — none
 * is dropped unseen. What is honoured shapes only the reply the client receives ({@code max_tokens}, {@code stop},
 * {@code response_format}); the agents' own calls follow the method's settings whatever the client asked.
 *
 * @param maxTokens {@code max_completion_tokens} or {@code max_tokens}: the most tokens of content the client receives; null for no bound
 * @param stop      the stop sequences: the content ends before the first of them; empty for none
 * @param json      {@code response_format} {@code json_object}: the content is one JSON object
 */
record ReplyParameters(Integer maxTokens, List<String> stop, boolean json) {
    /**
     * The content of a reply whose method reached no answer (the agents hold no opinion): a sentence, never null, that
     * VLMEvalKit's matcher reads as a refusal (it starts with one of its {@code reject_to_answer} phrases, see
     * {@code engine.AnswerExtractor}) and that names no option letter, so no harness grades it as a choice.
     */
    static final String NO_ANSWER = AnswerJson.NO_ANSWER;

    /** OpenAI's limit on stop sequences. */
    static final int MAX_STOP = 4;

    /** Parameters that change nothing here, and why: accepted so that clients sending them work, documented so none is silently lost. */
    static final Map<String, String> WITHOUT_EFFECT = Map.ofEntries(
            Map.entry("temperature", "each method's recipe sets its agents' sampling"),
            Map.entry("top_p", "each method's recipe sets its agents' sampling"),
            Map.entry("seed", "each method's recipe sets its agents' sampling"),
            Map.entry("frequency_penalty", "each method's recipe sets its agents' sampling"),
            Map.entry("presence_penalty", "each method's recipe sets its agents' sampling"),
            Map.entry("stream_options", "a stream's last chunk always carries usage"),
            Map.entry("modalities", "the reply is text (audio is refused)"),
            Map.entry("parallel_tool_calls", "no tools are called"),
            Map.entry("prediction", "a latency hint for one model's output"),
            Map.entry("reasoning_effort", "the agents' models are the server's"),
            Map.entry("verbosity", "the reply is the panel's answer"),
            Map.entry("user", "bookkeeping"),
            Map.entry("metadata", "bookkeeping"),
            Map.entry("store", "bookkeeping; traces are kept by the server's own rules"),
            Map.entry("service_tier", "bookkeeping"),
            Map.entry("prompt_cache_key", "bookkeeping"),
            Map.entry("safety_identifier", "bookkeeping"));

    /** Parameters asking for what a panel's answer cannot be, and why. */
    static final Map<String, String> REFUSED = Map.of(
            "tools", "the methods answer the question and call no tools; leave tools out",
            "functions", "the methods answer the question and call no functions; leave functions out",
            "function_call", "the methods answer the question and call no functions; leave function_call out",
            "logit_bias", "the answer is the panel's decision, not one model's tokens, so token biases cannot apply; leave logit_bias out",
            "audio", "the reply is text; leave audio out",
            "web_search_options", "the methods answer from the images; leave web_search_options out");

    ReplyParameters {
        stop = stop == null ? List.of() : List.copyOf(stop);
    }

    /** The parameters of {@code wire}, or an {@link ApiError} 400 naming the first one that cannot be honoured. */
    static ReplyParameters of(ChatCompletionRequest wire) {
        if (wire.n() != 1) {
            throw ApiError.unsupportedParameter("n", "gam serve answers with one choice (each method already combines its agents' "
                    + "answers into one); send n=1, or several requests");
        }
        if (wire.logprobs()) {
            throw ApiError.unsupportedParameter("logprobs", "the reply is the panel's decision, not one model's tokens, so it has no "
                    + "token log-probabilities; its confidence and uncertainty are in the reply's gam object");
        }
        if (wire.topLogprobs() > 0) {
            throw ApiError.unsupportedParameter("top_logprobs", "the reply has no token log-probabilities (see logprobs); "
                    + "send top_logprobs=0 or leave it out");
        }
        if (wire.toolChoice() != null && !wire.toolChoice().equals("none")) {
            throw ApiError.unsupportedParameter("tool_choice", "'" + wire.toolChoice() + "': the methods call no tools; "
                    + "send \"none\" or leave tool_choice out");
        }
        boolean json = false;
        if (wire.response() != null && wire.response().type() != null) {
            switch (wire.response().type()) {
                case "text" -> { }
                case "json_object" -> json = true;
                case "json_schema" -> throw ApiError.unsupportedParameter("response_format", "json_schema is not supported: the reply "
                        + "is the panel's answer; ask for {\"type\": \"json_object\"} to receive it as {\"answer\", \"option\", \"confidence\"}");
                default -> throw ApiError.unsupportedParameter("response_format", "type '" + wire.response().type()
                        + "' is not one of text, json_object");
            }
        }
        if (wire.stop() != null && wire.stop().size() > MAX_STOP) {
            throw ApiError.unsupportedParameter("stop", "at most " + MAX_STOP + " stop sequences, got " + wire.stop().size());
        }
        for (String name : wire.others()) {
            String why = REFUSED.get(name);
            if (why != null) throw ApiError.unsupportedParameter(name, why);
            if (!WITHOUT_EFFECT.containsKey(name)) {
                // OpenAI's own answer to a field it does not define, which is also what keeps a typo from passing unseen
                throw ApiError.unsupportedParameter(name, "unrecognized request argument; gam serve takes OpenAI's chat-completions "
                        + "parameters (docs/SERVER.md lists what each does here)");
            }
        }
        List<String> stop = wire.stop() == null ? List.of() : wire.stop().stream().filter(s -> !s.isEmpty()).toList();
        return new ReplyParameters(wire.maxTokens(), stop, json);
    }

    /** The reply as the client receives it: its content and OpenAI's {@code finish_reason}. */
    record Reply(String content, String finishReason) { }

    /**
     * The answer as content: "B. text" for a chosen option (so that matchers reading the letter and those reading the
     * text both work), the text for an open answer, {@link #NO_ANSWER} when there is none, or that as a JSON object;
     * then cut before the first stop sequence ({@code finish_reason} "stop") and to {@code maxTokens} tokens
     * ({@code "length"} when that cut it).
     */
    Reply reply(Answer a) {
        String content = json ? jsonContent(a) : content(a);
        String finish = "stop";
        int at = -1;
        for (String s : stop) {
            int i = content.indexOf(s);
            if (i >= 0 && (at < 0 || i < at)) at = i;
        }
        if (at >= 0) content = content.substring(0, at);
        if (maxTokens != null) {
            String cut = TokenEstimator.firstTokens(content, maxTokens);
            if (cut.length() < content.length()) {
                content = cut;
                finish = "length";
            }
        }
        return new Reply(content, finish);
    }

    /** The answer as text, whatever the parameters. */
    static String content(Answer a) { return AnswerJson.text(a); }

    private static String jsonContent(Answer a) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        boolean none = a.answer() == null || a.answer().isBlank();
        if (none) o.putNull("answer"); else o.put("answer", a.answer());
        if (a.option() == null || none) o.putNull("option"); else o.put("option", a.option());
        o.put("confidence", a.confidence());
        if (none) o.put("note", NO_ANSWER);
        return Json.write(o);
    }
}
