package dev.gamagent.baseline;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendResolver;
import dev.gamagent.backend.UsageMeter;
import dev.gamagent.config.Config;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Agents of every method on the backends their configuration names: each call reaches its agent's backend,
 * the trace says which backend and model answered, and a list that does not fit the panel is an error.
 */
class NamedBackendAgentsTest {
    /** A backend named {@code name} that always answers {@code letter}; its ChatResult names model {@code name}-model. */
    private static ScriptedBackend answering(String name, String letter) {
        ScriptedBackend b = textBackend(u -> "ANSWER: " + letter + "\nCONFIDENCE: 0.9");
        return new ScriptedBackend(name, b.capabilities(), r -> {
            var res = b.chat(r);
            return new dev.gamagent.backend.ChatResult(res.choices(), res.usage(), res.latency(), name + "-model");
        });
    }

    /** A context whose default backend is {@code def} and whose resolver knows {@code named}, counted in {@code meter}. */
    private static RunContext context(Backend def, Map<String, Backend> named, UsageMeter meter, String... overrides) {
        RunContext base = dev.gamagent.testing.MethodFixtures.context(def, overrides);
        BackendResolver r = name -> {
            if (name.equals(RunContext.DEFAULT_BACKEND)) return def;
            Backend b = named.get(name);
            if (b == null) throw new IllegalArgumentException("unknown backend '" + name + "'; known: " + named.keySet());
            return b;
        };
        return new RunContext(def, r, base.config(), base.executor(), null).metered(meter);
    }

    @Test void voteAsksEachAgentOnTheBackendItsListNamesAndTheTraceSaysWhichAnswered() {
        ScriptedBackend def = answering("default-b", "C"), a = answering("a", "A"), b = answering("b", "B");
        UsageMeter meter = new UsageMeter();
        Answer ans = new VoteMethod().run(question(), context(def, Map.of("a", a, "b", b), meter,
                "vote.backends=[\"a\",\"b\",\"a\"]"));
        assertThat(a.requests).hasSize(2);
        assertThat(b.requests).hasSize(1);
        assertThat(def.requests).isEmpty();
        List<Trace.AgentTurn> agents = ans.trace().rounds().get(0).agents();
        assertThat(agents).extracting(Trace.AgentTurn::id).containsExactly("agent-1", "agent-2", "agent-3");
        assertThat(agents).extracting(Trace.AgentTurn::backend).containsExactly("a", "b", "a");
        assertThat(agents).extracting(Trace.AgentTurn::model).containsExactly("a-model", "b-model", "a-model");
        assertThat(agents).extracting(Trace.AgentTurn::option).containsExactly("A", "B", "A");
        assertThat(ans.option()).isEqualTo("A");
        assertThat(meter.tallies()).containsOnlyKeys("a", "b");
        assertThat(meter.tallies().get("a").calls()).isEqualTo(2);
        assertThat(meter.tallies().get("a").promptTokens()).isEqualTo(2 * PROMPT_TOKENS);
    }

    @Test void withoutAListEveryAgentIsOnTheDefaultBackendAndTheTraceSaysSo() {
        ScriptedBackend def = answering("def", "C");
        Answer ans = new DebateMethod().run(question(), context(def, Map.of(), new UsageMeter()));
        assertThat(ans.trace().rounds()).allSatisfy(r -> assertThat(r.agents()).extracting(Trace.AgentTurn::backend).containsOnly("default"));
        assertThat(ans.trace().rounds().get(0).agents().get(0).model()).isEqualTo("def-model");
    }

    @Test void madsJudgeRunsOnTheModeratorsBackend() {
        ScriptedBackend def = answering("def", "C"), aff = answering("aff", "A"), neg = answering("neg", "B"), mod = answering("mod", "A");
        Answer ans = new MadMethod().run(question(), context(def, Map.of("aff", aff, "neg", neg, "mod", mod), new UsageMeter(),
                "mad.backends=[\"aff\",\"neg\",\"mod\"]", "mad.rounds=1"));
        assertThat(def.requests).isEmpty();
        assertThat(aff.requests).hasSize(1);
        assertThat(neg.requests).hasSize(1);
        assertThat(mod.requests).as("the moderator, then the judge's two calls").hasSize(3);
        for (Trace.AgentTurn t : ans.trace().rounds().get(0).agents()) {
            String expected = switch (t.id()) {
                case "affirmative" -> "aff";
                case "negative" -> "neg";
                default -> "mod"; // moderator, judge-candidates, judge
            };
            assertThat(t.backend()).as(t.id()).isEqualTo(expected);
        }
    }

    @Test void aListThatDoesNotNameOneBackendPerAgentIsAnErrorBeforeAnyCall() {
        ScriptedBackend def = answering("def", "C");
        assertThatThrownBy(() -> new VoteMethod().run(question(), context(def, Map.of(), new UsageMeter(), "vote.backends=[\"a\",\"b\"]")))
                .isInstanceOf(Config.ConfigException.class)
                .hasMessageContaining("vote.backends names 2 backends but vote has 3 agents");
        assertThat(def.requests).isEmpty();
        assertThatThrownBy(() -> new VoteMethod().run(question(), context(def, Map.of(), new UsageMeter(), "vote.backends=\"a\"")))
                .hasMessageContaining("vote.backends must be a list");
    }

    @Test void everyMethodReportsWhereItsConfigurationNamesABackend() {
        Config c = Config.defaults()
                .with("vote.backends", "[\"a\",null,\"b\"]")
                .with("debate.backends", "[\"a\",\"a\",\"a\"]")
                .with("chateval.backends", "[\"a\",\"b\",\"local\"]")
                .with("mad.backends", "[\"a\",\"b\",\"c\"]")
                .with("dmad.backends", "[\"a\",\"b\",\"c\"]")
                .with("dwi.backends", "[\"a\",\"b\"]")
                .with("debunc.backends", "[\"a\",\"b\",\"c\"]")
                .with("single.backends", "[\"s\"]")
                .with("gam.experts", "[{\"role\":\"scene\",\"backend\":\"a\"},\"ocr\",{\"role\":\"relational\",\"backend\":\"local\"}]")
                .with("gam.critics", "[{\"role\":\"fact\",\"backend\":\"b\"}]")
                .with("gam.judge_backend", "j");
        Map<String, Map<String, String>> refs = new LinkedHashMap<>();
        for (String m : List.of("vote", "debate", "chateval", "mad", "div-mad", "dmad", "dwi", "debunc", "single", "gam", "dream+gam", "cot")) {
            Method method = MethodRegistry.create(m);
            refs.put(m, method.backendRefs(c));
        }
        assertThat(refs.get("vote")).containsExactly(Map.entry("vote.backends[0]", "a"), Map.entry("vote.backends[2]", "b"));
        assertThat(refs.get("chateval")).containsValues("a", "b", "local");
        assertThat(refs.get("mad")).isEqualTo(refs.get("div-mad")).containsEntry("mad.backends[2]", "c");
        assertThat(refs.get("dwi")).hasSize(2);
        assertThat(refs.get("single")).containsExactly(Map.entry("single.backends[0]", "s"));
        assertThat(refs.get("gam")).containsExactly(Map.entry("gam.experts[0].backend", "a"), Map.entry("gam.experts[2].backend", "local"),
                Map.entry("gam.critics[0].backend", "b"), Map.entry("gam.judge_backend", "j"));
        assertThat(refs.get("dream+gam")).as("DREAM's agents are the inner method's").isEqualTo(refs.get("gam"));
        assertThat(refs.get("cot")).isEmpty();
        assertThatThrownBy(() -> MethodRegistry.create("debate").backendRefs(c.with("debate.agents", "2")))
                .hasMessageContaining("debate.backends names 3 backends but debate has 2 agents");
    }

    @Test void gamsExpertsCriticsAndJudgeRunOnTheirBackendsAndTheTraceRecordsThem() {
        // expert on "a" says A, on "b" says B: they disagree, so critics run; theta_u 0 forces the debate
        ScriptedBackend def = answering("def", "A"), a = answering("a", "A"), b = answering("b", "B");
        UsageMeter meter = new UsageMeter();
        Answer ans = MethodRegistry.create("gam").run(question(), context(def, Map.of("a", a, "b", b), meter,
                "gam.experts=[{\"role\":\"scene\",\"backend\":\"a\"},{\"role\":\"ocr\",\"backend\":\"b\"},\"relational\"]",
                "gam.critics=[{\"role\":\"fact\",\"backend\":\"b\"}]", "gam.theta_u=0", "gam.theta_c=0", "gam.max_rounds=1",
                "gam.embedding=none"));
        Trace.Round r0 = ans.trace().rounds().get(0);
        assertThat(r0.agents()).extracting(Trace.AgentTurn::backend).containsExactly("a", "b", "default");
        assertThat(r0.agents()).extracting(Trace.AgentTurn::model).containsExactly("a-model", "b-model", "def-model");
        assertThat(r0.agents()).extracting(Trace.AgentTurn::option).containsExactly("A", "B", "A");
        assertThat(ans.trace().rounds()).hasSizeGreaterThan(1);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, String>> critics = (Map<String, Map<String, String>>) ans.trace().rounds().get(1).extra().get("critic_backends");
        assertThat(critics).containsEntry("fact", Map.of("backend", "b", "model", "b-model"));
        assertThat(prompts(a, "critique")).isEmpty();
        assertThat(prompts(b, "critique")).isNotEmpty();
        assertThat(meter.tallies()).containsKeys("a", "b", "default");
        long total = meter.tallies().values().stream().mapToLong(UsageMeter.Tally::totalTokens).sum();
        assertThat(total).as("every call is counted on some backend").isEqualTo(ans.tokens().total());
    }
}
