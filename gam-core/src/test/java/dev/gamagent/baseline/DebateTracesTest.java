package dev.gamagent.baseline;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.Usage;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.gamagent.testing.MethodFixtures.caps;
import static dev.gamagent.testing.MethodFixtures.context;
import static dev.gamagent.testing.MethodFixtures.question;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The traces of the debates (debate, DebUnc, DMAD, self-debate), as committed in {@code src/test/resources/debate-traces/}:
 * agents that change their answers over the rounds, with log-probs, and a call that fails in round 1 (its agent keeps its
 * previous answer): the round loop debate, DebUnc and DMAD share ({@code DebateRounds.debate}) records, carries over and
 * decides as each did on its own; self-debate, which keeps its own loop, is pinned alongside.
 * {@code -Ddebate.traces.write=true} rewrites the fixtures.
 */
class DebateTracesTest {
    private static final List<String> LETTERS = List.of("A", "B", "C");

    /** Each agent's reply depends on who asks in which round; agents whose id hashes even fail in round 1 (not self-debate's). */
    private static ScriptedBackend backend(boolean failures) {
        return new ScriptedBackend("scripted", caps(true, false, 0), r -> {
            ChatRequest.Caller c = r.caller();
            int h = Math.floorMod(c.agent().hashCode(), 7);
            if (failures && c.round() == 1 && h % 2 == 0) throw new BackendException.Timeout("scripted timeout of " + c.agent(), null);
            String letter = LETTERS.get((h + c.round()) % LETTERS.size());
            double p = 0.5 + 0.1 * ((h + 2 * c.round()) % 5);
            return new ChatResult(List.of(new Choice("Round " + c.round() + " for " + c.agent() + ".\nANSWER: " + letter,
                    List.of(ScriptedBackend.token("ANSWER", 0.99, "The", 0.01), ScriptedBackend.token(letter, p, "D", 1 - p)), "stop")),
                    new Usage(10 + h, 5 + c.round(), false), Duration.ofMillis(1), "scripted");
        });
    }

    private static String trace(Method m, boolean failures) {
        Answer a = m.run(question(), context(backend(failures)));
        ObjectNode t = Json.MAPPER.valueToTree(a.trace());
        t.remove("millis");
        return Json.writePretty(t) + "\n";
    }

    @Test void theDebatesRecordCarryOverAndDecideAsCommitted() throws Exception {
        Path dir = Path.of("gam-core/src/test/resources/debate-traces");
        boolean write = Boolean.getBoolean("debate.traces.write");
        Map<String, String> now = Map.of("debate", trace(new DebateMethod(), true), "debunc", trace(new DebuncMethod(), true),
                "debunc-weighted", traceWeighted(), "dmad", trace(new DmadMethod(), true), "self-debate", trace(new SelfDebateMethod(), false));
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(now).entrySet()) {
            Path f = dir.resolve(e.getKey() + ".json");
            if (write) Files.writeString(f, e.getValue(), StandardCharsets.UTF_8);
            assertThat(e.getValue()).as(e.getKey()).isEqualTo(Files.readString(f, StandardCharsets.UTF_8));
        }
        assertThat(now.get("debate")).as("a call failed in round 1").contains("scripted timeout");
        assertThat(now.get("dmad")).contains("scripted timeout");
    }

    private static String traceWeighted() {
        Answer a = new DebuncMethod().run(question(), context(backend(true), "debunc.decision=weighted"));
        ObjectNode t = Json.MAPPER.valueToTree(a.trace());
        t.remove("millis");
        return Json.writePretty(t) + "\n";
    }
}
