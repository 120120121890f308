package dev.gamagent.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Question;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;

import java.util.ArrayList;
import java.util.List;

/**
 * The images one agent of a debate receives. By default every image at the agent's own scale. DREAM
 * overrides this per agent through the config key {@code runtime.agent_scales}: a list (one entry per
 * agent index) of lists of scales; several scales mean the agent receives each image at each scale
 * (MixRes). {@code runtime.note} is a sentence every debate prompt appends (e.g. "the probes disagreed").
 */
public final class AgentImages {
    private AgentImages() { }

    /** The scales agent {@code index} sees: DREAM's assignment when present, else {@code defaultScale}. */
    public static List<Double> scales(Config config, int index, double defaultScale) {
        JsonNode all = config.node("runtime.agent_scales");
        if (all.isArray() && all.size() > 0) {
            JsonNode mine = all.get(Math.min(index, all.size() - 1));
            List<Double> out = new ArrayList<>();
            if (mine.isArray()) mine.forEach(n -> out.add(n.asDouble()));
            else if (mine.isNumber()) out.add(mine.asDouble());
            if (!out.isEmpty()) return out;
        }
        return List.of(defaultScale);
    }

    /** The pictures agent {@code index} receives, scaled and capped at {@code maxPixels} (0 = no cap). */
    public static List<Picture> forAgent(Question q, Config config, int index, double defaultScale, long maxPixels) {
        List<Double> scales = scales(config, index, defaultScale);
        List<Picture> out = new ArrayList<>();
        for (Picture p : q.images()) for (double s : scales) out.add(p.scaled(s, maxPixels));
        return out;
    }

    /** The note DREAM asks every debate prompt to carry, or "" when none. */
    public static String note(Config config) { return config.string("runtime.note", ""); }
}
