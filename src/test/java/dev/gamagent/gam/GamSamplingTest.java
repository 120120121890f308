package dev.gamagent.gam;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.Usage;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.gamagent.gam.GamControllerTest.config;
import static dev.gamagent.gam.GamControllerTest.prompt;
import static dev.gamagent.gam.GamControllerTest.tag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The controller with {@code gam.uncertainty_fallback = sampling} on a scripted backend without log-probs. */
class GamSamplingTest {
    /** Each role's successive sampled replies (cycled); revisions and critiques reuse the role's list. */
    private static ScriptedBackend sampled(Map<String, List<String>> byRole) {
        Map<String, AtomicInteger> next = new ConcurrentHashMap<>();
        return new ScriptedBackend("sampled", new Capabilities(true, false, 0, true, false, 0), r -> {
            String text = prompt(r), role = tag(text, "role"), task = tag(text, "task");
            List<String> replies = task.equals("critique")
                    ? List.of("CLAIM 1: ACCURATE | REASON: fine | CORRECTION: none | CONFIDENCE: 0.8")
                    : byRole.getOrDefault(role, List.of("ANSWER: A"));
            List<Choice> cs = new ArrayList<>();
            for (int i = 0; i < r.n(); i++) {
                int at = next.computeIfAbsent(role + task, x -> new AtomicInteger()).getAndIncrement();
                cs.add(new Choice(replies.get(at % replies.size()), List.of(), "stop"));
            }
            return new ChatResult(cs, new Usage(10, 5, false), Duration.ofMillis(1), "sampled");
        });
    }

    @Test void anExpertWhoseSamplesMostlyDeclineDeclinesAndKeepsNoOpinion() {
        var b = sampled(Map.of(
                "scene expert", List.of("ANSWER: A"),
                "ocr expert", List.of("ANSWER: NOT APPLICABLE", "ANSWER: NOT APPLICABLE", "ANSWER: B"),
                "relational expert", List.of("ANSWER: A", "ANSWER: A", "ANSWER: C")));
        Answer a = GamControllerTest.run(b, config("gam.uncertainty_fallback", "sampling"), GamControllerTest.mcq());
        Trace.Round r0 = a.trace().rounds().get(0);
        Map<String, Trace.AgentTurn> byId = new java.util.HashMap<>();
        for (Trace.AgentTurn t : r0.agents()) byId.put(t.id(), t);
        assertThat(byId.get("ocr").answer()).isEqualTo("NOT APPLICABLE");
        assertThat(byId.get("ocr").uncertainty()).isEqualTo(1.0);
        assertThat(byId.get("scene").signal()).isEqualTo("sampling");
        // four options: A,A,A → p(A) = (3 + 1/4)/4, U = (1 − p)·4/3 = 0.25; A,A,C → p(A) = (2 + 1/4)/4, U = 7/12
        assertThat(byId.get("scene").uncertainty()).isCloseTo(0.25, within(1e-9));
        assertThat(byId.get("relational").uncertainty()).isCloseTo(7.0 / 12, within(1e-9));
        @SuppressWarnings("unchecked") Map<String, List<String>> samples = (Map<String, List<String>>) r0.extra().get("samples");
        assertThat(samples.get("ocr")).containsExactly("not applicable", "not applicable", "B");
        assertThat(a.option()).isEqualTo("A");
        assertThat(a.calls()).isEqualTo(b.requests.size());
    }

    @Test void anOpenAnswerIsTheMedoidOfItsSamples() {
        var b = sampled(Map.of(
                "scene expert", List.of("ANSWER: stop sign", "ANSWER: a stop sign", "ANSWER: exit"),
                "ocr expert", List.of("ANSWER: STOP"),
                "relational expert", List.of("ANSWER: NOT APPLICABLE")));
        Answer a = GamControllerTest.run(b, config("gam.uncertainty_fallback", "sampling", "gam.embedding", "none"), GamControllerTest.open());
        Trace.AgentTurn scene = a.trace().rounds().get(0).agents().stream().filter(t -> t.id().equals("scene")).findFirst().orElseThrow();
        assertThat(scene.answer()).isEqualTo("stop sign");
        // Jaccard: {stop,sign} vs {a,stop,sign} = 2/3, vs {exit} = 0, {a,stop,sign} vs {exit} = 0
        assertThat(scene.uncertainty()).isCloseTo(1 - (2.0 / 3) / 3, within(1e-9));
        assertThat(scene.signal()).isEqualTo("sampling");
    }
}
