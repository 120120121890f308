package dev.gamagent.langchain4j;

import dev.gamagent.backend.TokenLogprob;
import dev.langchain4j.model.chat.response.ChatResponse;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Log-probs as LangChain4j providers return them: langchain4j-core has no type for them, so a provider's metadata
 * carries its own (OpenAI's {@code OpenAiChatResponseMetadata.logProbs()}: a list of {@code LogProb} with
 * {@code token()}, {@code logprob()} and {@code topLogprobs()}). This reads any metadata of that shape without
 * depending on the provider's module.
 */
public final class LogprobReader {
    private LogprobReader() { }

    /**
     * The per-token log-probs of {@code response}'s metadata ({@code logProbs()} or {@code logprobs()}), empty when it has
     * none. A provider whose metadata has that method with another shape is an error naming the type.
     */
    public static List<TokenLogprob> fromMetadata(ChatResponse response) {
        Object meta = response.metadata();
        if (meta == null) return List.of();
        Object list = call(meta, "logProbs", "logprobs");
        if (!(list instanceof List<?> tokens)) return List.of();
        List<TokenLogprob> out = new ArrayList<>();
        for (Object t : tokens) {
            List<TokenLogprob.Alternative> top = new ArrayList<>();
            if (call(t, "topLogprobs", "topLogProbs") instanceof List<?> alternatives) {
                for (Object a : alternatives) top.add(new TokenLogprob.Alternative(text(a), logprob(a)));
            }
            out.add(new TokenLogprob(text(t), logprob(t), top));
        }
        return out;
    }

    private static String text(Object token) {
        Object s = call(token, "token");
        if (!(s instanceof String text)) throw new IllegalStateException(token.getClass().getName() + " has no token() text: not a log-prob");
        return text;
    }

    private static double logprob(Object token) {
        Object v = call(token, "logprob", "logProb");
        if (!(v instanceof Number n)) throw new IllegalStateException(token.getClass().getName() + " has no numeric logprob(): not a log-prob");
        return n.doubleValue();
    }

    /** The first of {@code names} that {@code o} has as a public method without parameters, called; null when none. */
    private static Object call(Object o, String... names) {
        for (String n : names) {
            Method m;
            try {
                m = o.getClass().getMethod(n);
            } catch (NoSuchMethodException e) {
                continue;
            }
            try {
                return m.invoke(o);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + o.getClass().getName() + "." + n + "(): " + e, e);
            }
        }
        return null;
    }
}
