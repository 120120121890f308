package dev.gamagent.dream;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.baseline.DebateMethod;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.MethodFixtures.Reply;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DreamMethodTest {
    /** Question image 200×100: probes at 0.5, 1, 2 arrive as 100×50, 200×100, 400×200. */
    static final Question Q = question(200, 100);

    /**
     * Whether a request is a probe: since issue 26 a probe asks the agent's round-0 request with one image (DREAM's own
     * one-line prompt for methods without one); a round 0 with several images (MixRes, ConflictMixRes) is the debate's.
     */
    static boolean isProbe(ChatRequest r) {
        String u = user(r);
        return u.contains("<task>probe</task>") || (u.contains("<task>answer</task>") && images(r).size() == 1);
    }

    /**
     * A backend whose probe replies depend on (agent, probe image width) and whose debate replies are "B"
     * with p = 0.8; u = 1 − p for both. A round-0 request with one image is answered as a probe: it is one (or it is
     * the request of a probe at that scale, which the debate takes without asking again).
     */
    static ScriptedBackend probing(long maxPixels, BiFunction<String, Integer, Reply> probe) {
        return new ScriptedBackend("scripted", caps(true, false, maxPixels), r -> {
            String u = user(r);
            Reply reply = isProbe(r) ? probe.apply(agentOf(u), images(r).get(0).width())
                    : Reply.of("ANSWER: B", 0.8);
            var lp = reply.p() == null ? List.<dev.gamagent.backend.TokenLogprob>of()
                    : List.of(new dev.gamagent.backend.TokenLogprob("x", Math.log(reply.p()), List.of()));
            return new dev.gamagent.backend.ChatResult(List.of(new dev.gamagent.backend.Choice(reply.text(), lp, "stop")),
                    new dev.gamagent.backend.Usage(PROMPT_TOKENS, COMPLETION_TOKENS, false), java.time.Duration.ofMillis(1), "scripted");
        });
    }

    /** The requests after the probe round (the probes run first, all of them before the debate) that {@code agent} sent. */
    static List<ChatRequest> debateRequests(ScriptedBackend b, Answer a, String agent) {
        @SuppressWarnings("unchecked") List<Probe> probes = (List<Probe>) a.trace().extra().get("probes");
        int n = probes == null ? 0 : (int) probes.stream().filter(Probe::ok).count();
        synchronized (b.requests) {
            return b.requests.subList(n, b.requests.size()).stream().filter(r -> agent.equals(agentOf(user(r)))).toList();
        }
    }

    /** The images {@code agent} saw in the debate: round 0 (its probe's when it took that reply) and the sent revisions. */
    static List<List<String>> seen(ScriptedBackend b, Answer a, String agent) {
        return debateRequests(b, a, agent).stream().map(DreamMethodTest::sizes).toList();
    }

    static List<String> sizes(ChatRequest r) {
        return images(r).stream().map(p -> p.width() + "x" + p.height()).toList();
    }

    static Answer dream(ScriptedBackend b, String... overrides) {
        return MethodRegistry.create("dream+debate").run(Q, context(b, overrides));
    }

    @Test
    void noConfidentProbeMeansStaticAllAtTheBaseScale() {
        var b = probing(0, (agent, w) -> Reply.of("ANSWER: A", 0.5));
        Answer a = dream(b, "dream.threshold=static", "dream.static_tau=0.1");
        assertThat(a.trace().extra()).containsEntry("branch", "StaticAll").containsEntry("threshold", 0.1);
        for (String agent : List.of("agent-1", "agent-2", "agent-3")) {
            // round 0 is the agent's 1x probe; rounds 1 and 2 are sent at 1x
            assertThat(debateRequests(b, a, agent)).hasSize(2).allSatisfy(r -> assertThat(sizes(r)).containsExactly("200x100"));
        }
        assertThat(a.trace().rounds().get(0).agents()).allSatisfy(t -> assertThat(t.scale()).isEqualTo(1.0));
        assertThat(a.trace().method()).isEqualTo("dream+debate");
    }

    @Test
    void agreeingConfidentProbesFromEveryAgentGiveEachAgentItsOwnBestScale() {
        Map<String, Integer> best = Map.of("agent-1", 400, "agent-2", 200, "agent-3", 100);
        var b = probing(0, (agent, w) -> best.get(agent).equals(w) ? Reply.of("ANSWER: B", 0.95) : Reply.of("ANSWER: A", 0.4));
        Answer a = dream(b);
        assertThat(a.trace().extra()).containsEntry("branch", "PerAgent");
        assertThat(debateRequests(b, a, "agent-1")).hasSize(2).allSatisfy(r -> assertThat(sizes(r)).containsExactly("400x200"));
        assertThat(debateRequests(b, a, "agent-2")).hasSize(2).allSatisfy(r -> assertThat(sizes(r)).containsExactly("200x100"));
        assertThat(debateRequests(b, a, "agent-3")).hasSize(2).allSatisfy(r -> assertThat(sizes(r)).containsExactly("100x50"));
        // probes (3 agents × 3 scales) + debate (3 agents × 3 rounds) − the 3 round-0 turns each agent's own-scale probe
        // answered, every call 10 + 5 tokens
        assertThat(a.calls()).isEqualTo(15);
        assertThat(a.tokens()).isEqualTo(new TokenCount(15 * PROMPT_TOKENS, 15 * COMPLETION_TOKENS, false));
        // the other probes' answers stay out of the debate history: agent-1's revision shows its own round 0 (B at 2x)
        assertThat(a.trace().rounds()).hasSize(3).allSatisfy(r -> assertThat(r.agents()).hasSize(3));
        assertThat(a.trace().rounds().get(0).agents()).extracting(t -> t.option()).containsOnly("B");
        assertThat(debateRequests(b, a, "agent-1").get(0)).satisfies(r -> assertThat(user(r)).doesNotContain("ANSWER: A"));
        @SuppressWarnings("unchecked") List<Probe> probes = (List<Probe>) a.trace().extra().get("probes");
        assertThat(probes).hasSize(9);
        assertThat(probes).filteredOn(Probe::confident).extracting(Probe::agent, Probe::scale, Probe::width, Probe::height)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("agent-1", 2.0, 400, 200),
                        org.assertj.core.groups.Tuple.tuple("agent-2", 1.0, 200, 100),
                        org.assertj.core.groups.Tuple.tuple("agent-3", 0.5, 100, 50));
        assertThat(probes.get(0).u()).isCloseTo(0.6, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void agreeingConfidentProbesFromSomeAgentsGiveEveryoneTheConfidentScales() {
        var b = probing(0, (agent, w) -> (agent.equals("agent-1") && w == 400) || (agent.equals("agent-2") && w == 200)
                ? Reply.of("ANSWER: B", 0.95) : Reply.of("ANSWER: A", 0.4));
        Answer a = dream(b);
        assertThat(a.trace().extra()).containsEntry("branch", "MixRes");
        for (String agent : List.of("agent-1", "agent-2", "agent-3")) {
            assertThat(debateRequests(b, a, agent)).hasSize(3).allSatisfy(r -> {
                assertThat(sizes(r)).containsExactly("200x100", "400x200");
                assertThat(user(r)).contains("several resolutions (1x, 2x");
            });
        }
    }

    @Test
    void disagreeingConfidentProbesGiveEveryoneEveryScaleAndSayTheProbesDisagreed() {
        var b = probing(0, (agent, w) -> agent.equals("agent-1") && w == 400 ? Reply.of("ANSWER: B", 0.95)
                : agent.equals("agent-2") && w == 100 ? Reply.of("ANSWER: C", 0.95) : Reply.of("ANSWER: A", 0.4));
        Answer a = dream(b);
        assertThat(a.trace().extra()).containsEntry("branch", "ConflictMixRes");
        assertThat(debateRequests(b, a, "agent-3")).hasSize(3).allSatisfy(r -> {
            assertThat(sizes(r)).containsExactly("100x50", "200x100", "400x200");
            assertThat(user(r)).contains("disagreed at different resolutions");
        });
    }

    @Test
    void probesThatAllRefuseDoNotEndTheQuestionAsAConsensusWithoutAnAnswer() {
        var b = probing(0, (agent, w) -> Reply.of("I'm sorry, but I can't help with that.", 0.9));
        Answer a = dream(b);
        assertThat(a.trace().extra()).containsEntry("branch", "StaticAll");
        assertThat(a.option()).isEqualTo("B"); // the debate ran and answered
        assertThat(a.rounds()).isPositive();
    }

    @Test
    void agreeingProbesAnswerWithoutADebateWhenConsensusSkipsIt() {
        var b = probing(0, (agent, w) -> Reply.of("It is green.\nANSWER: C", 0.9));
        Answer a = dream(b, "dream.consensus_skips_debate=true");
        assertThat(a.trace().extra()).containsEntry("branch", "PerAgent").containsEntry("consensus", true).containsEntry("debate_skipped", true);
        assertThat(b.requests).hasSize(9);
        assertThat(a.option()).isEqualTo("C");
        assertThat(a.termination()).isEqualTo(Termination.CONSENSUS);
        assertThat(a.rounds()).isZero();
        assertThat(a.trace().rounds()).isEmpty();
        assertThat(a.calls()).isEqualTo(9);
        assertThat(a.confidence()).isCloseTo(0.9, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void theBackendsPixelLimitCapsTheProbeImagesAndScalesThatCollapseAreProbedOnce() {
        var b = probing(40_000, (agent, w) -> Reply.of("ANSWER: A", 0.5));
        Answer a = dream(b, "dream.mode=probe_only");
        @SuppressWarnings("unchecked") List<Probe> probes = (List<Probe>) a.trace().extra().get("probes");
        assertThat(probes).filteredOn(p -> p.agent().equals("agent-1")).extracting(Probe::width, Probe::height)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(100, 50), org.assertj.core.groups.Tuple.tuple(200, 100),
                        org.assertj.core.groups.Tuple.tuple(283, 141));
        assertThat((long) 283 * 141).isLessThanOrEqualTo(40_000);
        List<String> sent;
        synchronized (b.requests) {
            sent = b.requests.stream().filter(DreamMethodTest::isProbe).map(r -> sizes(r).get(0)).toList();
        }
        assertThat(sent).hasSize(9).containsOnly("100x50", "200x100", "283x141");
        assertThat(sent.stream().filter("283x141"::equals).count()).isEqualTo(3);
        var capped = probing(20_000, (agent, w) -> Reply.of("ANSWER: A", 0.5));
        Answer c = dream(capped, "dream.mode=probe_only");
        @SuppressWarnings("unchecked") List<Probe> cp = (List<Probe>) c.trace().extra().get("probes");
        assertThat(cp).hasSize(6).extracting(Probe::scale).containsOnly(0.5, 1.0);
    }

    @Test
    void withoutLogProbsDreamSaysItFellBackToSemanticUncertainty() {
        var b = textBackend(u -> "ANSWER: B");
        Answer a = dream(b);
        assertThat(a.trace().extra()).containsEntry("uncertainty_fallback", "semantic");
        var withLogprobs = probing(0, (agent, w) -> Reply.of("ANSWER: B", 0.9));
        assertThat(dream(withLogprobs).trace().extra()).doesNotContainKey("uncertainty_fallback");
    }

    /**
     * A backend without log-probs (declared or not) answering each request with n choices: agent-1's probe at 400 px
     * says B every time, every other probe alternates A, B, A (its greedy reply A); debate turns say B.
     */
    static ScriptedBackend sampledProbes(boolean declaresLogprobs) {
        return new ScriptedBackend("scripted", caps(declaresLogprobs, true, 0), r -> {
            String u = user(r);
            boolean probe = isProbe(r);
            boolean sharp = probe && "agent-1".equals(agentOf(u)) && images(r).get(0).width() == 400;
            List<dev.gamagent.backend.Choice> cs = new ArrayList<>();
            for (int i = 0; i < r.n(); i++) {
                String letter = !probe || sharp ? "B" : i % 2 == 0 ? "A" : "B";
                cs.add(new dev.gamagent.backend.Choice("ANSWER: " + letter, List.of(), "stop"));
            }
            return new dev.gamagent.backend.ChatResult(cs, new dev.gamagent.backend.Usage(PROMPT_TOKENS, COMPLETION_TOKENS, false),
                    java.time.Duration.ofMillis(1), "scripted");
        });
    }

    @Test
    void withTheSamplingFallbackEachProbeIsDrawnThreeTimesMoreAndItsUIsTheirAgreement() {
        for (boolean declares : List.of(false, true)) {
            var b = sampledProbes(declares);
            Answer a = dream(b, "dream.uncertainty_fallback=sampling");
            assertThat(a.trace().extra()).containsEntry("uncertainty_fallback", "sampling");
            @SuppressWarnings("unchecked") List<Probe> probes = (List<Probe>) a.trace().extra().get("probes");
            assertThat(probes).hasSize(9).allSatisfy(p -> assertThat(p.signal()).isEqualTo("sampling"));
            // B,B,B over A,B,C: p(B) = (3 + 1/3)/4, u = (1 − p)·3/2 = 0.25; A,B,A: p(A) = (2 + 1/3)/4, u = 0.625
            for (Probe p : probes) {
                boolean sharp = p.agent().equals("agent-1") && p.scale() == 2.0;
                assertThat(p.u()).as(p.agent() + "@" + p.scale()).isCloseTo(sharp ? 0.25 : 0.625, org.assertj.core.api.Assertions.within(1e-9));
                assertThat(p.option()).isEqualTo(sharp ? "B" : "A");
            }
            List<ChatRequest> probeRequests;
            synchronized (b.requests) { probeRequests = b.requests.subList(0, 18); }
            // each probe: its own request, then one request for 3 samples; every request is counted
            assertThat(probeRequests.stream().filter(r -> r.n() == 3 && r.temperature() == 1.0 && !r.logprobs())).hasSize(9);
            assertThat(probeRequests).allSatisfy(r -> assertThat(isProbe(r)).isTrue());
            assertThat(a.calls()).isEqualTo(b.requests.size());
            assertThat(a.tokens().prompt()).isEqualTo(PROMPT_TOKENS * b.requests.size());
        }
    }

    // ---- rollback aggregation, read from any method's trace ----

    /** A stand-in inner method whose trace is given: DREAM must work from the Trace alone. */
    record Recorded(String name, List<Trace.Round> rounds, String answer, String option) implements Method {
        @Override public Answer run(Question q, RunContext ctx) {
            var trace = new Trace(Trace.QuestionInfo.of(q), name, Map.of(), rounds, "fixed_rounds",
                    new Trace.Final(answer, option, 0.5), new TokenCount(100, 20, false), 6, 1, null);
            return new Answer(answer, option, 0.5, 0.5, rounds.size() - 1, Termination.FIXED_ROUNDS, trace.tokens(), 6, 1, trace);
        }
    }

    static Trace.AgentTurn turn(String id, String option, double u) {
        return new Trace.AgentTurn(id, "debater", 1.0, option, option, u, "logprobs-chosen", null, List.of(),
                TokenCount.ZERO, null, null, null, null);
    }

    static Recorded recorded(double u1Final, double u3Final) {
        List<Trace.Round> rounds = new ArrayList<>();
        rounds.add(new Trace.Round(0, List.of(turn("agent-1", "A", 0.25), turn("agent-2", "B", 0.2), turn("agent-3", "A", 0.25)), null, null, null, null));
        rounds.add(new Trace.Round(1, List.of(turn("agent-1", "B", u1Final), turn("agent-2", "B", 0.9), turn("agent-3", "B", u3Final)), null, null, null, null));
        return new Recorded("panel", rounds, "B", "B");
    }

    @Test
    void rollbackRestoresAnEarlierConfidentAnswerOnlyWhenTheFinalIsMuchLessConfidentAndDifferent() {
        var b = textBackend(u -> "ANSWER: B");
        // agent-1 and agent-3: 0.5 > 1.5·0.25 and the answer changed → back to A; agent-2 kept B (no change)
        Answer a = new DreamMethod(recorded(0.5, 0.5)).run(Q, context(b, "dream.mode=rollback_only"));
        assertThat(b.requests).isEmpty();
        assertThat(a.option()).isEqualTo("A");
        @SuppressWarnings("unchecked") var rollbacks = (List<RollbackAggregation.Rollback>) a.trace().extra().get("rollbacks");
        assertThat(rollbacks).extracting(RollbackAggregation.Rollback::agent).containsExactly("agent-1", "agent-3");
        assertThat(rollbacks.get(0)).isEqualTo(new RollbackAggregation.Rollback("agent-1", 1, "B", 0.5, 0, "A", 0.25));
        // exactly at the threshold (0.375 = 1.5·0.25) nothing is restored: the rule is a strict ">"
        Answer edge = new DreamMethod(recorded(0.375, 0.375)).run(Q, context(b, "dream.mode=rollback_only"));
        assertThat(edge.option()).isEqualTo("B");
        assertThat((List<?>) edge.trace().extra().get("rollbacks")).isEmpty();
        // only one agent rolls back: A (agent-1) vs B, B → B
        Answer one = new DreamMethod(recorded(0.5, 0.3)).run(Q, context(b, "dream.mode=rollback_only"));
        assertThat(one.option()).isEqualTo("B");
        assertThat((List<?>) one.trace().extra().get("rollbacks")).hasSize(1);
        // a larger ρ makes the rescue rarer
        Answer strict = new DreamMethod(recorded(0.5, 0.5)).run(Q, context(b, "dream.mode=rollback_only", "dream.rho=1.0"));
        assertThat((List<?>) strict.trace().extra().get("rollbacks")).isEmpty();
        assertThat(a.tokens()).isEqualTo(new TokenCount(100, 20, false));
        assertThat(a.rounds()).isEqualTo(1);
    }

    /** Replies whose chosen tokens have probabilities {@code ps}: Φ_gen = mean(1 − p), ANLL u = 1 − geometric mean. */
    static dev.gamagent.backend.ChatResult tokens(String text, double... ps) {
        List<dev.gamagent.backend.TokenLogprob> lp = new ArrayList<>();
        for (double p : ps) lp.add(new dev.gamagent.backend.TokenLogprob("t", Math.log(p), List.of()));
        return new dev.gamagent.backend.ChatResult(List.of(new dev.gamagent.backend.Choice(text, lp, "stop")),
                new dev.gamagent.backend.Usage(PROMPT_TOKENS, COMPLETION_TOKENS, false), java.time.Duration.ofMillis(1), "scripted");
    }

    @Test
    void rollbackJudgesTrajectoriesByAnllLikeThePaperNotByTheInnerMethodsOwnUncertainty() {
        // round 0: A with p = 0.9 (Φ_gen = ANLL = 0.1). Round 1: B with p = (1, 0.5, 1, 1):
        // Φ_gen = 0.125 ≤ 1.5·0.1, but ANLL = 1 − 0.5^(1/4) ≈ 0.159 > 0.15, so only ANLL restores A.
        var b = new ScriptedBackend("scripted", caps(true, false, 0), r -> user(r).contains("<task>answer</task>")
                ? tokens("ANSWER: A", 0.9) : tokens("ANSWER: B", 1, 0.5, 1, 1));
        String[] cfg = {"dream.mode=rollback_only", "debate.agents=1", "debate.rounds=1"};
        Answer byAnll = dream(b, cfg);
        assertThat(byAnll.trace().rounds().get(1).agents().get(0).uncertainty()).isCloseTo(0.125, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(byAnll.trace().extra()).containsEntry("rollback_uncertainty", "anll");
        assertThat(byAnll.option()).isEqualTo("A");
        @SuppressWarnings("unchecked") var rb = (List<RollbackAggregation.Rollback>) byAnll.trace().extra().get("rollbacks");
        assertThat(rb.get(0).finalU()).isCloseTo(1 - Math.pow(0.5, 0.25), org.assertj.core.data.Offset.offset(1e-9));
        String[] traceCfg = {"dream.mode=rollback_only", "debate.agents=1", "debate.rounds=1", "dream.rollback_uncertainty=trace"};
        Answer byTrace = dream(b, traceCfg);
        assertThat(byTrace.trace().extra()).containsEntry("rollback_uncertainty", "trace");
        assertThat(byTrace.option()).isEqualTo("B");
    }

    @Test
    void probeOnlyKeepsTheInnerAnswerAndFullAddsProbeTokensToTheInnerOnes() {
        var b = probing(0, (agent, w) -> Reply.of("ANSWER: A", 0.5));
        Answer probeOnly = new DreamMethod(recorded(0.5, 0.5)).run(Q, context(b, "dream.mode=probe_only",
                "dream.threshold=static", "dream.static_tau=0.1"));
        assertThat(probeOnly.option()).isEqualTo("B");
        assertThat(probeOnly.trace().extra()).doesNotContainKey("rollbacks").containsEntry("branch", "StaticAll");
        Answer full = new DreamMethod(recorded(0.5, 0.5)).run(Q, context(b, "dream.threshold=static", "dream.static_tau=0.1"));
        assertThat(full.option()).isEqualTo("A");
        // the recorded inner method sends nothing, so no probe is taken as its round 0: all nine count
        assertThat(full.calls()).isEqualTo(9 + 6);
        assertThat(full.tokens()).isEqualTo(new TokenCount(9 * PROMPT_TOKENS + 100, 9 * COMPLETION_TOKENS + 20, false));
        assertThat(Json.write(full.trace())).contains("\"branch\":\"StaticAll\"", "\"probes\":[", "\"rollbacks\":[");
    }

    @Test
    void theRegistryWrapsAnyMethodAndRejectsNonsense() {
        assertThat(MethodRegistry.create("dream+debate").name()).isEqualTo("dream+debate");
        assertThat(MethodRegistry.create("DREAM+mad").name()).isEqualTo("dream+mad");
        assertThatThrownBy(() -> MethodRegistry.create("dream+nope")).hasMessageContaining("unknown method 'nope'");
        assertThatThrownBy(() -> MethodRegistry.create("dream+dream+debate")).hasMessageContaining("cannot wrap itself");
        assertThatThrownBy(() -> dream(textBackend(u -> "ANSWER: A"), "dream.mode=sometimes"))
                .hasMessageContaining("dream.mode must be");
        assertThat(DreamMethod.agentCount(dev.gamagent.config.Config.defaults(), "dmad")).isEqualTo(3);
        assertThat(DreamMethod.agentCount(dev.gamagent.config.Config.defaults().with("debate.agents", "5"), "debate")).isEqualTo(5);
        assertThat(new DreamMethod(new DebateMethod()).name()).isEqualTo("dream+debate");
    }
}
