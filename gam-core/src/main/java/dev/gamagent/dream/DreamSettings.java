package dev.gamagent.dream;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** DREAM's settings, read from the {@code dream} config section. */
record DreamSettings(List<Double> scales, double alpha, double rho, String mode, String threshold, double staticTau,
                         int probeMaxTokens, String rollbackUncertainty, boolean consensusSkipsDebate) {
    static DreamSettings of(Config c) {
        List<Double> scales = new ArrayList<>();
        JsonNode sn = c.node("dream.scales");
        if (sn.isArray()) sn.forEach(n -> scales.add(n.asDouble()));
        if (scales.isEmpty()) Config.defaults().node("dream.scales").forEach(n -> scales.add(n.asDouble())); // an empty list: the default scales
        for (double s : scales) {
            if (!(s > 0)) throw new Config.ConfigException("dream.scales must hold positive numbers, got " + sn);
        }
        String mode = c.string("dream.mode").toLowerCase(Locale.ROOT);
        if (!List.of("full", "probe_only", "rollback_only").contains(mode)) {
            throw new Config.ConfigException("dream.mode must be full, probe_only or rollback_only, got '" + mode + "'");
        }
        String thr = c.string("dream.threshold").toLowerCase(Locale.ROOT);
        if (!List.of("adaptive", "static").contains(thr)) {
            throw new Config.ConfigException("dream.threshold must be adaptive or static, got '" + thr + "'");
        }
        String ru = c.string("dream.rollback_uncertainty").toLowerCase(Locale.ROOT);
        if (!List.of("anll", "trace").contains(ru)) {
            throw new Config.ConfigException("dream.rollback_uncertainty must be anll or trace, got '" + ru + "'");
        }
        return new DreamSettings(scales, c.number("dream.alpha"), c.number("dream.rho"), mode, thr,
                c.number("dream.static_tau"), c.integer("dream.probe_max_tokens"), ru,
                c.bool("dream.consensus_skips_debate"));
    }
}
