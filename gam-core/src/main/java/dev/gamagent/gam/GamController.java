package dev.gamagent.gam;

import dev.gamagent.api.Answer;
import dev.gamagent.api.MethodFailure;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.influence.DebateRule;
import dev.gamagent.influence.Similarity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The GAM-Agent controller for one question (GAM-Agent §3.5; docs/design.md §6): round 0 experts in
 * parallel; U_i, Sim, w, U_sys, C; debate iff U_sys > θ_U or C > θ_C; each round picks disputed claims,
 * runs the critics and then the experts' revisions in parallel and recomputes the game; stops on
 * uncertainty, stagnation, K_max or budget. It plays the rounds; {@link Experts}, {@link Critics}, {@link Judge},
 * {@link GamDecision} and {@link GamTrace} do the work of each. One instance per run.
 */
final class GamController {
    private final GamRun run;
    private final Question q;
    private final RunContext ctx;
    private final GamSettings s;
    private final Experts experts;
    private final Critics critics;
    private final Judge judge;
    private final GamDecision decision;
    private final GamTrace traces;

    GamController(Question q, RunContext ctx, GamSettings settings, Similarity similarity) {
        this.run = new GamRun(q, ctx, settings, similarity);
        this.q = q;
        this.ctx = ctx;
        this.s = settings;
        this.experts = new Experts(run);
        this.critics = new Critics(run);
        this.judge = new Judge(run);
        this.decision = new GamDecision(run);
        this.traces = new GamTrace(run);
    }

    Answer run() {
        List<Trace.Round> rounds = new ArrayList<>();
        Map<String, ExpertTurn> lastAnswered = new HashMap<>();

        ctx.progress().event(new ProgressEvent.RoundStarted(0));
        List<ExpertTurn> turns0 = experts.round(0, null, List.of(), lastAnswered);
        if (turns0.stream().noneMatch(ExpertTurn::answered)) {
            rounds.add(traces.round(0, turns0, null, List.of(), null));
            Trace partial = traces.trace(rounds, "failed", null, Map.of());
            String why = turns0.stream().map(t -> t.spec().id() + ": " + t.error()).reduce((a, b) -> a + "; " + b).orElse("no experts");
            throw new MethodFailure("gam: no expert answered question " + q.id() + " (" + why + ")", null, partial);
        }
        RoundState state0 = decision.evaluate(turns0);
        remember(turns0, lastAnswered);
        traces.weights(0, state0);
        DebateRule rule = s.rule();
        DebateRule.Trigger check = rule.trigger(state0);
        boolean trigger = check.fired();
        Map<String, Object> extra0 = new LinkedHashMap<>(traces.consensus(state0));
        extra0.put("trigger", trigger);
        extra0.put("trigger_check", GamTrace.trigger(check));
        if (s.recordFull()) extra0.put("stop_reason_if_default", trigger ? "continue" : Termination.CONSENSUS.label());
        rounds.add(traces.round(0, turns0, state0, List.of(), extra0));

        // the rule (shared with gam sweep) decides when to debate and stop; this class plays the rounds it asks for
        DebateRule.Outcome<RoundState> end = rule.run(state0, new DebateRule.Rounds<>() {
            private List<Trace.Critique> critiques;
            private Map<String, Object> roundExtra;
            private int disputedCount;

            @Override public RoundState play(int k, RoundState current) {
                ctx.progress().event(new ProgressEvent.RoundStarted(k));
                List<GamPrompts.Disputed> disputed = critics.disputed(current);
                disputedCount = disputed.size();
                roundExtra = new LinkedHashMap<>();
                critiques = new ArrayList<>();
                List<GamPrompts.Shown> shown = critics.ask(k, current, disputed, critiques, roundExtra);
                List<ExpertTurn> turns = experts.round(k, current, shown, lastAnswered);
                remember(turns, lastAnswered);
                return turns.stream().anyMatch(ExpertTurn::answered) ? decision.evaluate(turns) : new RoundState(turns, List.of(), null, null, false);
            }

            @Override public RoundState carry(RoundState previous, RoundState failed) {
                return new RoundState(failed.turns(), previous.live(), previous.game(), previous.verdict(), previous.agreed());
            }

            @Override public long tokensUsed() { return run.tokens(); }

            @Override public void settled(int k, RoundState next, DebateRule.Stop stop) {
                traces.weights(k, next);
                roundExtra.putAll(traces.consensus(next));
                roundExtra.put("disputed", disputedCount);
                if (!next.answered()) roundExtra.put("carried", "every expert failed; the previous round's standing is kept");
                roundExtra.put("stop", GamTrace.stop(stop));
                Termination unforced = stop.unforcedReason();
                if (s.recordFull()) roundExtra.put("stop_reason_if_default", unforced == null ? "continue" : unforced.label());
                rounds.add(traces.round(k, next.turns(), next, critiques, roundExtra));
            }
        });

        RoundState state = end.last();
        int ran = end.rounds();
        String answer = state.answer(), option = state.option();
        double confidence = state.confidence();
        Map<String, Object> judgeExtra = new LinkedHashMap<>();
        if (s.judge() && !q.isMultipleChoice() && ran > 0) {
            String judged = judge.judge(state, judgeExtra);
            if (judged != null) {
                answer = judged;
                confidence = decision.openConfidence(state, judged);
            }
        }
        Trace.Final fin = new Trace.Final(answer, option, confidence);
        Trace trace = traces.trace(rounds, end.termination().label(), fin, judgeExtra.isEmpty() ? Map.of() : Map.of("judge", judgeExtra));
        return new Answer(answer, option, confidence, state.game().uSys(), ran, end.termination(), trace.tokens(),
                run.calls(), trace.millis(), trace);
    }

    private static void remember(List<ExpertTurn> turns, Map<String, ExpertTurn> last) {
        for (ExpertTurn t : turns) if (t.answered()) last.put(t.spec().id(), t);
    }
}
