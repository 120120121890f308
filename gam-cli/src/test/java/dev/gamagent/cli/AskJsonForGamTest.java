package dev.gamagent.cli;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code gam ask --method gam --json}: the JSON's rounds, termination and method come from the GAM answer. */
class AskJsonForGamTest {
    @Test void theAskJsonReportsTheDebateRoundsOfTheGamAnswer() {
        var f = new java.util.concurrent.atomic.AtomicInteger();
        ScriptedBackend b = new ScriptedBackend("scripted", new Capabilities(true, false, 0, true, false, 0), r -> {
            String p = r.messages().get(0).text();
            String text = p.contains("<task>critique</task>") ? "CLAIM 1: ACCURATE | REASON: ok | CONFIDENCE: 0.5"
                    : "ANSWER: A\nCLAIM 1: It might possibly be red but I am not sure | CONFIDENCE: 0.2\nCONFIDENCE: 0.2";
            f.incrementAndGet();
            return ScriptedBackend.result(text, List.of());
        });
        var exec = Executors.newFixedThreadPool(3);
        try {
            Question q = Question.of("ask", List.of(new Picture("x.png", new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB))),
                    "What color?", Map.of("A", "red", "B", "blue"));
            Answer a = MethodRegistry.create("gam").run(q, new RunContext(b, null, Config.defaults(), exec, null));
            var json = AskCommand.toJson(a, b.name());
            assertThat(a.rounds()).isEqualTo(1);
            assertThat(json.get("rounds").asInt()).isEqualTo(a.rounds());
            assertThat(json.get("termination").asText()).isEqualTo("stagnation");
            assertThat(json.get("method").asText()).isEqualTo("gam");
            assertThat(json.get("option").asText()).isEqualTo("A");
            assertThat(json.get("calls").asInt()).isEqualTo(f.get());
        } finally {
            exec.shutdownNow();
        }
    }
}
