package dev.gamagent.engine;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How an agent's messages are laid out for a model server's prefix cache (docs/performance.md, "Requests laid out for
 * the prefix cache"). A server with automatic prefix caching (vLLM, SGLang, hosted prompt caching) computes again only
 * what is not a prefix of a prompt it has seen, so:
 * <ul>
 *   <li>{@code requests.conversation_images = first}: an agent that keeps a conversation (mad) sends its images once, in
 *       the turn that first carried them, and each later request extends the earlier one exactly; {@code latest} moves
 *       them to the latest user turn instead (the layout before; the whole conversation after the first turn is then
 *       computed again each round, images included).</li>
 *   <li>{@code requests.question_first = true}: the prompt's {@code <question>} block goes before the per-agent text
 *       (role, task, persona), so every agent's request shares image + question; {@code false} keeps the templates'
 *       order, as the papers write their prompts.</li>
 * </ul>
 *   <li>{@code requests.rounds = conversation}: an agent's later rounds (a prompt that quotes its {@code <previous>}
 *       answer: debate, DebUnc, DMAD, self-debate) continue its own conversation, as Du et al.'s debate does: round r's
 *       request is round r − 1's, its reply as an assistant turn, then a user turn with only what is new
 *       ({@link #continuation}); {@code fresh} (the default) sends each round a fresh prompt quoting the previous round.</li>
 * </ul>
 * The first two do not change the words an agent is told: the first moves where its images sit, the second the order of
 * its lines. The third tells it the same things in another form: its previous answer is its own earlier reply, whole
 * (with the confidence it stated), where a fresh prompt quotes that reply's reasoning and answer.
 *
 * @param imagesInFirstTurn    {@code requests.conversation_images} is {@code first}
 * @param questionFirst        {@code requests.question_first}
 * @param roundsInConversation {@code requests.rounds} is {@code conversation}
 */
public record RequestLayout(boolean imagesInFirstTurn, boolean questionFirst, boolean roundsInConversation) {
    public static final String CONVERSATION_IMAGES_KEY = "requests.conversation_images";
    public static final String QUESTION_FIRST_KEY = "requests.question_first";
    public static final String ROUNDS_KEY = "requests.rounds";
    /** The layout before these settings existed: images with the latest turn, the templates' order, fresh rounds. */
    public static final RequestLayout LATEST_TURN = new RequestLayout(false, false, false);

    private static final String OPEN = "<question>", CLOSE = "</question>";
    private static final java.util.regex.Pattern QUESTION_BLOCK = block("question"), PREVIOUS_BLOCK = block("previous");

    /** A {@code <tag>...</tag>} block of a prompt with the line break after it. */
    private static java.util.regex.Pattern block(String tag) {
        return java.util.regex.Pattern.compile("<" + tag + ">.*?</" + tag + ">\\R?", java.util.regex.Pattern.DOTALL);
    }

    /** The layout a configuration asks for; an unknown {@code requests.conversation_images} names the two values. */
    public static RequestLayout of(Config config) {
        String images = config.string(CONVERSATION_IMAGES_KEY).strip().toLowerCase(Locale.ROOT);
        if (!images.equals("first") && !images.equals("latest")) {
            throw new Config.ConfigException("config " + CONVERSATION_IMAGES_KEY + " must be 'first' (a conversation's images stay in "
                    + "its first turn) or 'latest' (they move to the latest user turn), got '" + config.string(CONVERSATION_IMAGES_KEY) + "'");
        }
        String rounds = config.string(ROUNDS_KEY).strip().toLowerCase(Locale.ROOT);
        if (!rounds.equals("fresh") && !rounds.equals("conversation")) {
            throw new Config.ConfigException("config " + ROUNDS_KEY + " must be 'fresh' (each round a fresh prompt quoting the previous "
                    + "round) or 'conversation' (each agent's rounds continue its own conversation), got '" + config.string(ROUNDS_KEY) + "'");
        }
        return new RequestLayout(images.equals("first"), config.bool(QUESTION_FIRST_KEY), rounds.equals("conversation"));
    }

    /** Whether {@code prompt} is a later round that quotes the agent's previous answer, which a conversation continues. */
    public boolean continues(String prompt) {
        return roundsInConversation && prompt.contains("<previous>");
    }

    /**
     * The user turn that continues an agent's conversation whose first user turn was {@code first}: {@code revise} (the
     * fresh prompt of a later round) without what the conversation already says: its {@code <question>} block (in the
     * first turn), its {@code <previous>} block (the agent's own reply, the assistant turn before) and the lines before
     * the question that the first turn had too (role, who the agent is). What is new stays, in its order: the task,
     * the peers' answers, the instructions, the format.
     */
    public static String continuation(String first, String revise) {
        int q = first.indexOf(OPEN);
        java.util.Set<String> said = new java.util.HashSet<>(java.util.Arrays.asList((q < 0 ? first : first.substring(0, q)).split("\\R")));
        String rest = PREVIOUS_BLOCK.matcher(QUESTION_BLOCK.matcher(revise).replaceFirst("")).replaceFirst("");
        StringBuilder out = new StringBuilder();
        for (String line : rest.split("\\R", -1)) {
            if (!line.isBlank() && said.contains(line) && !line.strip().startsWith("<task>")) continue;
            if (out.length() > 0) out.append('\n');
            out.append(line);
        }
        return out.toString().replaceAll("\\n{3,}", "\n\n").strip();
    }

    /**
     * A prompt as sent: with {@link #questionFirst}, its first {@code <question>...</question>} block moved to the front
     * (followed by a newline, the newline after the block dropped), so the text keeps its length and its lines.
     */
    public String text(String prompt) {
        return questionFirst ? questionFirst(prompt) : prompt;
    }

    static String questionFirst(String prompt) {
        int open = prompt.indexOf(OPEN);
        if (open <= 0) return prompt;
        int close = prompt.indexOf(CLOSE, open);
        if (close < 0) return prompt;
        int end = close + CLOSE.length();
        String block = prompt.substring(open, end);
        String after = prompt.substring(end);
        if (after.startsWith("\n")) after = after.substring(1);
        return block + "\n" + prompt.substring(0, open) + after;
    }

    /**
     * An agent's request: an optional system message, its earlier turns (user and assistant, text only, as it sent and
     * received them), then the user turn with {@code own} pictures (the agent's images, the same every round) and
     * {@code extra} ones (this turn's, such as marked evidence). With {@link #imagesInFirstTurn} and an earlier user turn,
     * {@code own} goes into that first user turn, as it was sent the first time, and the latest turn carries only
     * {@code extra}.
     */
    public List<ChatMessage> messages(String system, List<ChatMessage> earlier, String user, List<Picture> own, List<Picture> extra) {
        List<ChatMessage> out = new ArrayList<>(earlier.size() + 2);
        if (system != null && !system.isBlank()) out.add(ChatMessage.system(system));
        int first = -1;
        for (int i = 0; i < earlier.size() && first < 0; i++) if (earlier.get(i).role() == ChatMessage.Role.USER) first = i;
        boolean moved = imagesInFirstTurn && first >= 0 && !own.isEmpty();
        for (int i = 0; i < earlier.size(); i++) {
            ChatMessage m = earlier.get(i);
            // an earlier user turn as it was sent (text() is idempotent), with the images when it was the first
            out.add(m.role() != ChatMessage.Role.USER ? m : asSent(m, moved && i == first ? own : List.of()));
        }
        List<Picture> latest = new ArrayList<>(moved ? List.of() : own);
        latest.addAll(extra);
        out.add(ChatMessage.user(text(user), latest));
        return out;
    }

    /** User turn {@code m} as {@link #text} lays its text out, with {@code images} before its parts as {@link ChatMessage#user} puts them. */
    private ChatMessage asSent(ChatMessage m, List<Picture> images) {
        List<ChatMessage.Part> parts = new ArrayList<>();
        for (Picture p : images) parts.add(new ChatMessage.Image(p, null));
        for (ChatMessage.Part p : m.parts()) parts.add(p instanceof ChatMessage.Text t ? new ChatMessage.Text(text(t.text())) : p);
        return new ChatMessage(m.role(), parts);
    }

    /**
     * The pictures a request asks about, whatever its layout: the last user message's, or when it has none, those of the
     * latest user message that has some (a conversation that sent its images once, in its first turn). The built-in
     * model reads these.
     */
    public static List<Picture> askedImages(List<ChatMessage> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            ChatMessage m = messages.get(i);
            if (m.role() != ChatMessage.Role.USER) continue;
            List<Picture> pics = m.images();
            if (!pics.isEmpty()) return pics;
        }
        return List.of();
    }
}
