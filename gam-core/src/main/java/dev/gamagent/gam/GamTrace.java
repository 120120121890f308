package dev.gamagent.gam;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.backend.UncertaintySignal;
import dev.gamagent.engine.AgentImages;
import dev.gamagent.influence.DebateRule;
import dev.gamagent.util.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes a gam run down: each round's trace (the agents' turns, the consensus, the trigger and stop checks and what each
 * expert was asked), the run's trace, and the weights progress event.
 */
final class GamTrace {
    private final GamRun run;

    GamTrace(GamRun run) { this.run = run; }

    /** The {@code weights} progress event: each answering expert's weight, U_sys and C after round {@code k}. */
    void weights(int k, RoundState st) {
        Map<String, Double> w = new LinkedHashMap<>();
        for (int i = 0; i < st.live().size(); i++) w.put(st.live().get(i).spec().id(), st.game().weights()[i]);
        run.ctx.progress().event(new ProgressEvent.Weights(k, w, st.game().uSys(), st.game().conflict()));
    }

    /** Round 0's trigger as the viewer explains it: each value beside its threshold and which one started the debate. */
    static Map<String, Object> trigger(DebateRule.Trigger t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("U_sys", t.uSys());
        m.put("theta_U", t.thetaU());
        m.put("uncertainty_crossed", t.byUncertainty());
        m.put("conflict", t.conflict());
        m.put("theta_C", t.thetaC());
        m.put("conflict_crossed", t.byConflict());
        m.put("reads_uncertainty", t.readsUncertainty()); // false under the "no uncertainty" ablation: only C can start a debate
        m.put("started_by", t.startedBy());
        return m;
    }

    /** The check after a debate round: the stop reason ("continue" when the debate goes on) and the values and thresholds behind it. */
    static Map<String, Object> stop(DebateRule.Stop st) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reason", st.reason() == null ? "continue" : st.reason().label());
        m.put("k", st.k());
        m.put("U_sys", st.uSys());
        m.put("theta_term", st.thetaTerm());
        m.put("previous_U_sys", st.previousUSys());
        m.put("delta_U_sys", st.deltaUSys());
        m.put("epsilon", st.epsilon());
        m.put("K_max", st.maxRounds());
        m.put("tokens", st.tokens());
        m.put("token_budget", st.tokenBudget());
        m.put("agreed", st.agreed());
        m.put("reads_uncertainty", st.readsUncertainty()); // false: θ_term and ε do not act ("no uncertainty" ablation)
        if (st.forcedBy() != null) {
            m.put("forced_by", st.forcedBy());
            m.put("unforced_reason", st.unforcedReason() == null ? "continue" : st.unforcedReason().label());
        }
        return m;
    }

    /** A round's consensus as the trace records it: answer, confidence, rule, mixture, and who holds no opinion. */
    Map<String, Object> consensus(RoundState st) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("consensus_answer", st.answer());
        if (st.option() != null) m.put("consensus_option", st.option());
        m.put("consensus_confidence", st.confidence());
        m.put("decision", dev.gamagent.baseline.Panel.decision(st.option(), st.answer())); // flip accounting: the consensus is gam's decision
        m.put("consensus_rule", st.verdict().rule().label());
        // the option mixture Σ w·p / Σ w over the experts with an opinion: the numbers the decision read (docs/design.md §6)
        if (!st.verdict().mixture().isEmpty()) m.put("mixture", st.verdict().mixture());
        m.put("agreed", st.agreed());
        Map<String, String> none = new LinkedHashMap<>();
        for (ExpertTurn t : st.live()) {
            String why = t.noOpinion(run.q.isMultipleChoice());
            if (why != null) none.put(t.spec().id(), why);
        }
        // experts without an opinion keep their weight but stay out of Sim, C and the consensus (docs/design.md §5)
        if (!none.isEmpty()) m.put("no_opinion", none);
        return m;
    }

    /** The scale the agent's images were given at: DREAM's assignment when present (the first of several), else the role's. */
    private double seenScale(ExpertTurn t) {
        return AgentImages.scales(run.ctx, t.index(), t.spec().scale()).get(0);
    }

    /** Round {@code k}'s trace: its turns, the state they made (null when none answered), the critiques and the extra. */
    Trace.Round round(int k, List<ExpertTurn> turns, RoundState st, List<Trace.Critique> critiques, Map<String, Object> extra) {
        List<Trace.AgentTurn> agents = new ArrayList<>();
        for (ExpertTurn t : turns) {
            if (!t.answered()) {
                agents.add(new Trace.AgentTurn(t.spec().id(), t.spec().role().key(), seenScale(t), null, null, 1.0,
                        UncertaintySignal.FIXED.label(), null, List.of(), TokenCount.ZERO, null, null, t.error(), null,
                        RunContext.label(t.spec().backend()), null));
                continue;
            }
            Double w = st == null || !st.live().contains(t) ? null : st.weightOf(t);
            agents.add(new Trace.AgentTurn(t.spec().id(), t.spec().role().key(), seenScale(t), t.answer(), t.option(),
                    t.u().value(), t.u().signal().label(), w, t.parsed().claims(), t.tokens(), t.raw(), t.parsed().parse(),
                    null, t.dist(), RunContext.label(t.spec().backend()), t.model()));
        }
        // what each expert's sampled answers were: its U is their agreement
        extra = withPerExpert(extra, "samples", turns, ExpertTurn::samples);
        // what each expert was asked this round, as text (trace.prompts; images as notes)
        extra = withPerExpert(extra, "prompts", turns, ExpertTurn::prompt);
        // what reading each reply set aside (a claim naming a frame the question lacks)
        extra = withPerExpert(extra, "parse_notes", turns, t -> t.parsed().notes().isEmpty() ? null : t.parsed().notes());
        // where each expert's option distribution came from (docs/design.md §4)
        extra = withPerExpert(extra, "distribution_source", turns, ExpertTurn::distSource);
        return new Trace.Round(k, agents, critiques, st == null ? null : st.game().uSys(), st == null ? null : st.game().conflict(),
                extra == null || extra.isEmpty() ? null : extra);
    }

    /**
     * {@code extra} (a copy, or a new map when null) with {@code key} → each expert's value, in turn order, for the turns
     * where {@code valueOf} gives one (not null); {@code extra} itself when no turn has one.
     */
    private static Map<String, Object> withPerExpert(Map<String, Object> extra, String key, List<ExpertTurn> turns,
                                                     Function<ExpertTurn, ?> valueOf) {
        Map<String, Object> byExpert = new LinkedHashMap<>();
        for (ExpertTurn t : turns) {
            Object v = valueOf.apply(t);
            if (v != null) byExpert.put(t.spec().id(), v);
        }
        if (byExpert.isEmpty()) return extra;
        Map<String, Object> out = extra == null ? new LinkedHashMap<>() : new LinkedHashMap<>(extra);
        out.put(key, byExpert);
        return out;
    }

    /** The run's trace: its rounds, termination, final answer and tokens, calls and time spent so far. */
    Trace trace(List<Trace.Round> rounds, String termination, Trace.Final fin, Map<String, Object> extra) {
        Map<String, Object> config = Json.MAPPER.convertValue(run.ctx.config().node("gam"), new TypeReference<Map<String, Object>>() { });
        TokenCount tok = run.tokenCount();
        long ms = run.millis();
        Map<String, Object> ex = new LinkedHashMap<>(extra);
        ex.put("similarity", run.q.isMultipleChoice() ? "bhattacharyya" : run.similarity.usesEmbeddings() ? "embedding-cosine" : "jaccard");
        ex.put("scoring", run.s.scoring().label());
        return new Trace(Trace.QuestionInfo.of(run.q), "gam", config, List.copyOf(rounds), termination, fin, tok, run.calls(), ms, ex);
    }
}
