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
    private static final java.util.concurrent.ExecutorService EXEC = java.util.concurrent.Executors.newFixedThreadPool(4);

    @org.junit.jupiter.api.AfterAll static void stop() { EXEC.shutdownNow(); }

    private static Answer run(ScriptedBackend b, dev.gamagent.config.Config c, dev.gamagent.api.Question q) {
        return dev.gamagent.MethodRegistry.create("gam").run(q, new dev.gamagent.api.RunContext(b, null, c, EXEC, null));
    }

    /**
     * Each role's replies: a greedy request (temperature 0) gets the role's first reply, sampled requests take its
     * replies in turn (cycled); critiques accept every claim.
     */
    private static ScriptedBackend sampled(Map<String, List<String>> byRole) {
        Map<String, AtomicInteger> next = new ConcurrentHashMap<>();
        return new ScriptedBackend("sampled", new Capabilities(true, false, 0, true, false, 0), r -> {
            String text = prompt(r), role = tag(text, "role"), task = tag(text, "task");
            List<String> replies = task.equals("critique")
                    ? List.of("CLAIM 1: ACCURATE | REASON: fine | CORRECTION: none | CONFIDENCE: 0.8")
                    : byRole.getOrDefault(role, List.of("ANSWER: A"));
            List<Choice> cs = new ArrayList<>();
            for (int i = 0; i < r.n(); i++) {
                int at = r.temperature() > 0 ? next.computeIfAbsent(role + task, x -> new AtomicInteger()).getAndIncrement() : 0;
                cs.add(new Choice(replies.get(at % replies.size()), List.of(), "stop"));
            }
            return new ChatResult(cs, new Usage(10, 5, false), Duration.ofMillis(1), "sampled");
        });
    }

    @Test void anExpertKeepsItsGreedyAnswerAndItsSamplesSetOnlyItsUncertainty() {
        var b = sampled(Map.of(
                "scene expert", List.of("ANSWER: A"),
                "ocr expert", List.of("ANSWER: NOT APPLICABLE", "ANSWER: B"),
                "relational expert", List.of("ANSWER: C", "ANSWER: A", "ANSWER: NOT APPLICABLE")));
        Answer a = run(b, config("gam.uncertainty_fallback", "sampling", "gam.ablation.no_debate", "true"), GamControllerTest.mcq());
        Trace.Round r0 = a.trace().rounds().get(0);
        Map<String, Trace.AgentTurn> byId = new java.util.HashMap<>();
        for (Trace.AgentTurn t : r0.agents()) byId.put(t.id(), t);
        // the OCR expert declined: it holds no opinion, so nothing is sampled for it (its samples would be wasted)
        assertThat(byId.get("ocr").answer()).isEqualTo("NOT APPLICABLE");
        assertThat(byId.get("ocr").signal()).isEqualTo("fixed");
        @SuppressWarnings("unchecked") Map<String, List<String>> samples = (Map<String, List<String>>) r0.extra().get("samples");
        assertThat(samples).doesNotContainKey("ocr");
        // four options; scene: A,A,A → p(A) = (3 + 1/4)/4, U = (1 − p)·4/3 = 0.25
        assertThat(byId.get("scene").signal()).isEqualTo("sampling");
        assertThat(byId.get("scene").uncertainty()).isCloseTo(0.25, within(1e-9));
        // relational answered C greedily; its samples C, A and a decline (unreadable: 1/4 to every option):
        // p(C) = (1 + 1/4 + 1/4)/4, U = (1 − p)·4/3 = 0.833…
        assertThat(byId.get("relational").option()).isEqualTo("C");
        assertThat(samples.get("relational")).containsExactly("C", "A", null);
        assertThat(byId.get("relational").uncertainty()).isCloseTo((1 - 1.5 / 4) * 4 / 3, within(1e-9));
        // every request is counted: 3 greedy answers and 2 sample requests
        assertThat(b.requests).hasSize(5);
        assertThat(a.calls()).isEqualTo(5);
        assertThat(a.tokens().prompt()).isEqualTo(50);
    }

    @Test void anOpenAnswersUncertaintyIsOneMinusTheMeanPairwiseSimilarityOfItAndItsSamples() {
        var b = sampled(Map.of(
                "scene expert", List.of("ANSWER: stop sign", "ANSWER: a stop sign", "ANSWER: exit"),
                "ocr expert", List.of("ANSWER: STOP"),
                "relational expert", List.of("ANSWER: NOT APPLICABLE")));
        Answer a = run(b, config("gam.uncertainty_fallback", "sampling", "gam.embedding", "none", "gam.ablation.no_debate", "true"),
                GamControllerTest.open());
        Trace.AgentTurn scene = a.trace().rounds().get(0).agents().stream().filter(t -> t.id().equals("scene")).findFirst().orElseThrow();
        assertThat(scene.answer()).isEqualTo("stop sign");
        // answer "stop sign", samples "stop sign", "a stop sign", "exit": Jaccard 1, 2/3, 0, 2/3, 0, 0 over 6 pairs
        assertThat(scene.uncertainty()).isCloseTo(1 - (1 + 2.0 / 3 + 2.0 / 3) / 6, within(1e-9));
        assertThat(scene.signal()).isEqualTo("sampling");
    }
}
