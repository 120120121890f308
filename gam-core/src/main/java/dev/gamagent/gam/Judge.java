package dev.gamagent.gam;

import dev.gamagent.api.RunContext;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.engine.PromptText;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The judge of an open question after a debate (gam.judge): reads the experts' final answers with their weights and
 * writes the answer; its call and reply are recorded in the trace's {@code extra.judge}.
 */
final class Judge {
    private final GamRun run;

    Judge(GamRun run) { this.run = run; }

    /** The judge's answer, or null (no answer, not applicable, or a failed call: the consensus stands). */
    String judge(RoundState st, Map<String, Object> extra) {
        List<GamPrompts.Peer> peers = new ArrayList<>();
        for (ExpertTurn t : st.live()) peers.add(new GamPrompts.Peer(t.spec().id(), st.weightOf(t), ExpertTurn.render(t)));
        try {
            Backend b = run.ctx.backendFor(run.s.judgeBackend());
            extra.put("backend", RunContext.label(run.s.judgeBackend()));
            ChatRequest req = run.request(run.prompts.judge(peers), run.q.images(), null, null);
            if (run.recordPrompts) extra.put("prompt", PromptText.of(req));
            ChatResult r = b.chat(req);
            run.count(r);
            extra.put("model", r.model() == null ? b.name() : r.model());
            ParsedResponse p = ClaimParser.parseAnswer(r.text(), Map.of());
            extra.put("raw", r.text());
            extra.put("parse", p.parse());
            if (p.answer() == null || p.notApplicable()) return null;
            extra.put("answer", p.answer());
            return p.answer();
        } catch (RuntimeException e) {
            extra.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
            return null;
        }
    }
}
