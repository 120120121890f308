package dev.gamagent.engine;

import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.image.Picture;

import java.util.ArrayList;
import java.util.List;

/**
 * The images one agent of a debate receives. By default every image at the agent's own scale. DREAM
 * overrides this per agent through the run context's tag {@link AgentScales}: one list of scales per
 * agent index; several scales mean the agent receives each image at each scale (MixRes). Its note is a
 * sentence every debate prompt appends (e.g. "the probes disagreed").
 */
public final class AgentImages {
    private AgentImages() { }

    /** The scales agent {@code index} sees: DREAM's assignment when present, else {@code defaultScale}. */
    public static List<Double> scales(RunContext ctx, int index, double defaultScale) {
        return assignment(ctx).of(index, defaultScale);
    }

    /** DREAM's assignment of scales to the agents of this run, or {@link AgentScales#NONE} outside DREAM. */
    public static AgentScales assignment(RunContext ctx) { return ctx.tag(AgentScales.class).orElse(AgentScales.NONE); }

    /** The pictures agent {@code index} receives, scaled and capped at {@code maxPixels} (0 = no cap). */
    public static List<Picture> forAgent(Question q, RunContext ctx, int index, double defaultScale, long maxPixels) {
        List<Double> scales = scales(ctx, index, defaultScale);
        List<Picture> out = new ArrayList<>();
        for (Picture p : q.images()) for (double s : scales) out.add(p.scaled(s, maxPixels));
        return out;
    }

    /** The note DREAM asks every debate prompt to carry, or "" when none. */
    public static String note(RunContext ctx) { return assignment(ctx).note(); }
}
