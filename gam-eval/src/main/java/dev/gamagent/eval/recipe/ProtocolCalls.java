package dev.gamagent.eval.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Method;
import dev.gamagent.api.MultiAgentMethod;
import dev.gamagent.api.Question;
import dev.gamagent.config.Config;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Model calls per question a method's protocol can make, as a range, from its settings (docs/methods.md,
 * "calls per question"): the least when nothing triggers a debate or it stops at once, the most when every
 * round runs. It assumes the backend returns log-probs (the sampling fallback adds
 * {@code gam.samples} draws per expert answer) and counts a request with {@code n} choices as one call.
 */
public final class ProtocolCalls {
    private ProtocolCalls() { }

    /** A range of calls per question and how it follows from the protocol. */
    public record Range(int min, int max, String how) {
        @Override public String toString() { return min == max ? Integer.toString(min) : min + "–" + max; }
    }

    /** The range for {@code method} under {@code config}; an unknown method throws, naming it. */
    public static Range of(String method, Config config) {
        String m = method.strip().toLowerCase(Locale.ROOT);
        if (m.startsWith("dream+")) return dream(m.substring("dream+".length()), config);
        return switch (m) {
            case "single", "cot" -> new Range(1, 1, "one reply");
            case "sc" -> {
                int k = config.integer("sc.samples");
                yield new Range(1, k, "one request with n = " + k + " choices, or " + k + " where the backend returns one choice");
            }
            case "vote" -> fixed(config.integer("vote.agents"), "N agents");
            case "debate" -> fixed(config.integer("debate.agents") * (config.integer("debate.rounds") + 1), "N·(R+1)");
            case "debunc" -> fixed(config.integer("debunc.agents") * (config.integer("debunc.rounds") + 1), "N·(R+1)");
            case "self-debate" -> fixed(config.integer("self_debate.rounds") + 1, "R+1");
            case "mad", "div-mad" -> {
                int r = config.integer("mad.rounds");
                yield new Range(3, 3 * r + 2, "3 per round until the moderator stops, at most " + r + " rounds, + 2 judge calls");
            }
            case "dmad" -> fixed(size(config, "dmad.strategies") * (config.integer("dmad.rounds") + 1), "strategies·(R+1)");
            case "chateval" -> {
                int n = size(config, "chateval.roles") * config.integer("chateval.turns");
                boolean judge = "judge".equals(config.string("chateval.decision"));
                yield fixed(n + (judge ? 1 : 0), "roles·turns" + (judge ? " + judge" : ""));
            }
            case "dwi" -> fixed(config.integer("dwi.agents") * config.integer("dwi.rounds") + 1, "N·R + judge");
            case "gam" -> gam(config);
            default -> {
                MethodRegistry.create(m); // throws for an unknown name
                throw new IllegalArgumentException("no call count for method '" + method + "' yet");
            }
        };
    }

    private static Range fixed(int n, String how) { return new Range(n, n, how); }

    private static Range gam(Config config) {
        int n = size(config, "gam.experts"), c = size(config, "gam.critics"), k = config.integer("gam.max_rounds");
        boolean full = config.bool("gam.record_full");
        int judge = config.bool("gam.judge") ? 1 : 0;
        int max = n + k * (n + c) + judge;
        int min = full ? max : n + judge;
        return new Range(min, max, "N experts, then per debate round N_crit critics and N experts, at most K_max = " + k + " rounds"
                + (full ? " (record_full: every round runs)" : "") + (judge == 1 ? " + judge" : ""));
    }

    private static Range dream(String inner, Config config) {
        Range m = of(inner, config);
        Method method = MethodRegistry.create(inner);
        int agents = method instanceof MultiAgentMethod mam ? mam.agents(probeQuestion(), config).size() : dev.gamagent.dream.DreamMethod.agentCount(config, inner);
        int s = size(config, "dream.scales");
        boolean skip = config.bool("dream.consensus_skips_debate");
        return new Range(agents + (skip ? 0 : m.min()), agents * s + m.max(), agents + " agents probed at up to " + s
                + " scales (scales the pixel cap makes equal are probed once) + " + inner + "'s " + m
                + (skip ? "; Consensus skips the debate" : ""));
    }

    /** A question to ask a method for its agents: they do not depend on its content. */
    private static Question probeQuestion() {
        return new Question("plan", List.of(), "?", null, Map.of("A", "a", "B", "b"));
    }

    /** The length of the list at {@code key}; its default's when the value is not a list. */
    private static int size(Config config, String key) {
        JsonNode n = config.node(key);
        return n.isArray() ? n.size() : Config.defaults().node(key).size();
    }
}
