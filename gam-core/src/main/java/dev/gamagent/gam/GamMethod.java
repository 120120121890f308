package dev.gamagent.gam;

import dev.gamagent.api.Answer;
import dev.gamagent.api.CallPlan;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Trace;
import dev.gamagent.config.Config;
import dev.gamagent.engine.Prompts;
import dev.gamagent.influence.BgeSentenceEmbedder;
import dev.gamagent.influence.OptionDistribution;
import dev.gamagent.influence.Similarity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code gam} method: GAM-Agent's uncertainty-aware, game-theoretic debate (docs/design.md §3–6). Settings
 * come from the {@code gam} config section; open-answer similarity uses the in-process BGE-small
 * embedding model unless {@code gam.embedding} is {@code none} (then token Jaccard).
 */
public final class GamMethod implements MultiAgentMethod {
    @Override public String name() { return "gam"; }

    @Override public Answer run(Question question, RunContext context) {
        GamSettings settings = GamSettings.from(context.config());
        return new GamController(question, context, settings, similarityFor(question, settings)).run();
    }

    @Override public Map<String, String> backendRefs(Config config) { return GamSettings.backendRefs(config); }

    /**
     * N experts answer; each debate round asks N_crit critics and the N experts again, at most K_max rounds (every
     * round under {@code gam.record_full}); + 1 when the judge decides, which it does only after a debate round on an
     * open question (GamController), so never in the least.
     */
    @Override public Optional<CallPlan> plannedCalls(Config config) {
        GamSettings s = GamSettings.from(config);
        int n = s.experts().size(), c = s.critics().size(), k = s.stopping().maxRounds();
        int judge = s.judge() ? 1 : 0;
        int max = n + k * (n + c) + judge;
        int min = s.recordFull() ? max - judge : n;
        return Optional.of(new CallPlan(min, max, "N experts, then per debate round N_crit critics and N experts, at most K_max = " + k
                + " rounds" + (s.recordFull() ? " (record_full: every round runs)" : "") + (judge == 1 ? " + judge" : "")));
    }

    /** The experts, the agents that answer (critics assess claims and never answer the question), greedy. */
    @Override public List<Agent> agents(Question question, Config config) {
        Prompts prompts = new Prompts(config);
        List<Agent> out = new ArrayList<>();
        for (AgentSpec e : GamSettings.from(config).experts()) {
            out.add(new Agent(e.id(), e.role().label(), e.backend(), prompts.render(e.role().template(), Map.of()), 0));
        }
        return out;
    }

    /**
     * Expert {@code index}'s round-0 request with these images, read as the controller reads it (DREAM's probe asks
     * exactly this, so the probe at the scale the expert debates at is its round-0 answer). Critics are not probed.
     */
    @Override public Optional<Opening> opening(Question q, RunContext ctx, int index, List<dev.gamagent.image.Picture> images) {
        GamSettings s = GamSettings.from(ctx.config());
        if (index < 0 || index >= s.experts().size()) return Optional.empty();
        AgentSpec spec = s.experts().get(index);
        boolean json = ctx.backendFor(spec.backend()).capabilities().structuredOutput();
        GamPrompts prompts = new GamPrompts(new Prompts(ctx.config()), q, dev.gamagent.engine.AgentImages.note(ctx),
                dev.gamagent.engine.RequestLayout.of(ctx.config()));
        return Optional.of(new Opening(Experts.answerRequest(s, prompts, spec, json, images), text -> Experts.read(q, text)));
    }

    /**
     * GAM's own decision over the answers DREAM's rollback kept: the experts that had a weight in the last
     * round, each with the weight it had there and the distribution of the answer it now holds (GamDecision#decide).
     */
    @Override public Optional<Decision> decide(Question question, List<Trace.AgentTurn> answers, Config config) {
        GamSettings settings = GamSettings.from(config);
        List<Trace.AgentTurn> weighted = answers.stream().filter(t -> t.weight() != null).toList();
        if (weighted.isEmpty()) return Optional.empty();
        int n = weighted.size();
        double[] w = new double[n], u = new double[n];
        List<String> texts = new ArrayList<>(), options = new ArrayList<>();
        boolean[] opinion = new boolean[n];
        List<Map<String, Double>> dists = new ArrayList<>();
        List<String> letters = List.copyOf(question.options().keySet());
        for (int i = 0; i < n; i++) {
            Trace.AgentTurn t = weighted.get(i);
            w[i] = t.weight();
            u[i] = t.uncertainty();
            texts.add(t.answer() == null ? "" : t.answer());
            options.add(t.option());
            // the controller's own rule (ExpertTurn#noOpinion): not applicable, unreadable, or an open answer that only declines
            opinion[i] = ExpertTurn.noOpinion(ClaimParser.notApplicable(t.answer()), t.parse(), t.answer(), t.option(),
                    question.isMultipleChoice()) == null;
            Map<String, Double> d = t.optionDistribution();
            dists.add(d != null || !question.isMultipleChoice() ? d : OptionDistribution.smoothed(letters, opinion[i] ? t.option() : null, u[i]));
        }
        double[][] sim = question.isMultipleChoice() ? null : similarityFor(question, settings).open(texts);
        GamDecision.Decision d = GamDecision.decide(question, options, texts, dists, w, u, sim, opinion);
        double uSys = 0, total = 0;
        for (int i = 0; i < n; i++) { uSys += w[i] * u[i]; total += w[i]; }
        return Optional.of(new Decision(d.answer(), d.option(), d.confidence(), total > 0 ? uSys / total : 1));
    }

    static Similarity similarityFor(Question q, GamSettings s) {
        String e = s.embedding() == null ? "none" : s.embedding().strip().toLowerCase(Locale.ROOT);
        // multiple choice never needs embeddings: do not pay for loading the model
        if (q.isMultipleChoice() || e.isEmpty() || e.equals("none") || e.equals("jaccard")) return Similarity.lexical();
        if (e.startsWith("bge")) return new Similarity(BgeSentenceEmbedder.shared());
        throw new IllegalArgumentException("gam.embedding = '" + s.embedding() + "' is not known; use 'bge-small-en-v15-q' or 'none'");
    }
}
