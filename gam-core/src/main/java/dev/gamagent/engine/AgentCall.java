package dev.gamagent.engine;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.internal.Sampling;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.image.Picture;
import dev.gamagent.uncertainty.Estimate;
import dev.gamagent.uncertainty.UncertaintyEstimator;

import java.util.ArrayList;
import java.util.List;

/**
 * One agent call: a system prompt and a user turn (text and images at the agent's scale) sent to a
 * backend, with the reply's uncertainty computed from the best signal the backend gave.
 */
public final class AgentCall {
    private AgentCall() { }

    /** What came back from one call. */
    public record Reply(String text, Choice choice, ChatResult result, Estimate uncertainty, TokenCount tokens) { }

    /**
     * Sends the request and estimates uncertainty over all tokens.
     *
     * @param scale  image scale relative to the given pictures (1 = as given), capped by the backend's pixel limit
     */
    public static Reply ask(Backend backend, String system, String user, List<Picture> images, double scale,
                            Sampling sampling, UncertaintyEstimator estimator) {
        ChatResult r = backend.chat(sampling.request(messages(backend, system, user, images, scale)));
        Choice c = r.first();
        return new Reply(c.text(), c, r, estimator.estimate(c), r.usage().toTokenCount());
    }

    public static List<ChatMessage> messages(Backend backend, String system, String user, List<Picture> images, double scale) {
        List<ChatMessage> msgs = new ArrayList<>(2);
        if (system != null && !system.isBlank()) msgs.add(ChatMessage.system(system));
        msgs.add(ChatMessage.user(user, scaleAll(images, scale, backend.capabilities().maxImagePixels())));
        return msgs;
    }

    public static List<Picture> scaleAll(List<Picture> images, double scale, long maxPixels) {
        if (scale == 1.0 && images.stream().allMatch(p -> maxPixels <= 0 || p.pixels() <= maxPixels)) return images;
        return images.stream().map(p -> p.scaled(scale, maxPixels)).toList();
    }
}
