package dev.gamagent.uncertainty;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class SignalMixTest {
    @Test void countsEveryRoundsAgentTurnsAndDreamsProbesBySignal() throws Exception {
        JsonNode trace = Json.MAPPER.readTree("""
                {"rounds": [{"k": 0, "agents": [{"signal": "semantic"}, {"signal": "fixed"}, {"signal": "semantic"}]},
                            {"k": 1, "agents": [{"signal": "sampling"}]}],
                 "extra": {"probes": [{"signal": "sampling"}, {"signal": "semantic"}]}}""");
        Map<String, Long> mix = new TreeMap<>();
        SignalMix.count(trace, mix);
        assertThat(mix).containsExactly(Map.entry("fixed", 1L), Map.entry("sampling", 2L), Map.entry("semantic", 3L));
        assertThat(SignalMix.describe(mix)).isEqualTo("semantic 50%, sampling 33%, fixed 17%");
        assertThat(SignalMix.usedSemantic(trace)).isTrue();
        assertThat(SignalMix.usedSemantic(Json.MAPPER.readTree("{\"rounds\": [{\"agents\": [{\"signal\": \"logprobs-topk\"}]}]}"))).isFalse();
        assertThat(SignalMix.describe(Map.of())).isEqualTo("-");
        assertThat(SignalMix.usedSemantic(null)).isFalse();
    }
}
