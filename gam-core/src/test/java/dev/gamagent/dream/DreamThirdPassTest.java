package dev.gamagent.dream;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.testing.MethodFixtures.Reply;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 26, DREAM items 6 and 7 (docs/design.md §7): the branch is recorded as DREAM's Figure 4 names it with the agreement
 * beside it, and a probe that asks exactly an agent's round-0 request is that agent's round-0 answer. Scripted backends
 * (test tools): a round-0 request with one image is answered by (agent, image width); everything else says B.
 */
class DreamThirdPassTest {
    static final dev.gamagent.api.Question Q = DreamMethodTest.Q;

    static Answer dream(String method, ScriptedBackend b, String... overrides) {
        return MethodRegistry.create(method).run(Q, DreamFidelityTest.context(b, Map.of(), overrides));
    }

    static List<ChatRequest> sent(ScriptedBackend b) {
        synchronized (b.requests) { return List.copyOf(b.requests); }
    }

    // ---- item 7: the probe at the scale an agent debates at is its round-0 answer ----

    @Test void probesAskExactlyWhatRoundZeroAsks() {
        var b = DreamMethodTest.probing(0, (agent, w) -> Reply.of("ANSWER: A", 0.5));
        dream("dream+debate", b, "dream.threshold=static", "dream.static_tau=0.1");
        List<ChatRequest> probes = sent(b).subList(0, 9);
        assertThat(probes).allSatisfy(r -> {
            assertThat(user(r)).contains("<task>answer</task>").doesNotContain("<task>probe</task>");
            assertThat(r.temperature()).isEqualTo(0.7);
            assertThat(r.maxTokens()).isEqualTo(512);
        });
    }

    @Test void underStaticAllEachAgentsBaseScaleProbeIsItsRoundZeroAnswer() {
        // no probe confident: every agent debates at 1x, where its probe already asked round 0's request
        var b = DreamMethodTest.probing(0, (agent, w) -> Reply.of("ANSWER: A", 0.5));
        Answer a = dream("dream+debate", b, "dream.threshold=static", "dream.static_tau=0.1");
        assertThat(a.trace().extra()).containsEntry("branch", "StaticAll");
        // 9 probes + 9 debate turns − the 3 round-0 turns the 1x probes answered
        assertThat(sent(b)).hasSize(15);
        assertThat(a.calls()).isEqualTo(15);
        assertThat(a.tokens()).isEqualTo(new TokenCount(15 * PROMPT_TOKENS, 15 * COMPLETION_TOKENS, false));
        // round 0 holds the probes' replies (A), not the debate's (B)
        assertThat(a.trace().rounds().get(0).agents()).allSatisfy(t -> assertThat(t.option()).isEqualTo("A"));
        assertThat(a.trace().extra().get("probe_usage")).isEqualTo(Map.of("prompt", 6 * PROMPT_TOKENS, "completion",
                6 * COMPLETION_TOKENS, "calls", 6, "reused_as_round_0", 3));
        @SuppressWarnings("unchecked") List<Probe> probes = (List<Probe>) a.trace().extra().get("probes");
        assertThat(probes).allSatisfy(p -> assertThat(p.request()).isEqualTo("round-0"));
        assertThat(probes).filteredOn(Probe::reused).extracting(Probe::scale).containsOnly(1.0).hasSize(3);
    }

    @Test void underPerAgentEachAgentsOwnScaleProbeIsItsRoundZeroAnswer() {
        Map<String, Integer> best = Map.of("agent-1", 400, "agent-2", 200, "agent-3", 100);
        var b = DreamMethodTest.probing(0, (agent, w) -> best.get(agent).equals(w) ? Reply.of("ANSWER: B", 0.95) : Reply.of("ANSWER: A", 0.4));
        Answer a = dream("dream+debate", b);
        assertThat(a.trace().extra()).containsEntry("branch", "PerAgent");
        assertThat(a.calls()).isEqualTo(9 + 9 - 3);
        @SuppressWarnings("unchecked") List<Probe> probes = (List<Probe>) a.trace().extra().get("probes");
        assertThat(probes).filteredOn(Probe::reused).extracting(Probe::agent, Probe::scale).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("agent-1", 2.0), org.assertj.core.groups.Tuple.tuple("agent-2", 1.0),
                org.assertj.core.groups.Tuple.tuple("agent-3", 0.5));
    }

    @Test void underConflictMixResRoundZeroIsANewRequestWithEveryScale() {
        var b = DreamMethodTest.probing(0, (agent, w) -> agent.equals("agent-1") && w == 400 ? Reply.of("ANSWER: B", 0.95)
                : agent.equals("agent-2") && w == 100 ? Reply.of("ANSWER: C", 0.95) : Reply.of("ANSWER: A", 0.4));
        Answer a = dream("dream+debate", b);
        assertThat(a.trace().extra()).containsEntry("branch", "ConflictMixRes");
        assertThat(a.calls()).isEqualTo(18);
        @SuppressWarnings("unchecked") List<Probe> probes = (List<Probe>) a.trace().extra().get("probes");
        assertThat(probes).noneMatch(Probe::reused);
    }

    /**
     * Issue 39: a MixRes whose confident probes are all at one scale sends each agent that one copy, no "several
     * resolutions" note, so each agent's round 0 is its probe at that scale (before: a false note, and 3 more calls).
     */
    @Test void aMixResOfOneScaleTakesTheProbesAtThatScaleAsRoundZero() {
        // agents 1 and 2 sure of B at 2x (400 px wide), agent 3 answers A everywhere and is sure nowhere: MixRes at {2x}
        var b = DreamMethodTest.probing(0, (agent, w) -> !agent.equals("agent-3") && w == 400 ? Reply.of("ANSWER: B", 0.95)
                : Reply.of("ANSWER: A", 0.4));
        Answer a = dream("dream+debate", b, "dream.threshold=static", "dream.static_tau=0.1");
        assertThat(a.trace().extra()).containsEntry("branch", "MixRes").containsEntry("assignment",
                List.of(List.of(2.0), List.of(2.0), List.of(2.0))).doesNotContainKey("note");
        assertThat(a.calls()).isEqualTo(9 + 9 - 3);
        @SuppressWarnings("unchecked") List<Probe> probes = (List<Probe>) a.trace().extra().get("probes");
        assertThat(probes).filteredOn(Probe::reused).extracting(Probe::scale).containsOnly(2.0).hasSize(3);
        assertThat(sent(b)).noneMatch(r -> user(r).contains("several resolutions"));
    }

    @Test void dreamGamsExpertsTakeTheirProbesAsRoundZeroAnswersToo() {
        var b = DreamMethodTest.probing(0, (agent, w) -> Reply.of("ANSWER: A", 0.5));
        Answer a = dream("dream+gam", b, "dream.threshold=static", "dream.static_tau=0.1");
        assertThat(a.trace().extra()).containsEntry("branch", "StaticAll");
        // the probes are GAM's expert requests: its answer prompt in each expert's role
        assertThat(sent(b).subList(0, 9)).allSatisfy(r -> assertThat(user(r)).contains("<task>answer</task>").contains("expert"));
        @SuppressWarnings("unchecked") List<Probe> probes = (List<Probe>) a.trace().extra().get("probes");
        assertThat(probes).filteredOn(Probe::reused).hasSize(3);
        assertThat(a.calls()).isEqualTo(sent(b).size());
        assertThat(a.tokens().prompt()).isEqualTo(PROMPT_TOKENS * sent(b).size());
    }

    @Test void aMethodWhoseAgentsSpeakInTurnIsProbedWithDreamsOwnPrompt() {
        var b = DreamMethodTest.probing(0, (agent, w) -> Reply.of("ANSWER: A", 0.5));
        Answer a = dream("dream+mad", b, "dream.threshold=static", "dream.static_tau=0.1");
        @SuppressWarnings("unchecked") List<Probe> probes = (List<Probe>) a.trace().extra().get("probes");
        assertThat(probes).isNotEmpty().allSatisfy(p -> {
            assertThat(p.request()).isEqualTo("dream_probe");
            assertThat(p.reused()).isFalse();
        });
    }

    // ---- item 6: DREAM's branch as Figure 4 counts it, the agreement beside it ----

    @Test void probesThatAllAgreeAreRecordedAsTheirPapersBranchWithTheConsensusFlag() {
        // every readable probe names C; the 1x probes are the confident ones, for every agent: PerAgent (paper), Consensus (ours)
        Answer a = dream("dream+debate", DreamFidelityTest.agreeing());
        assertThat(a.trace().extra()).containsEntry("branch", "PerAgent").containsEntry("consensus", true)
                .containsEntry("debate_skipped", false).containsEntry("consensus_skips_debate", false);
        assertThat((String) a.trace().extra().get("branch_reason")).contains("agree");
        assertThat(a.rounds()).isEqualTo(2);
        // agent-3 confident nowhere while all agree: MixRes, still a consensus
        var mix = DreamMethodTest.probing(0, (agent, w) -> Reply.of("ANSWER: C", agent.equals("agent-3") ? 0.6 : w == 200 ? 0.95 : 0.7));
        Answer m = dream("dream+debate", mix);
        assertThat(m.trace().extra()).containsEntry("branch", "MixRes").containsEntry("consensus", true);
        assertThat((String) m.trace().extra().get("branch_reason")).contains("agent-3");
        // disagreement is never a consensus
        var split = DreamMethodTest.probing(0, (agent, w) -> agent.equals("agent-1") && w == 400 ? Reply.of("ANSWER: B", 0.95)
                : agent.equals("agent-2") && w == 100 ? Reply.of("ANSWER: C", 0.95) : Reply.of("ANSWER: A", 0.4));
        assertThat(dream("dream+debate", split).trace().extra()).containsEntry("branch", "ConflictMixRes").containsEntry("consensus", false);
    }

    @Test void aConsensusThatSkipsTheDebateSaysSoBesideItsBranch() {
        Answer a = dream("dream+debate", DreamFidelityTest.agreeing(), "dream.consensus_skips_debate=true");
        assertThat(a.trace().extra()).containsEntry("branch", "PerAgent").containsEntry("consensus", true).containsEntry("debate_skipped", true);
        assertThat(a.option()).isEqualTo("C");
        assertThat(a.rounds()).isZero();
        // no debate ran: the probe round is the whole cost
        assertThat(a.calls()).isEqualTo(9);
    }
}
