package dev.gamagent.telemetry;

import dev.gamagent.Gam;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.ScriptedBackend;

import java.awt.image.BufferedImage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** One GAM question on a scripted panel, run by {@link WithoutOpenTelemetryTest} in a class loader that hides OpenTelemetry. */
public final class AskWithoutTracing {
    private AskWithoutTracing() { }

    public static String ask() {
        ScriptedBackend panel = new ScriptedBackend("scripted", new Capabilities(true, false, 0, true, false, 0), r -> {
            String p = r.messages().get(0).text();
            String text = p.contains("<task>critique</task>") ? "CLAIM 1: ACCURATE | REASON: ok | CONFIDENCE: 0.5"
                    : p.contains("scene") ? "ANSWER: A\nCLAIM 1: It might possibly be red | CONFIDENCE: 0.3\nCONFIDENCE: 0.3"
                    : "ANSWER: B\nCLAIM 1: It is perhaps blue, I am not sure | CONFIDENCE: 0.3\nCONFIDENCE: 0.3";
            return ScriptedBackend.result(text, List.of());
        });
        Map<String, String> options = new LinkedHashMap<>();
        options.put("A", "red");
        options.put("B", "blue");
        Question q = Question.of("q", List.of(new Picture("x.png", new BufferedImage(40, 30, BufferedImage.TYPE_INT_RGB))), "What colour?", options);
        ExecutorService exec = Executors.newFixedThreadPool(2);
        try {
            Answer a = Gam.session(panel, name -> panel, Config.defaults(), exec).continuing(Map.of("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
                    .ask(MethodRegistry.create("gam"), q, null, null);
            return "tracing=" + DebateTracing.available() + " answer=" + a.option() + " rounds=" + a.rounds();
        } finally {
            exec.shutdownNow();
        }
    }
}
