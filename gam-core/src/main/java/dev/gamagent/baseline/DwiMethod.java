package dev.gamagent.baseline;

import dev.gamagent.api.CallPlan;
import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.MultiAgentMethod;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.backend.internal.Sampling;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * DwI, "debate with images" (Fang et al., 2025; github.com/mm-deception/debate-with-images), in its
 * question-answering form: N debaters speak in turn for R rounds, each seeing the question's image, every
 * earlier turn and, for every earlier turn that marked regions, the image with those regions drawn on it;
 * each debater states its stance, argues, and marks the regions that show its evidence. A judge reads the
 * whole debate with the marked images and decides. Calls = N·R + 1.
 */
public final class DwiMethod implements MultiAgentMethod {
    @Override public String name() { return "dwi"; }

    /** The debaters {@code debater-1..N} (image indices 0..N-1); the judge shares the last debater's images. */
    static List<Panel.Agent> agents(int n) {
        List<Panel.Agent> out = new ArrayList<>();
        for (Panel.Agent a : Debaters.of(n, "debater")) out.add(new Panel.Agent("debater-" + (a.index() + 1), a.role(), a.index()));
        return out;
    }

    @Override public Map<String, String> backendRefs(Config c) { return Panel.backendRefs("dwi", c.integer("dwi.agents"), c); }

    /** The debaters as DREAM probes them (the judge speaks only at the end), greedy by default. */
    @Override public List<Agent> agents(Question q, Config c) {
        return Debaters.roster("dwi", c, agents(c.integer("dwi.agents")), c.number("dwi.temperature"));
    }

    /** Every debater speaks in each of R rounds, then the judge decides. */
    @Override public java.util.Optional<CallPlan> plannedCalls(Config c) { return java.util.Optional.of(CallPlan.fixed(debaters(c) * rounds(c) + 1, "N·R + judge")); }

    private static int debaters(Config c) { return new Panel.Section("dwi", c).integer("agents"); }

    /** {@code dwi.rounds}, at least 1. */
    private static int rounds(Config c) { return Math.max(1, new Panel.Section("dwi", c).integer("rounds")); }

    /** One spoken turn and the regions it marked. */
    private record Spoken(Turn turn, List<VisualEvidence.Mark> marks) { }

    /** The debate as one agent is shown it: the turns, which image is which, and the marked pictures. */
    private record Shown(String history, String images, List<Picture> marked) {
        Map<String, Object> values() { return Map.of("history", history, "images", images); }
    }

    @Override public Answer run(Question q, RunContext ctx) {
        Panel p = new Panel(name(), "dwi", q, ctx);
        List<Panel.Agent> debaters = p.seat(agents(debaters(p.config())));
        int rounds = rounds(p.config());
        Sampling sampling = p.sampling(p.number("temperature"));
        String system = p.render("dwi_system", debaters.get(0), Map.of());
        String answerHint = q.isMultipleChoice() ? "<option letter>" : "<a single word or short phrase>";
        List<Spoken> history = new ArrayList<>();
        List<Turn> last = List.of();
        for (int k = 0; k < rounds; k++) {
            ctx.progress().event(new ProgressEvent.RoundStarted(k));
            List<Turn> now = new ArrayList<>();
            Map<String, Object> evidence = new LinkedHashMap<>();
            for (Panel.Agent a : debaters) {
                Shown shown = shown(p, a, history);
                Map<String, Object> v = new LinkedHashMap<>(shown.values());
                v.put("task", history.isEmpty() ? "answer" : "revise");
                v.put("answer_hint", answerHint);
                Turn t = p.converse(a, k, system, List.of(), p.render("dwi_turn", a, v), shown.marked(), sampling);
                now.add(t);
                if (!t.ok()) continue;
                Picture seen = p.images(a.index()).get(0);
                List<VisualEvidence.Mark> marks = VisualEvidence.read(t.raw(), seen.width(), seen.height());
                history.add(new Spoken(t, marks));
                evidence.put(t.id(), marks);
            }
            last = DebateRounds.carryOver(now, last);
            if (k < rounds - 1) {
                p.record(k, now, null, Map.of("evidence", evidence));
                continue;
            }
            var judge = new Panel.Agent("judge", "judge", debaters.size() - 1);
            Shown shown = shown(p, judge, history);
            Turn j = p.converse(judge, k, null, List.of(), p.render("dwi_judge", judge, shown.values()), shown.marked(), sampling);
            List<Turn> recorded = new ArrayList<>(now);
            recorded.add(j);
            p.record(k, recorded, null, Map.of("evidence", evidence));
            boolean byJudge = j.ok() && j.answer() != null && !j.answer().isBlank() && !"unmatched".equals(j.parse());
            return p.finish(Panel.majority(byJudge ? List.of(j) : last), rounds - 1, Termination.FIXED_ROUNDS,
                    Map.of("decided_by", byJudge ? "judge" : "vote"));
        }
        throw new IllegalStateException("unreachable: dwi.rounds >= 1");
    }

    /**
     * What {@code viewer} is shown of the debate so far: the turns as {@code <peer>} blocks, a note saying
     * which image is which, and the marked pictures, each drawn on the viewer's own copy of the question's
     * first image.
     */
    private static Shown shown(Panel p, Panel.Agent viewer, List<Spoken> history) {
        List<Picture> own = p.images(viewer.index());
        List<Picture> marked = new ArrayList<>();
        StringBuilder peers = new StringBuilder(), note = new StringBuilder();
        note.append(own.size() == 1 ? "Image 1 is the question's image." : "Images 1-" + own.size() + " are the question's image.");
        String w = String.format(Locale.ROOT, "%.2f", 1.0 / Math.max(1, history.size()));
        for (Spoken s : history) {
            String id = s.turn().id() + "-round" + (s.turn().k() + 1);
            peers.append("<peer id=\"").append(id).append("\" weight=\"").append(w).append("\">\n")
                    .append(Panel.body(s.turn(), false)).append("\n</peer>\n");
            if (s.marks().isEmpty()) continue;
            marked.add(VisualEvidence.draw(own.get(0), s.marks(), "evidence-" + id));
            note.append(" Image ").append(own.size() + marked.size()).append(" shows the regions ").append(s.turn().id())
                    .append(" marked in round ").append(s.turn().k() + 1).append('.');
        }
        return new Shown(peers.toString().strip(), note.toString(), marked);
    }
}
