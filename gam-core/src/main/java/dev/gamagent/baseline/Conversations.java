package dev.gamagent.baseline;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.engine.RequestLayout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each agent's conversation when a panel's rounds are one conversation per agent ({@code requests.rounds =
 * conversation}, {@link RequestLayout#continues}): the user turns it was sent (text as rendered; {@link RequestLayout}
 * puts the images back where they were) and its replies. A round whose call failed adds nothing, so the next turn
 * follows the agent's last reply. One instance per {@link Panel}; an agent's turns come one after another.
 */
final class Conversations {
    /** What an agent is sent next: its earlier turns (empty for a fresh request) and the user turn's text. */
    record Next(List<ChatMessage> earlier, String user) { }

    private final RequestLayout layout;
    private final Map<String, List<ChatMessage>> byAgent = new ConcurrentHashMap<>();

    Conversations(RequestLayout layout) { this.layout = layout; }

    /** The request of agent {@code id} for {@code prompt}: a continuation of its conversation when the layout says so. */
    Next next(String id, String prompt) {
        List<ChatMessage> talk = byAgent.get(id);
        if (talk == null || talk.isEmpty() || !layout.continues(prompt)) return new Next(List.of(), prompt);
        return new Next(List.copyOf(talk), RequestLayout.continuation(talk.get(0).text(), prompt));
    }

    /**
     * Keeps agent {@code id}'s turn: {@code sent} (as {@link #next} gave it) and {@code reply} (null when the call failed,
     * which keeps nothing). A fresh request starts the conversation again from it.
     */
    void answered(String id, Next sent, String reply) {
        if (!layout.roundsInConversation() || reply == null) return;
        List<ChatMessage> talk = new ArrayList<>(sent.earlier());
        talk.add(ChatMessage.user(sent.user(), List.of()));
        talk.add(ChatMessage.assistant(reply));
        byAgent.put(id, talk);
    }
}
