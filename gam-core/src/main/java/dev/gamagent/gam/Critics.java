package dev.gamagent.gam;

import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.engine.AgentImages;
import dev.gamagent.engine.PromptText;
import dev.gamagent.image.Picture;
import dev.gamagent.image.Region;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The critics of a debate round (GAM-Agent §3.5.2): the disputed claims, the images and zoomed crops each critic sees,
 * and their assessments, asked in parallel and recorded in the round's trace.
 */
final class Critics {
    private final GamRun run;

    Critics(GamRun run) { this.run = run; }

    /**
     * Disputed claims (GAM-Agent §3.5.2): first the main claim of each expert that contradicts the weighted
     * consensus (least trusted first), then the lowest-confidence claims; at most {@code gam.max_disputed}.
     * An expert that disagrees but gave no claims is represented by its answer as a claim.
     */
    List<GamPrompts.Disputed> disputed(RoundState st) {
        List<GamPrompts.Disputed> out = new ArrayList<>();
        List<ExpertTurn> dissent = new ArrayList<>();
        for (ExpertTurn t : st.live()) if (t.noOpinion(run.q.isMultipleChoice()) == null && disagrees(t, st)) dissent.add(t);
        dissent.sort(Comparator.comparingDouble(st::weightOf));
        for (ExpertTurn t : dissent) {
            Trace.Claim main = t.parsed().claims().isEmpty()
                    ? new Trace.Claim(0, "The answer is " + (t.option() != null ? t.option() + ". " : "") + t.answer(), 1 - t.u().value(), null, null)
                    : t.parsed().claims().get(0);
            out.add(new GamPrompts.Disputed(t.spec().id(), main));
        }
        List<GamPrompts.Disputed> rest = new ArrayList<>();
        for (ExpertTurn t : st.live()) {
            if (t.noOpinion(run.q.isMultipleChoice()) != null) continue; // an expert without an opinion has nothing to dispute
            for (Trace.Claim c : t.parsed().claims()) rest.add(new GamPrompts.Disputed(t.spec().id(), c));
        }
        rest.sort(Comparator.comparingDouble(d -> d.claim().confidence()));
        for (GamPrompts.Disputed d : rest) if (!out.contains(d)) out.add(d);
        return out.size() > run.s.maxDisputed() ? List.copyOf(out.subList(0, Math.max(0, run.s.maxDisputed()))) : out;
    }

    private boolean disagrees(ExpertTurn t, RoundState st) {
        if (run.q.isMultipleChoice()) return t.option() != null && !t.option().equals(st.option());
        if (t.answer() == null || st.answer() == null) return false;
        return run.similarity.open(t.answer(), st.answer()) < 0.8;
    }

    /**
     * Every critic assesses the disputed claims, in parallel; their critiques go to {@code critiques} and the round's usage,
     * errors, parse paths, backends and prompts to {@code roundExtra}. Returns what the experts are shown.
     */
    List<GamPrompts.Shown> ask(int k, RoundState st, List<GamPrompts.Disputed> disputed,
                                List<Trace.Critique> critiques, Map<String, Object> roundExtra) {
        if (disputed.isEmpty() || run.s.critics().isEmpty()) return List.of();
        String consensus = (st.answer() == null ? "(no expert holds an opinion)" : (st.option() != null ? st.option() + ". " : "") + st.answer())
                + String.format(java.util.Locale.ROOT, " (weighted confidence %.2f, U_sys %.2f)", st.confidence(), st.game().uSys());
        List<Callable<List<GamPrompts.Shown>>> jobs = new ArrayList<>();
        Map<String, String> errors = new ConcurrentHashMap<>();
        Map<String, String> paths = new ConcurrentHashMap<>();
        Map<String, Map<String, String>> served = new ConcurrentHashMap<>();
        Map<String, String> asked = new ConcurrentHashMap<>();
        // critics' usage belongs to this round (they are not trace agents), so a sweep stopping here counts it
        AtomicLong critPrompt = new AtomicLong(), critCompletion = new AtomicLong();
        AtomicInteger critCalls = new AtomicInteger();
        for (int c = 0; c < run.s.critics().size(); c++) {
            AgentSpec spec = run.s.critics().get(c);
            int index = run.s.experts().size() + c;
            jobs.add(() -> {
                try {
                    Backend backend = run.ctx.backendFor(spec.backend());
                    boolean json = backend.capabilities().structuredOutput();
                    List<Picture> images = new ArrayList<>();
                    String zoom = criticImages(images, disputed, index, spec.scale(), backend.capabilities().maxImagePixels());
                    String prompt = run.prompts.critique(spec.role(), consensus, disputed, zoom, json);
                    ChatRequest req = run.request(prompt, images, json ? "gam_critique" : null, json ? ResponseSchemas.CRITIQUE : null);
                    if (run.recordPrompts) asked.put(spec.id(), PromptText.of(req));
                    ChatResult r = backend.chat(req);
                    TokenCount used = run.count(r);
                    critPrompt.addAndGet(used.prompt());
                    critCompletion.addAndGet(used.completion());
                    critCalls.incrementAndGet();
                    paths.put(spec.id(), ClaimParser.critiquePath(r.text()));
                    served.put(spec.id(), Map.of("backend", RunContext.label(spec.backend()), "model", r.model() == null ? backend.name() : r.model()));
                    List<GamPrompts.Shown> mine = new ArrayList<>();
                    for (Assessment a : ClaimParser.parseCritique(r.text(), disputed.size())) {
                        GamPrompts.Disputed d = a.claim() == 0 ? null : disputed.get(a.claim() - 1);
                        mine.add(new GamPrompts.Shown(spec.id(), d == null ? null : d.expert(), d == null ? null : d.claim().text(), a));
                    }
                    return mine;
                } catch (RuntimeException e) {
                    errors.put(spec.id(), e.getClass().getSimpleName() + ": " + e.getMessage());
                    return List.of();
                }
            });
        }
        List<GamPrompts.Shown> shown = new ArrayList<>();
        for (List<GamPrompts.Shown> l : run.all(jobs)) shown.addAll(l);
        for (GamPrompts.Shown sh : shown) {
            Assessment a = sh.assessment();
            int claimN = a.claim() == 0 ? 0 : disputed.get(a.claim() - 1).claim().n();
            critiques.add(new Trace.Critique(sh.critic(), sh.expert(), claimN, sh.claimText(), a.assessment(), a.reason(),
                    a.correction(), a.confidence()));
            run.ctx.progress().event(new ProgressEvent.Critique(k, sh.critic(), sh.expert(), claimN, a.assessment()));
        }
        if (critCalls.get() > 0) {
            Map<String, Object> used = new LinkedHashMap<>();
            used.put("prompt", critPrompt.get());
            used.put("completion", critCompletion.get());
            roundExtra.put("tokens", used);
            roundExtra.put("calls", critCalls.get());
        }
        if (!errors.isEmpty()) roundExtra.put("critic_errors", new LinkedHashMap<>(errors));
        if (!paths.isEmpty()) roundExtra.put("critic_parse", new LinkedHashMap<>(paths));
        if (!served.isEmpty()) roundExtra.put("critic_backends", new java.util.TreeMap<>(served));
        if (!asked.isEmpty()) {
            // what each critic was asked (trace.prompts), in the panel's order
            Map<String, String> ordered = new LinkedHashMap<>();
            for (AgentSpec c : run.s.critics()) if (asked.containsKey(c.id())) ordered.put(c.id(), asked.get(c.id()));
            roundExtra.put("critic_prompts", ordered);
        }
        return shown;
    }

    /**
     * The images a critic sees (GAM on frames, docs/video.md): the frames the disputed claims name, each whole at the
     * critic's scale, in time order (every image when the question has one, or when a disputed claim names no frame);
     * then, with {@code gam.zoom}, a zoomed crop of each claim's region on its own frame. Returns the sentence telling
     * the critic which image is which (null when there is nothing to say: one image and no crops).
     */
    private String criticImages(List<Picture> out, List<GamPrompts.Disputed> disputed, int index, double scale, long maxPixels) {
        int n = run.q.images().size();
        List<Integer> frames = new ArrayList<>();
        boolean every = n <= 1 || disputed.stream().anyMatch(d -> d.claim().frame() == null);
        if (every) {
            for (int f = 1; f <= n; f++) frames.add(f);
        } else {
            disputed.stream().map(d -> d.claim().frame()).distinct().sorted().forEach(frames::add);
        }
        Question seen = every ? run.q : run.q.withImages(frames.stream().map(f -> run.q.images().get(f - 1)).toList());
        out.addAll(AgentImages.forAgent(seen, run.ctx, index, scale, maxPixels));
        StringBuilder which = new StringBuilder();
        if (n > 1) {
            int per = AgentImages.scales(run.ctx, index, scale).size(); // MixRes: each frame at each of the agent's scales
            for (int i = 0; i < frames.size(); i++) {
                which.append(i == 0 ? "Images: " : ", ")
                        .append(per == 1 ? "image " + (i + 1) : "images " + (i * per + 1) + "-" + ((i + 1) * per))
                        .append(" = frame ").append(frames.get(i));
            }
            which.append(".");
        }
        if (!run.s.zoom() || n == 0) return which.length() == 0 ? null : which.toString();
        StringBuilder sb = new StringBuilder();
        int shown = out.size();
        for (int i = 0; i < disputed.size(); i++) {
            Trace.Claim c = disputed.get(i).claim();
            Region r = c.region();
            if (r == null || r.isEmpty()) continue;
            Integer frame = c.frame() != null ? c.frame() : n == 1 ? Integer.valueOf(1) : null;
            if (frame == null) continue; // a region on no named frame of several: no crop to take
            Picture on = run.q.images().get(frame - 1);
            Picture crop = on.crop(r.expand(0.15));
            // enlarge small crops so the critic can see detail, within the backend's pixel limit
            double up = Math.min(4, Math.sqrt((double) on.pixels() / Math.max(1, crop.pixels())));
            out.add(up > 1 ? crop.scaled(up, maxPixels) : crop);
            sb.append(sb.length() == 0 ? "" : ", ").append("image ").append(++shown).append(" = zoom on CLAIM ").append(i + 1);
            if (n > 1) sb.append(" (frame ").append(frame).append(")");
        }
        String crops = sb.length() == 0 ? null : "Zoomed crops: " + sb + ".";
        if (which.length() == 0) return crops;
        return crops == null ? which.toString() : which + " " + crops;
    }
}
