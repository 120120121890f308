package dev.gamagent.gam;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.config.Config;
import dev.gamagent.game.BgeSentenceEmbedder;
import dev.gamagent.game.Similarity;

import java.util.Locale;
import java.util.Map;

/**
 * The {@code gam} method: GAM-Agent's uncertainty-aware, game-theoretic debate (DESIGN.md §3–6). Settings
 * come from the {@code gam} config section; open-answer similarity uses the in-process BGE-small
 * embedding model unless {@code gam.embedding} is {@code none} (then token Jaccard).
 */
public final class GamMethod implements Method {
    @Override public String name() { return "gam"; }

    @Override public Answer run(Question question, RunContext context) {
        GamSettings settings = GamSettings.from(context.config());
        return new GamController(question, context, settings, similarityFor(question, settings)).run();
    }

    @Override public Map<String, String> backendRefs(Config config) { return GamSettings.backendRefs(config); }

    static Similarity similarityFor(Question q, GamSettings s) {
        String e = s.embedding() == null ? "none" : s.embedding().strip().toLowerCase(Locale.ROOT);
        // multiple choice never needs embeddings: do not pay for loading the model
        if (q.isMultipleChoice() || e.isEmpty() || e.equals("none") || e.equals("jaccard")) return Similarity.lexical();
        if (e.startsWith("bge")) return new Similarity(BgeSentenceEmbedder.shared());
        throw new IllegalArgumentException("gam.embedding = '" + s.embedding() + "' is not known; use 'bge-small-en-v15-q' or 'none'");
    }
}
