package dev.gamagent.dream;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.BackendResolver;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.Usage;
import dev.gamagent.config.Config;
import dev.gamagent.testing.MethodFixtures.Reply;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Concurrency;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

/**
 * The DREAM readings of issue 11 items 6–10 (docs/design.md §7): probes speak to the inner method's own agents,
 * Consensus is reachable and debates by default, the conflict note names no answer, rollback keys ANLL by
 * agent and round, and a method with its own aggregation keeps it.
 */
class DreamFidelityTest {
    static final Question Q = DreamMethodTest.Q;

    static String tag(String text, String tag) {
        Matcher m = Pattern.compile("<" + tag + ">(.*?)</" + tag + ">").matcher(text);
        return m.find() ? m.group(1) : "";
    }

    static ChatResult reply(String text, double p) {
        List<TokenLogprob> lp = List.of(new TokenLogprob("x", Math.log(p), List.of()));
        return new ChatResult(List.of(new Choice(text, lp, "stop")), new Usage(PROMPT_TOKENS, COMPLETION_TOKENS, false),
                Duration.ofMillis(1), "scripted");
    }

    static ScriptedBackend scripted(String name, Function<ChatRequest, ChatResult> f) {
        return new ScriptedBackend(name, caps(true, false, 0), f);
    }

    static RunContext context(ScriptedBackend def, Map<String, ScriptedBackend> named, String... overrides) {
        Map<String, String> o = new LinkedHashMap<>();
        for (String kv : overrides) o.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        BackendResolver resolver = name -> {
            ScriptedBackend b = named.get(name);
            if (b == null) throw new IllegalArgumentException("unknown backend '" + name + "'");
            return b;
        };
        return new RunContext(def, resolver, Config.defaults().withOverrides(o), Concurrency.newIoExecutor("test", 16), null);
    }

    /** The probe requests a backend received: round-0 requests with one image (or DREAM's own probe prompt). */
    static List<ChatRequest> probes(ScriptedBackend b) {
        synchronized (b.requests) {
            return b.requests.stream().filter(DreamMethodTest::isProbe).toList();
        }
    }

    // ---- item 6: probe the debate's own agents ----

    @Test
    void dreamGamProbesEachExpertInItsRoleWithItsFocusOnItsOwnBackend() {
        Function<ChatRequest, ChatResult> f = r -> reply("ANSWER: B", 0.8);
        ScriptedBackend def = scripted("default", f), other = scripted("other", f);
        Answer a = MethodRegistry.create("dream+gam").run(Q, context(def, Map.of("other", other),
                "gam.experts=[{\"role\":\"scene\",\"backend\":\"other\"},\"ocr\",\"relational\"]"));
        // the scene expert's three probes went to its own backend, in its role, with its focus text
        assertThat(probes(other)).hasSize(3).allSatisfy(r -> {
            assertThat(tag(user(r), "role")).isEqualTo("scene expert");
            assertThat(user(r)).contains("You are the scene expert");
        });
        assertThat(probes(def)).hasSize(6).extracting(r -> tag(user(r), "role"))
                .containsOnly("ocr expert", "relational expert");
        assertThat(probes(def)).filteredOn(r -> tag(user(r), "role").equals("ocr expert"))
                .allSatisfy(r -> assertThat(user(r)).contains("text/OCR expert"));
        @SuppressWarnings("unchecked") List<Probe> recorded = (List<Probe>) a.trace().extra().get("probes");
        assertThat(recorded).extracting(Probe::agent).containsOnly("scene", "ocr", "relational");
        assertThat(recorded).filteredOn(p -> p.agent().equals("scene")).extracting(Probe::backend).containsOnly("other");
        assertThat(recorded).filteredOn(p -> p.agent().equals("ocr")).extracting(Probe::role).containsOnly("ocr expert");
    }

    @Test
    void anAgentsUnknownBackendIsRecordedAsFailedProbesNamingIt() {
        ScriptedBackend def = scripted("default", r -> reply("ANSWER: B", 0.8));
        Answer a = MethodRegistry.create("dream+gam").run(Q, context(def, Map.of(),
                "gam.experts=[{\"role\":\"scene\",\"backend\":\"nope\"},\"ocr\"]", "dream.mode=probe_only"));
        @SuppressWarnings("unchecked") List<Probe> recorded = (List<Probe>) a.trace().extra().get("probes");
        assertThat(recorded).filteredOn(p -> p.agent().equals("scene")).hasSize(3)
                .allSatisfy(p -> assertThat(p.error()).contains("backend 'nope'"));
        assertThat(probes(def)).hasSize(3);
        // the failed probes made no call; the inner gam ran its one answering expert, whose round 0 was its probe at the
        // scale it debated at (docs/design.md §7), so probe_only adds no call
        assertThat(a.calls()).isEqualTo(3);
    }

    @Test
    void probesUseEachAgentsOwnSamplingAndInstructions() {
        ScriptedBackend debate = scripted("s", r -> reply("ANSWER: B", 0.8));
        MethodRegistry.create("dream+debate").run(Q, context(debate, Map.of(), "debate.temperature=0.3"));
        // the probes are the agents' round-0 requests: the debate's own prompt and temperature
        assertThat(probes(debate)).hasSize(9).allSatisfy(r -> {
            assertThat(r.temperature()).isEqualTo(0.3);
            assertThat(user(r)).contains("<task>answer</task>");
        });
        assertThat(probes(debate)).extracting(r -> agentOf(user(r))).containsOnly("agent-1", "agent-2", "agent-3");

        ScriptedBackend dmad = scripted("s", r -> reply("ANSWER: B", 0.8));
        MethodRegistry.create("dream+dmad").run(Q, context(dmad, Map.of()));
        assertThat(probes(dmad)).hasSize(9).allSatisfy(r -> assertThat(r.temperature()).isZero());
        assertThat(probes(dmad)).filteredOn(r -> tag(user(r), "role").equals("scene graph reasoner")).hasSize(3)
                .allSatisfy(r -> assertThat(user(r)).contains("First write a scene graph"));
    }

    // ---- item 7: Consensus is reachable, and debates unless told otherwise ----

    /** Probes that all name C with different uncertainties; agent-2 refuses at scale 2 (unreadable). */
    static ScriptedBackend agreeing() {
        return DreamMethodTest.probing(0, (agent, w) -> agent.equals("agent-2") && w == 400
                ? Reply.of("I cannot tell.", 0.99)
                : Reply.of("ANSWER: C", w == 200 ? 0.95 : agent.equals("agent-1") ? 0.6 : 0.7));
    }

    @Test
    void everyReadableProbeNamingOneAnswerIsAConsensusAndTheDebateStillRunsByDefault() {
        ScriptedBackend b = agreeing();
        Answer a = MethodRegistry.create("dream+debate").run(Q, context(b, Map.of()));
        assertThat(a.trace().extra()).containsEntry("consensus", true).containsEntry("consensus_skips_debate", false);
        assertThat(a.rounds()).isEqualTo(2);
        // the debate runs in the paper's branch (PerAgent): each agent at its confident scale, 1x for everyone here,
        // where its probe was its round-0 answer
        assertThat(a.trace().extra()).containsEntry("branch", "PerAgent");
        assertThat(a.calls()).isEqualTo(9 + 9 - 3);
        assertThat(a.trace().extra().get("assignment")).isEqualTo(List.of(List.of(1.0), List.of(1.0), List.of(1.0)));
    }

    @Test
    void consensusSkipsTheDebateWhenTheSettingSaysSo() {
        ScriptedBackend b = agreeing();
        Answer a = MethodRegistry.create("dream+debate").run(Q, context(b, Map.of(), "dream.consensus_skips_debate=true"));
        assertThat(a.trace().extra()).containsEntry("consensus", true).containsEntry("debate_skipped", true);
        assertThat(a.option()).isEqualTo("C");
        assertThat(a.termination()).isEqualTo(Termination.CONSENSUS);
        assertThat(a.rounds()).isZero();
        assertThat(a.calls()).isEqualTo(9);
    }

    // ---- item 8: probe answers stay out of the debate ----

    @Test
    void theConflictNoteSaysOnlyThatTheProbesDisagreed() {
        var b = DreamMethodTest.probing(0, (agent, w) -> agent.equals("agent-1") && w == 400 ? Reply.of("ANSWER: B", 0.95)
                : agent.equals("agent-2") && w == 100 ? Reply.of("ANSWER: C", 0.95) : Reply.of("ANSWER: A", 0.4));
        Answer a = MethodRegistry.create("dream+debate").run(Q, context(b, Map.of()));
        assertThat(a.trace().extra()).containsEntry("branch", "ConflictMixRes");
        List<ChatRequest> debate;
        synchronized (b.requests) {
            debate = b.requests.subList(9, b.requests.size());
        }
        assertThat(debate).hasSize(9).allSatisfy(r -> assertThat(user(r))
                .contains("disagreed at different resolutions").doesNotContain("B vs C").doesNotContain("(B").doesNotContain("(C"));
    }

    // ---- item 9: rollback per agent and round ----

    @Test
    void anllIsRememberedPerAgentAndRoundNotPerReplyText() {
        // one agent: A (u 0.1), then B (u 0.01), then B again (u 0.5). r* is round 1 (B, the final answer): no
        // rollback. Keyed by text, round 2's "ANSWER: B" overwrote round 1's u, so round 0's A came back.
        AtomicInteger call = new AtomicInteger();
        ScriptedBackend b = scripted("s", r -> switch (call.getAndIncrement()) {
            case 0 -> reply("ANSWER: A", 0.9);
            case 1 -> reply("ANSWER: B", 0.99);
            default -> reply("ANSWER: B", 0.5);
        });
        Answer a = MethodRegistry.create("dream+debate").run(Q, context(b, Map.of(),
                "dream.mode=rollback_only", "debate.agents=1", "debate.rounds=2"));
        assertThat(a.trace().extra()).containsEntry("rollback_uncertainty", "anll");
        assertThat((List<?>) a.trace().extra().get("rollbacks")).isEmpty();
        assertThat(a.option()).isEqualTo("B");
    }

    @Test
    void identicalRepliesOfTwoAgentsInOneRoundKeepTheirOwnAnll() {
        // round 1: both agents reply "ANSWER: B", agent-1 unsure (u 0.5), agent-2 sure (u 0.01); only agent-1,
        // which said A with u 0.1 in round 0, is rolled back. Keyed by text, one u would serve both replies.
        ScriptedBackend b = scripted("s", r -> {
            boolean first = user(r).contains("<task>answer</task>");
            String agent = agentOf(user(r));
            if (agent.equals("agent-1")) return first ? reply("ANSWER: A", 0.9) : reply("ANSWER: B", 0.5);
            return reply("ANSWER: B", 0.99);
        });
        for (int run = 0; run < 5; run++) {
            Answer a = MethodRegistry.create("dream+debate").run(Q, context(b, Map.of(),
                    "dream.mode=rollback_only", "debate.agents=2", "debate.rounds=1"));
            @SuppressWarnings("unchecked") var rb = (List<RollbackAggregation.Rollback>) a.trace().extra().get("rollbacks");
            assertThat(rb).singleElement().satisfies(x -> {
                assertThat(x.agent()).isEqualTo("agent-1");
                assertThat(x.finalU()).isCloseTo(0.5, offset(1e-9));
            });
        }
    }

    // ---- item 10: dream+gam keeps GAM's decision ----

    static dev.gamagent.api.Trace.AgentTurn expert(String id, String option, double u, Double weight, Map<String, Double> dist) {
        return new dev.gamagent.api.Trace.AgentTurn(id, id, 1.0, option, option, u, "logprobs-chosen", weight, List.of(),
                dev.gamagent.backend.TokenCount.ZERO, "ANSWER: " + option, "lines", null, dist);
    }

    @Test
    void gamsDecisionWeighsTheAnswersAfterRollbackWithTheLastRoundsWeights() {
        var gam = new dev.gamagent.gam.GamMethod();
        // scene holds A (restored, with the weight it had in the last round); ocr and relational hold B
        var answers = List.of(
                expert("scene", "A", 0.1, 0.7, Map.of("A", 0.9, "B", 0.05, "C", 0.05)),
                expert("ocr", "B", 0.3, 0.15, Map.of("A", 0.15, "B", 0.7, "C", 0.15)),
                expert("relational", "B", 0.3, 0.15, Map.of("A", 0.15, "B", 0.7, "C", 0.15)),
                expert("failed", "C", 1.0, null, Map.of("A", 0.0, "B", 0.0, "C", 1.0)));
        var d = gam.decide(Q, answers, Config.defaults()).orElseThrow();
        assertThat(d.option()).isEqualTo("A");
        assertThat(d.answer()).isEqualTo("red");
        assertThat(d.confidence()).isCloseTo(0.7 * 0.9 + 0.3 * 0.15, offset(1e-12));
        assertThat(d.uncertainty()).isCloseTo(0.7 * 0.1 + 0.3 * 0.3, offset(1e-12));
        // the same answers by majority would say B: a majority-rule method has no rule of its own
        assertThat(new dev.gamagent.baseline.DebateMethod().decide(Q, answers, Config.defaults())).isEmpty();
    }


    /** scene: A, sure (p 0.99); ocr and relational: B, unsure (p 0.5). GAM's weights make A win; a majority says B. */
    static ScriptedBackend outvotedButWeighted() {
        return scripted("s", r -> {
            String role = tag(user(r), "role");
            return role.equals("scene expert") ? reply("ANSWER: A", 0.99) : reply("ANSWER: B", 0.5);
        });
    }

    @Test
    void dreamGamDecidesWithGamsWeightedConsensusNotAMajority() {
        Answer bare = MethodRegistry.create("gam").run(Q, context(outvotedButWeighted(), Map.of()));
        assertThat(bare.option()).isEqualTo("A");
        assertThat(bare.rounds()).isZero();
        Answer wrapped = MethodRegistry.create("dream+gam").run(Q, context(outvotedButWeighted(), Map.of(), "dream.mode=rollback_only"));
        assertThat(wrapped.option()).isEqualTo("A");
        assertThat(wrapped.confidence()).isCloseTo(bare.confidence(), offset(1e-9));
        assertThat(wrapped.trace().extra()).containsEntry("decided_by", "gam");
        // a majority-rule method keeps the majority
        Answer debate = MethodRegistry.create("dream+debate").run(Q, context(scripted("s", r -> reply(
                "You are agent-1".equals(agentLine(user(r))) ? "ANSWER: A" : "ANSWER: B", 0.99)), Map.of(), "dream.mode=rollback_only"));
        assertThat(debate.trace().extra()).containsEntry("decided_by", "majority");
    }

    private static String agentLine(String prompt) {
        String id = agentOf(prompt);
        return id == null ? null : "You are " + id;
    }
}
