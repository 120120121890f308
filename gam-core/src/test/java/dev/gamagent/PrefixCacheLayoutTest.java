package dev.gamagent;

import dev.gamagent.api.Question;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.WireMessages;
import dev.gamagent.testing.MethodFixtures;
import dev.gamagent.testing.PrefixBlocks;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every method's requests as an OpenAI-compatible backend sends them (the wire bytes of {@code messages}), laid out for a
 * server's prefix cache (docs/performance.md, "Requests laid out for the prefix cache"): a conversation's later request
 * extends its earlier one byte for byte up to the reply, and with {@code requests.question_first} every agent's request
 * starts with the same image + question. {@link PrefixBlocks} counts what a 16-token-block cache computes of them.
 */
class PrefixCacheLayoutTest {
    static final List<String> METHODS = List.of("single", "cot", "sc", "vote", "debate", "self-debate", "mad", "div-mad", "dmad",
            "chateval", "debunc", "dwi", "gam", "dream+gam", "dream+debate", "dream+mad", "dream+vote");
    static final String[] BEFORE = {"requests.conversation_images=latest", "requests.question_first=false"};
    static final String[] DEFAULT = {};
    static final String[] QUESTION_FIRST = {"requests.question_first=true"};
    static final String[] CONVERSATION = {"requests.rounds=conversation"};
    static final String CRITIQUE = "CLAIM 1: INACCURATE | REASON: the fill is blue | CORRECTION: blue | CONFIDENCE: 0.8";

    /** Replies that keep every method debating to its last round: low confidence, the moderator never stops. */
    static String script(String user) {
        if (user.contains("<task>critique</task>")) return CRITIQUE;
        if (user.contains("<task>moderate</task>")) return "DECISION: CONTINUE\nANSWER: B\nCONFIDENCE: 0.6";
        return "The triangle looks blue.\nANSWER: B\nCLAIM 1: It might possibly be blue but I am not sure | CONFIDENCE: 0.2 | REGION: 0.1,0.1,0.5,0.5\nCONFIDENCE: 0.2";
    }

    /** A method's requests in the order they were sent, with the layout settings given. */
    static List<ChatRequest> requests(String method, String... settings) {
        List<String> o = new ArrayList<>(List.of(settings));
        o.add("debate.rounds=2"); // the defaults, written out: the figures below depend on them
        ScriptedBackend b = textBackend(PrefixCacheLayoutTest::script);
        MethodRegistry.create(method).run(question(), context(b, o.toArray(String[]::new)));
        synchronized (b.requests) {
            return List.copyOf(b.requests);
        }
    }

    /** The requests that continue a conversation: an assistant turn (the reply to an earlier request) before the last user turn. */
    static List<ChatRequest> continuing(List<ChatRequest> rs) {
        return rs.stream().filter(r -> r.messages().size() >= 3
                && r.messages().get(r.messages().size() - 2).role() == ChatMessage.Role.ASSISTANT).toList();
    }

    /**
     * Whether {@code r} extends, byte for byte, a request sent before it: its messages up to the reply are exactly what
     * that request sent, and the reply is what it was answered.
     */
    static boolean extendsAnEarlierRequest(ChatRequest r, List<ChatRequest> before) {
        List<ChatMessage> ms = r.messages();
        String earlier = WireMessages.of(ms.subList(0, ms.size() - 2));
        String whole = WireMessages.of(ms);
        for (ChatRequest p : before) {
            if (p == r) return false;
            if (WireMessages.of(p).equals(earlier) && whole.startsWith(WireMessages.open(earlier))
                    && ms.get(ms.size() - 2).text().equals(script(user(p)))) return true;
        }
        return false;
    }

    @ParameterizedTest
    @ValueSource(strings = {"mad", "div-mad", "dream+mad"})
    void aConversationsLaterRequestExtendsItsEarlierOneExactlyUpToTheReply(String method) {
        List<ChatRequest> rs = requests(method, DEFAULT);
        List<ChatRequest> cont = continuing(rs);
        assertThat(cont).as("%s keeps conversations", method).isNotEmpty();
        for (ChatRequest r : cont) assertThat(extendsAnEarlierRequest(r, rs)).as("%s: %s", method, r.caller()).isTrue();
        // the images were sent once, in the first user turn, and the latest turn is text
        for (ChatRequest r : cont) {
            assertThat(r.messages().get(r.messages().size() - 1).images()).isEmpty();
            assertThat(imageCount(r)).isEqualTo(1);
        }
        // the layout before: the images moved to the latest turn, so no later request extends the one before it
        List<ChatRequest> latest = requests(method, BEFORE);
        for (ChatRequest r : continuing(latest)) assertThat(extendsAnEarlierRequest(r, latest)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"debate", "self-debate", "dmad", "debunc", "dream+debate"})
    void withRoundsInConversationEachAgentsLaterRoundExtendsItsEarlierRequestExactly(String method) {
        List<ChatRequest> rs = requests(method, CONVERSATION);
        List<ChatRequest> cont = continuing(rs);
        long later = rs.stream().filter(r -> r.caller() != null && r.caller().round() > 0).count();
        assertThat(cont).as("%s: every later round continues a conversation", method).hasSize((int) later).isNotEmpty();
        for (ChatRequest r : cont) {
            assertThat(extendsAnEarlierRequest(r, rs)).as("%s: %s", method, r.caller()).isTrue();
            assertThat(r.messages().size()).as("a user and an assistant turn a round").isEqualTo(2 * r.caller().round() + 1);
            String turn = user(r);
            // only what is new: the task and the instructions, not the question, the agent's own answer or who it is
            assertThat(turn).contains("<task>revise</task>", "ANSWER: <option letter>").doesNotContain("<question>", "<previous>", "<role>");
            assertThat(r.messages().get(r.messages().size() - 1).images()).isEmpty();
            assertThat(imageCount(r)).isEqualTo(1);
            if (!method.equals("self-debate")) assertThat(turn).contains("<peer");
        }
        // fresh rounds (the default): every request is one user turn
        assertThat(continuing(requests(method, DEFAULT))).isEmpty();
    }

    @Test
    void aContinuationLeavesOutWhatTheConversationSaidAndKeepsTheRestInOrder() {
        String first = "<role>debater</role>\n<task>answer</task>\nYou are agent-1, one of several.\n<question>\nQ?\n</question>\nLook.\nReply in this format:\nANSWER: x";
        String revise = "<role>debater</role>\n<task>revise</task>\nYou are agent-1, one of several.\n<question>\nQ?\n</question>\n<previous>\nANSWER: B\n</previous>\n"
                + "<peer id=\"agent-2\">ANSWER: A</peer>\nUse their reasoning.\nReply in this format:\nANSWER: x";
        assertThat(dev.gamagent.engine.RequestLayout.continuation(first, revise))
                .isEqualTo("<task>revise</task>\n<peer id=\"agent-2\">ANSWER: A</peer>\nUse their reasoning.\nReply in this format:\nANSWER: x");
    }

    @Test
    void anUnknownRoundsLayoutIsNamedWithItsValues() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> requests("debate", "requests.rounds=chat"))
                .hasMessageContaining("requests.rounds").hasMessageContaining("'chat'").hasMessageContaining("conversation");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cot", "sc", "vote", "debate", "self-debate", "dmad", "chateval", "debunc", "gam"})
    void withTheQuestionFirstEveryRequestStartsWithTheSameImageAndQuestion(String method) {
        String shared = WireMessages.open(WireMessages.of(List.of(ChatMessage.user("", question().images()))));
        shared = shared.substring(0, shared.length() - "\"}]}".length()) + json("<question>\n" + question().render() + "\n</question>\n");
        List<ChatRequest> rs = requests(method, QUESTION_FIRST);
        assertThat(rs).isNotEmpty();
        for (ChatRequest r : rs) assertThat(WireMessages.of(r)).as("%s: %s", method, user(r)).startsWith(shared);
        // the templates' order (the default): the image is shared, the question comes after each agent's own lines
        String image = shared.substring(0, shared.indexOf("{\"type\":\"text\""));
        for (ChatRequest r : requests(method, DEFAULT)) assertThat(WireMessages.of(r)).startsWith(image).doesNotStartWith(shared);
    }

    @Test
    void theQuestionFirstMovesTheBlockAndKeepsEveryLineOfThePrompt() {
        for (ChatRequest r : requests("debate", QUESTION_FIRST)) {
            String sent = user(r);
            assertThat(sent).startsWith("<question>\n").contains("<role>debater</role>", "<task>", "ANSWER: <option letter>");
            assertThat(sent.length()).isEqualTo(sorted(sent).length());
        }
        List<String> before = requests("debate", DEFAULT).stream().map(MethodFixtures::user).map(PrefixCacheLayoutTest::sorted).sorted().toList();
        List<String> after = requests("debate", QUESTION_FIRST).stream().map(MethodFixtures::user).map(PrefixCacheLayoutTest::sorted).sorted().toList();
        assertThat(after).as("the same lines, in another order").isEqualTo(before);
    }

    /**
     * The figures of docs/performance.md's "Requests laid out for the prefix cache": per method, prompt tokens sent and
     * computed by a 16-token-block prefix cache, before (images with the latest turn), by default and with the question
     * first. Printed for the docs; the assertions hold the direction of each change.
     */
    @Test
    void aPrefixCacheComputesLessOfEveryMethodsRequestsLaidOutForIt() {
        StringBuilder table = new StringBuilder("| method | calls | sent | computed before | computed (default) | computed, question first | sent, rounds in conversation | computed, rounds in conversation |\n|---|---|---|---|---|---|---|---|\n");
        Map<String, long[]> figures = new HashMap<>();
        for (String m : METHODS) {
            long[] f = new long[7];
            int i = 0;
            for (String[] layout : List.of(BEFORE, DEFAULT, QUESTION_FIRST)) {
                PrefixBlocks cache = new PrefixBlocks();
                List<ChatRequest> rs = requests(m, layout);
                rs.forEach(cache::add);
                if (i == 0) { f[3] = rs.size(); f[4] = cache.sent(); }
                else assertThat(cache.sent()).as("%s sends as many tokens in every layout", m).isEqualTo(f[4]);
                f[i++] = cache.computed();
            }
            PrefixBlocks talk = new PrefixBlocks();
            requests(m, CONVERSATION).forEach(talk::add);
            f[5] = talk.sent();
            f[6] = talk.computed();
            figures.put(m, f);
            table.append(String.format(Locale.ROOT, "| `%s` | %d | %d | %d (%.0f%%) | %d (%.0f%%) | %d (%.0f%%) | %d | %d (%.0f%%) |%n", m, f[3], f[4],
                    f[0], 100.0 * f[0] / f[4], f[1], 100.0 * f[1] / f[4], f[2], 100.0 * f[2] / f[4], f[5], f[6], 100.0 * f[6] / f[5]));
        }
        System.out.print(table);
        for (String m : METHODS) {
            long[] f = figures.get(m);
            assertThat(f[1]).as("%s: the default computes no more than before", m).isLessThanOrEqualTo(f[0]);
        }
        for (String m : List.of("mad", "div-mad")) assertThat(figures.get(m)[1]).as(m).isLessThan(figures.get(m)[0]);
        // docs/performance.md, "Rounds as one conversation": a cache that keeps prompts only (this one, the simulator's)
        // computes each earlier reply again, which costs more than the question and quoted answer a fresh round repeats
        for (String m : List.of("debate", "self-debate", "dmad", "debunc", "dream+debate")) {
            assertThat(figures.get(m)[5]).as("%s: a conversation sends its history", m).isGreaterThan(figures.get(m)[4]);
            assertThat(figures.get(m)[6]).as("%s: rounds in conversation compute more here", m).isGreaterThan(figures.get(m)[1]);
        }
        for (String m : List.of("single", "cot", "sc", "vote", "mad", "chateval", "gam")) {
            assertThat(figures.get(m)[6]).as("%s: no round quotes a previous answer, nothing changes", m).isEqualTo(figures.get(m)[1]);
        }
        for (String m : List.of("vote", "debate", "self-debate", "dmad", "debunc", "chateval", "gam")) {
            assertThat(figures.get(m)[2]).as("%s: the question first computes less", m).isLessThan(figures.get(m)[1]);
        }
    }

    /** The characters of a text, sorted: the same for two orders of the same lines. */
    static String sorted(String s) {
        char[] c = s.toCharArray();
        java.util.Arrays.sort(c);
        return new String(c);
    }

    static String json(String s) {
        String q = dev.gamagent.util.Json.write(s);
        return q.substring(1, q.length() - 1);
    }

    /** How many images a request carries, in all its messages. */
    static int imageCount(ChatRequest r) { return r.messages().stream().mapToInt(m -> m.images().size()).sum(); }

    /** The question on an image of the demo's size (704×528: 475 image tokens by {@code image.tokens}'s default rule). */
    static Question question() { return QUESTION; }

    /** One question for every run of the class: its picture is PNG-encoded once, not once per method and layout. */
    private static final Question QUESTION = MethodFixtures.question(704, 528);
}
