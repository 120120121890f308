package dev.gamagent.gam;

import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.Question;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.backend.UncertaintySignal;
import dev.gamagent.engine.AgentImages;
import dev.gamagent.engine.AnswerSampler;
import dev.gamagent.engine.PromptText;
import dev.gamagent.engine.ReplyParser;
import dev.gamagent.influence.OptionDistribution;
import dev.gamagent.image.Picture;
import dev.gamagent.uncertainty.Estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * The experts of one round: each asked in parallel (round 0 the question, later rounds a revision with the peers' answers
 * and the critiques), its reply read into a turn with its answer, uncertainty U and option distribution (docs/design.md §4–5).
 */
final class Experts {
    private final GamRun run;

    Experts(GamRun run) { this.run = run; }

    /** Round {@code k}: every expert in parallel, each turn reported as a progress event, in the experts' order. */
    List<ExpertTurn> round(int k, RoundState prev, List<GamPrompts.Shown> critiques, Map<String, ExpertTurn> lastAnswered) {
        List<Callable<ExpertTurn>> jobs = new ArrayList<>();
        for (int i = 0; i < run.s.experts().size(); i++) {
            AgentSpec spec = run.s.experts().get(i);
            int index = i;
            jobs.add(() -> expert(k, spec, index, prev, critiques, lastAnswered.get(spec.id())));
        }
        List<ExpertTurn> turns = run.all(jobs);
        for (ExpertTurn t : turns) {
            String id = t.spec().id(), role = t.spec().role().key();
            run.ctx.progress().event(t.answered() ? new ProgressEvent.AgentAnswered(k, id, role, t.answer(), t.option(), t.u().value(), null)
                    : new ProgressEvent.AgentAnswered(k, id, role, null, null, null, t.error()));
        }
        return turns;
    }

    private ExpertTurn expert(int k, AgentSpec spec, int index, RoundState prev, List<GamPrompts.Shown> critiques, ExpertTurn mine) {
        Backend backend;
        try {
            backend = run.ctx.backendFor(spec.backend());
        } catch (RuntimeException e) {
            return ExpertTurn.failed(spec, index, "backend '" + spec.backend() + "': " + e.getMessage(), null);
        }
        boolean json = backend.capabilities().structuredOutput();
        List<Picture> images = AgentImages.forAgent(run.q, run.ctx, index, spec.scale(), backend.capabilities().maxImagePixels());
        ChatRequest req;
        if (k == 0) {
            req = answerRequest(run.s, run.prompts, spec, json, images);
        } else {
            List<GamPrompts.Peer> peers = new ArrayList<>();
            for (ExpertTurn t : prev.live()) {
                if (!t.spec().id().equals(spec.id())) peers.add(new GamPrompts.Peer(t.spec().id(), prev.weightOf(t), ExpertTurn.render(t)));
            }
            String prompt = run.prompts.revise(spec.role(), mine == null ? null : ExpertTurn.render(mine), peers, critiques, json);
            req = run.request(prompt, images, json ? "gam_expert" : null, json ? run.prompts.expertSchema() : null).from(spec.id(), k);
        }
        String asked = run.recordPrompts ? PromptText.of(req) : null;
        ChatResult result;
        try {
            result = backend.chat(req);
        } catch (RuntimeException e) {
            return ExpertTurn.failed(spec, index, e.getClass().getSimpleName() + ": " + e.getMessage(), asked);
        }
        TokenCount tok = run.count(result);
        Choice c = result.first();
        // a claim's frame names one of the question's images (1..N); one outside them is dropped with a note in the trace
        ParsedResponse p = ClaimParser.parseAnswer(c.text(), run.q.options()).withFramesWithin(run.q.images().size());
        String option = null, answer = p.answer();
        if (run.q.isMultipleChoice() && p.answer() != null && !p.notApplicable()) {
            option = ReplyParser.option(p.answer(), run.q.options());
            if (option != null) answer = run.q.options().get(option);
        }
        boolean opinionless = ExpertTurn.noOpinion(p.notApplicable(), p.parse(), answer, option, run.q.isMultipleChoice()) != null;
        AnswerSampler.Sampled sampled = null;
        if (!opinionless && !run.s.noUncertainty() && run.sampler.applies(c)) {
            // no log-probs: U from n samples of the same request (docs/GAM.md, "Without log-probs")
            List<TokenCount> used = new ArrayList<>();
            try {
                sampled = sampled(option != null ? option : answer, p.hedgeText(c.text()), run.sampler.draw(backend, req, r -> used.add(run.count(r))));
            } catch (RuntimeException e) {
                sampled = null; // the samples failed, the answer stands: its U falls back to Φ_sem (the trace's signal says so)
            }
            tok = used.stream().reduce(tok, TokenCount::plus);
        }
        Estimate u;
        if (run.s.noUncertainty()) {
            u = new Estimate(GamSettings.EQUAL_U, UncertaintySignal.FIXED); // the ablation: one U for all, opinionless included
        } else if (opinionless) {
            u = Estimate.notApplicable(); // not applicable or no readable answer: maximal uncertainty (docs/design.md §5)
        } else if (sampled != null) {
            u = sampled.uncertainty();
        } else {
            u = run.estimator.estimate(c, run.s.scoring(), spanAnswer(p.answer(), option), p.hedgeText(c.text()), ClaimParser::contentSpans);
        }
        Map<String, Double> dist = null;
        String source = null;
        if (run.q.isMultipleChoice() && opinionless) {
            dist = OptionDistribution.smoothed(run.letters, null, 1); // no opinion: nothing chosen, uniform (docs/design.md §5)
            source = "uniform";
        } else if (run.q.isMultipleChoice() && sampled != null) {
            dist = sampled.distribution();
            source = "samples";
        } else if (run.q.isMultipleChoice()) {
            // the letter token's own probabilities when they describe the choice the reply made (docs/design.md §4), else the
            // chosen option smoothed by U; under "no uncertainty" U says nothing, so the chosen option alone
            Map<String, Double> read = OptionDistribution.fromLogprobs(c.logprobs(), run.letters, option);
            if (OptionDistribution.follows(read, option)) {
                dist = read;
                source = "logprobs";
            } else {
                dist = OptionDistribution.smoothed(run.letters, option, run.s.noUncertainty() ? 0 : u.value());
                source = (run.s.noUncertainty() ? "chosen option" : "smoothed by U")
                        + (read == null ? "" : " (the letter's log-probs do not favour the chosen option)");
            }
        }
        return new ExpertTurn(spec, index, c.text(), c, p, answer, option, u, dist, source, tok, null,
                result.model() == null ? backend.name() : result.model(), sampled == null ? null : sampled.keys(), asked);
    }

    /** What an expert's samples say about its answer (the answer's letter, or its words for an open question). */
    private AnswerSampler.Sampled sampled(String answer, String hedgeText, List<Choice> samples) {
        Function<Choice, String> key = ch -> {
            ParsedResponse p = ClaimParser.parseAnswer(ch.text(), run.q.options());
            if (p.notApplicable() || p.answer() == null) return null;
            return run.q.isMultipleChoice() ? ReplyParser.option(p.answer(), run.q.options()) : p.answer();
        };
        return run.q.isMultipleChoice() ? run.sampler.options(answer, samples, key, run.letters, hedgeText)
                : run.sampler.open(answer, samples, key, run.similarity, hedgeText);
    }

    /**
     * The answer as the expert wrote it, for answer-span scoring: the option letter when it wrote one ("B", "B. blue"),
     * else its own words ("blue"); searching for a letter it never wrote would score an unrelated token.
     */
    static String spanAnswer(String written, String option) {
        if (option == null || written == null) return written;
        return written.strip().matches("(?s)^[(\\[*\"']*" + java.util.regex.Pattern.quote(option) + "\\b.*") ? option : written;
    }

    /**
     * An expert's round-0 request with these images: the answer prompt in its role, JSON schema when the backend takes one
     * ({@code json}), greedy. The controller sends it in round 0 and DREAM's probe asks it at each scale (GamMethod#opening).
     */
    static ChatRequest answerRequest(GamSettings s, GamPrompts prompts, AgentSpec spec, boolean json, List<Picture> images) {
        return GamRun.request(s, prompts.answer(spec.role(), json), images, json ? "gam_expert" : null, json ? prompts.expertSchema() : null)
                .from(spec.id(), 0);
    }

    /** An expert's reply as the controller reads it: its answer and option, or no answer when it holds no opinion (docs/design.md §5). */
    static MultiAgentMethod.Reading read(Question q, String text) {
        ParsedResponse p = ClaimParser.parseAnswer(text, q.options());
        String option = null, answer = p.answer();
        if (q.isMultipleChoice() && p.answer() != null && !p.notApplicable()) {
            option = ReplyParser.option(p.answer(), q.options());
            if (option != null) answer = q.options().get(option);
        }
        return ExpertTurn.noOpinion(p.notApplicable(), p.parse(), answer, option, q.isMultipleChoice()) != null ? new MultiAgentMethod.Reading(null, null)
                : new MultiAgentMethod.Reading(answer, option);
    }
}
