package dev.gamagent.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.replay.Sweep;
import dev.gamagent.eval.store.ResultRecord;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tokens a method spent by round, as the report's token curve draws them (summary.json's
 * {@code cumulativeTokensPerRound} and {@code probeTokensPerQuestion}): DREAM's probe round first, then each trace
 * round's tokens, so that the curve's last point is the table's tokens per question.
 */
final class TokenCurve {
    private TokenCurve() { }

    /**
     * Mean tokens per question the probe round itself spent (DREAM, before round 0); null when no record probed. A probe
     * whose reply the inner method took as its round-0 answer ({@code reused}) is counted in round 0, not here, as the
     * record's own total counts it once.
     */
    static Double probeTokensPerQuestion(List<ResultRecord> rs) {
        boolean any = false;
        double sum = 0;
        for (ResultRecord r : rs) {
            long t = probeTokens(r);
            if (t >= 0) { any = true; sum += t; }
        }
        return any && !rs.isEmpty() ? sum / rs.size() : null;
    }

    /**
     * A record's probe-round tokens (prompt + completion) without the reused probes, or −1 when its trace holds no probes:
     * {@code extra.probe_usage} where DREAM recorded it, else the probes not marked {@code reused}.
     */
    static long probeTokens(ResultRecord r) {
        JsonNode extra = r.trace().json() == null ? null : r.trace().json().path("extra");
        JsonNode probes = extra == null ? null : extra.get("probes");
        if (probes == null || !probes.isArray()) return -1;
        JsonNode usage = extra.path("probe_usage");
        if (usage.has("prompt")) return usage.path("prompt").asLong() + usage.path("completion").asLong();
        long t = 0;
        for (JsonNode p : probes) {
            if (!p.path("reused").asBoolean(false)) t += p.path("tokens").path("prompt").asLong() + p.path("tokens").path("completion").asLong();
        }
        return t;
    }

    /** Tokens spent in one trace round: its agents' tokens plus any {@code extra.tokens} (e.g. critics). */
    static long roundTokens(JsonNode round) {
        long t = 0;
        for (JsonNode a : round.path("agents")) t += a.path("tokens").path("prompt").asLong() + a.path("tokens").path("completion").asLong();
        JsonNode extra = round.path("extra").path("tokens");
        if (extra.isObject()) t += extra.path("prompt").asLong() + extra.path("completion").asLong();
        else if (extra.isNumber()) t += extra.asLong();
        return t;
    }

    /**
     * Mean over every answered question of the tokens spent up to and including round k: DREAM's probe round (before
     * round 0, {@link #probeTokens}) then each trace round's tokens. A question that stopped earlier keeps its total; one
     * whose trace has no rounds (DREAM's consensus branch: its probes) keeps what it spent before, and one whose trace
     * accounts for nothing (no rounds, no probes) counts its tokens at round 0. So the last point is
     * the mean of the questions' totals as the traces account them, the table's tokens per question (a test checks this
     * on the demo's records of every method).
     */
    static List<Double> cumulativeTokensPerRound(List<ResultRecord> rs) {
        List<long[]> perRecord = new ArrayList<>();
        int maxK = 0;
        for (ResultRecord r : rs) {
            JsonNode rounds = Sweep.rounds(r);
            long probes = probeTokens(r);
            boolean hasRounds = rounds != null && rounds.isArray() && !rounds.isEmpty();
            if (!hasRounds && probes < 0) {
                // a trace that accounts for nothing (no rounds, no probes): the question's tokens were spent at once
                perRecord.add(new long[]{r.cost().promptTokens() + r.cost().completionTokens()});
                continue;
            }
            long run = Math.max(0, probes);
            Map<Integer, Long> byK = new HashMap<>();
            int rk = 0;
            if (hasRounds) {
                for (JsonNode round : rounds) {
                    int k = round.path("k").asInt();
                    byK.merge(k, roundTokens(round), Long::sum);
                    rk = Math.max(rk, k);
                }
            }
            long[] cum = new long[rk + 1];
            for (int k = 0; k <= rk; k++) { run += byK.getOrDefault(k, 0L); cum[k] = run; }
            perRecord.add(cum);
            maxK = Math.max(maxK, rk);
        }
        List<Double> out = new ArrayList<>();
        if (perRecord.isEmpty()) return out;
        for (int k = 0; k <= maxK; k++) {
            double s = 0;
            for (long[] c : perRecord) s += c[Math.min(k, c.length - 1)];
            out.add(s / perRecord.size());
        }
        return out;
    }
}
