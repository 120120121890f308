package dev.gamagent.engine;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;

/**
 * What an agent was asked, as text for the trace ({@code trace.prompts}): every message's text, images as
 * {@code [image 2: 844×634]} notes, never their bytes. The trace's outputs scrub it like every other string
 * ({@code gam serve}'s trace store, {@code gam ask --trace}, {@code gam eval}'s records: one {@code SecretScrubber}).
 */
public final class PromptText {
    /** The setting: {@code true} records the prompts in traces ({@code gam ask} and {@code gam serve} turn it on by default). */
    public static final String SETTING = "trace.prompts";

    private PromptText() { }

    /** Whether this run records prompts. */
    public static boolean enabled(Config config) { return config.bool(SETTING); }

    /** The request's messages as text: a role line before each message unless it is one user message. */
    public static String of(ChatRequest request) {
        StringBuilder sb = new StringBuilder();
        var messages = request.messages();
        boolean roles = messages.size() != 1 || messages.get(0).role() != ChatMessage.Role.USER;
        int image = 0;
        for (ChatMessage m : messages) {
            if (roles) sb.append('[').append(m.role().wire()).append("]\n");
            for (ChatMessage.Part p : m.parts()) {
                if (p instanceof ChatMessage.Image img) {
                    Picture pic = img.picture();
                    sb.append("[image ").append(++image).append(": ").append(pic.width()).append('×').append(pic.height()).append("]\n");
                } else if (p instanceof ChatMessage.Text t) {
                    sb.append(t.text());
                    if (!t.text().endsWith("\n")) sb.append('\n');
                }
            }
        }
        return sb.toString().stripTrailing();
    }
}
