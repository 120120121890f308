package dev.gamagent.testing;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.Usage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * A test tool, never a result: answers each request with a function of the request and records every
 * request, so orchestration tests can assert what each agent was shown.
 */
public final class ScriptedBackend implements Backend {
    private final String name;
    private final Function<ChatRequest, ChatResult> script;
    private final Capabilities caps;
    public final List<ChatRequest> requests = Collections.synchronizedList(new ArrayList<>());

    public ScriptedBackend(String name, Capabilities caps, Function<ChatRequest, ChatResult> script) {
        this.name = name;
        this.caps = caps;
        this.script = script;
    }

    /** Replies with fixed text and no log-probs. */
    public static ScriptedBackend text(Function<ChatRequest, String> f) {
        return new ScriptedBackend("scripted", new Capabilities(true, false, 0, true, true, 0),
                r -> result(f.apply(r), List.of()));
    }

    public static ChatResult result(String text, List<TokenLogprob> logprobs) {
        return new ChatResult(List.of(new Choice(text, logprobs, "stop")), new Usage(10, Math.max(1, text.length() / 4), false),
                Duration.ofMillis(1), "scripted");
    }

    /** A token with top-k alternatives given as (token, probability) pairs; the first is the chosen one. */
    public static TokenLogprob token(Object... tokenProbPairs) {
        List<TokenLogprob.Alternative> top = new ArrayList<>();
        for (int i = 0; i < tokenProbPairs.length; i += 2) {
            top.add(new TokenLogprob.Alternative((String) tokenProbPairs[i], Math.log(((Number) tokenProbPairs[i + 1]).doubleValue())));
        }
        return new TokenLogprob(top.get(0).token(), top.get(0).logprob(), top);
    }

    @Override public String name() { return name; }

    @Override public Capabilities capabilities() { return caps; }

    @Override public ChatResult chat(ChatRequest request) throws BackendException {
        requests.add(request);
        return script.apply(request);
    }
}
