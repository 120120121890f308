package dev.gamagent.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One thing a running method reports: a round began, an agent started or answered, a critic judged, GAM weighed its
 * experts, a DREAM probe answered, DREAM chose its branch. {@link #type()} and {@link #data()} are what {@code gam serve}
 * streams as {@code gam_event} {type, data} (docs/SERVER.md); a program reads the record's fields.
 */
public sealed interface ProgressEvent {
    /** The event's name on the wire: {@code round_started}, {@code agent_answered}, {@code weights}, ... */
    String type();

    /** The event's fields as the stream writes them, in that order; a field without a value is left out. */
    Map<String, Object> data();

    /** Round {@code k} begins (k = 0: the initial answers; DREAM's probe round: k = −1, {@code phase} "probe", else null). */
    record RoundStarted(int k, String phase) implements ProgressEvent {
        public RoundStarted(int k) { this(k, null); }

        @Override public String type() { return "round_started"; }

        @Override public Map<String, Object> data() {
            EventData f = new EventData().put("k", k);
            if (phase != null) f.put("phase", phase);
            return f.map();
        }
    }

    /** Agent {@code id}'s call of round {@code k} begins (the baselines' panels). */
    record AgentStarted(int k, String id) implements ProgressEvent {
        @Override public String type() { return "agent_started"; }

        @Override public Map<String, Object> data() { return new EventData().put("k", k).put("id", id).map(); }
    }

    /**
     * Agent {@code id} answered in round {@code k} ({@code error} null), or dropped out of it ({@code error} says why;
     * answer, option and uncertainty null). {@code role}, {@code option} and {@code uncertainty} are null where the
     * method does not report them (the baselines report the answer alone).
     */
    record AgentAnswered(int k, String id, String role, String answer, String option, Double uncertainty, String error)
            implements ProgressEvent {
        /** An answer as the baselines report it: the agent and its answer. */
        public static AgentAnswered answer(int k, String id, String answer) {
            return new AgentAnswered(k, id, null, answer, null, null, null);
        }

        @Override public String type() { return "agent_answered"; }

        @Override public Map<String, Object> data() {
            EventData f = new EventData().put("k", k).put("id", id);
            if (role != null) f.put("role", role);
            if (error != null) return f.put("error", error).map();
            f.put("answer", answer);
            if (option != null) f.put("option", option);
            if (uncertainty != null) f.put("uncertainty", uncertainty);
            return f.map();
        }
    }

    /** A GAM critic judged claim {@code claim} of {@code expert} (null: a claim of no one expert) in round {@code k}. */
    record Critique(int k, String critic, String expert, int claim, String assessment) implements ProgressEvent {
        @Override public String type() { return "critique"; }

        @Override public Map<String, Object> data() {
            EventData f = new EventData().put("k", k).put("critic", critic);
            if (expert != null) f.put("expert", expert);
            return f.put("claim", claim).put("assessment", assessment).map();
        }
    }

    /** GAM's weights per answering expert, U_sys and the conflict C (null when not reported) after round {@code k}. */
    record Weights(int k, Map<String, Double> weights, double uSys, Double conflict) implements ProgressEvent {
        public Weights {
            weights = Collections.unmodifiableMap(new LinkedHashMap<>(weights));
        }

        @Override public String type() { return "weights"; }

        @Override public Map<String, Object> data() {
            EventData f = new EventData().put("k", k).put("weights", weights).put("U_sys", uSys);
            if (conflict != null) f.put("conflict", conflict);
            return f.map();
        }
    }

    /**
     * One DREAM probe finished: agent {@code agent} at image scale {@code scale} ({@code width}×{@code height}, 0 when
     * unknown; for a video {@code frames} > 1 frames of {@code pixels} pixels in all), its answer, option and uncertainty
     * {@code u} with the signal that gave it, or the {@code error} it failed with.
     */
    record ProbeAnswered(String agent, String role, double scale, int width, int height, int frames, long pixels,
                         String answer, String option, double u, String signal, String error) implements ProgressEvent {
        @Override public String type() { return "probe_answered"; }

        @Override public Map<String, Object> data() {
            EventData f = new EventData().put("k", -1).put("phase", "probe").put("agent", agent);
            if (role != null) f.put("role", role);
            f.put("scale", scale);
            if (width > 0) f.put("width", width);
            if (height > 0) f.put("height", height);
            if (frames > 1) f.put("frames", frames).put("pixels", pixels);
            if (error != null) return f.put("error", error).map();
            if (answer != null) f.put("answer", answer);
            if (option != null) f.put("option", option);
            return f.put("u", u).put("signal", signal).map();
        }
    }

    /** DREAM chose {@code branch} (its label) by comparing the probes with {@code threshold} τ. */
    record DreamBranch(String branch, double threshold) implements ProgressEvent {
        @Override public String type() { return "dream_branch"; }

        @Override public Map<String, Object> data() { return new EventData().put("branch", branch).put("threshold", threshold).map(); }
    }
}
