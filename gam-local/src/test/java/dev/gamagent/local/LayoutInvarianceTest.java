package dev.gamagent.local;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Trace;
import dev.gamagent.config.Config;
import dev.gamagent.util.Concurrency;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The built-in model answers a conversation the same whatever its layout (requests.conversation_images): with the images
 * once in the first turn it reads them, counts them and draws its samples as with them in the latest turn.
 */
class LayoutInvarianceTest {

    @Test
    void aConversationsImagesInItsFirstTurnGiveTheSameRepliesAsInItsLatest() {
        for (String method : List.of("mad", "dream+mad")) sameReplies(method);
    }

    /** requests.rounds = conversation: every debater answers every round, reading its peers from its own conversation. */
    @Test
    void aDebateInConversationAnswersEveryRound() {
        Map<String, String> opts = new LinkedHashMap<>(Map.of("A", "red", "B", "blue", "C", "green"));
        var picture = new Drawing(400, 300).triangle(Drawing.RED, 100, 150, 40).triangle(Drawing.BLUE, 300, 150, 40).picture("two");
        Question q = Question.of("q1", List.of(picture), "What color is the triangle?", opts);
        ExecutorService ex = Concurrency.newIoExecutor("layout", 4);
        try {
            Config c = Config.defaults().withOverrides(Map.of("requests.rounds", "conversation", "debate.temperature", "0.7"));
            LocalBackend backend = new LocalBackend(new LocalPerception(new LayoutOcr(), new BlobSceneAnalyzer(), 64));
            Answer a = MethodRegistry.create("debate").run(q, new RunContext(backend, null, c, ex, null));
            List<Trace.AgentTurn> turns = a.trace().rounds().stream().flatMap(r -> r.agents().stream()).toList();
            assertThat(turns).hasSize(9).allSatisfy(t -> assertThat(t.raw()).contains("ANSWER:"));
            assertThat(opts.values()).contains(a.answer());
        } finally {
            ex.shutdownNow();
        }
    }

    private static void sameReplies(String method) {
        Map<String, String> opts = new LinkedHashMap<>();
        opts.put("A", "red");
        opts.put("B", "blue");
        opts.put("C", "green");
        // two triangles: the sides disagree and the moderator lets the debate go on, so later rounds continue conversations
        var picture = new Drawing(400, 300).triangle(Drawing.RED, 100, 150, 40).triangle(Drawing.BLUE, 300, 150, 40).picture("two");
        Question q = Question.of("q1", List.of(picture), "What color is the triangle?", opts);
        List<String> first = turns(method, q, "first"), latest = turns(method, q, "latest");
        assertThat(first).as(method).hasSizeGreaterThan(3).isEqualTo(latest);
    }

    /** Every turn's agent, reply and tokens, at temperature 0.7 so that the draws count. */
    private static List<String> turns(String method, Question q, String images) {
        ExecutorService ex = Concurrency.newIoExecutor("layout", 4);
        try {
            Config c = Config.defaults().withOverrides(Map.of("requests.conversation_images", images, "mad.temperature", "0.7"));
            LocalBackend backend = new LocalBackend(new LocalPerception(new LayoutOcr(), new BlobSceneAnalyzer(), 64));
            Answer a = MethodRegistry.create(method).run(q, new RunContext(backend, null, c, ex, null));
            return a.trace().rounds().stream().flatMap(r -> r.agents().stream())
                    .map((Trace.AgentTurn t) -> t.id() + " " + t.tokens() + "\n" + t.raw()).toList();
        } finally {
            ex.shutdownNow();
        }
    }
}
