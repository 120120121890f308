package dev.gamagent.gam;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27 item 2: with {@code trace.prompts} a GAM trace holds what every expert and critic was asked, as text (images
 * as notes, never their bytes), beside the thresholds each check compared; without it, no prompt is recorded. DREAM
 * records its probes' prompts and reports each probe as it finishes, before it chooses the branch.
 */
class TracePromptsTest {
    private final ExecutorService exec = Executors.newFixedThreadPool(4);

    @AfterEach void stop() { exec.shutdownNow(); }

    /**
     * Unsure experts that disagree (scene says A, the others B), critics that judge every claim accurate, a moderator that
     * lets a debate go on (ProgressEventsTest runs every method on it).
     */
    static ScriptedBackend panel() {
        return new ScriptedBackend("scripted", new Capabilities(true, false, 0, true, false, 0), r -> {
            String p = r.messages().get(0).text();
            String text = p.contains("<task>critique</task>") ? "CLAIM 1: ACCURATE | REASON: ok | CONFIDENCE: 0.5"
                    : p.contains("<task>moderate</task>") ? "DECISION: CONTINUE\nANSWER: B\nCONFIDENCE: 0.6"
                    : p.contains("scene") ? "ANSWER: A\nCLAIM 1: It might possibly be red | CONFIDENCE: 0.3\nCONFIDENCE: 0.3"
                    : "ANSWER: B\nCLAIM 1: It is perhaps blue, I am not sure | CONFIDENCE: 0.3\nCONFIDENCE: 0.3";
            return ScriptedBackend.result(text, List.of());
        });
    }

    static Question question() {
        return Question.of("q-7", List.of(new Picture("x.png", new BufferedImage(40, 30, BufferedImage.TYPE_INT_RGB))),
                "What colour is the sign?", Map.of("A", "red", "B", "blue"));
    }

    private JsonNode run(String method, Config config, List<String> events) {
        Answer a = MethodRegistry.create(method).run(question(), new RunContext(panel(), null, config, exec,
                e -> events.add(e.type() + " " + Json.write(Json.MAPPER.valueToTree(e.data())))));
        return Json.MAPPER.valueToTree(a.trace());
    }

    @Test void aGamTraceHoldsEveryExpertsAndCriticsPromptAsTextAndTheThresholds() {
        JsonNode t = run("gam", Config.defaults().with("trace.prompts", "true"), new ArrayList<>());
        JsonNode r0 = t.path("rounds").get(0).path("extra");
        assertThat(r0.path("prompts").size()).as("one prompt per expert in round 0: " + r0).isEqualTo(3);
        r0.path("prompts").forEach(p -> assertThat(p.asText()).contains("What colour is the sign?", "A. red", "[image 1: 40×30]")
                .doesNotContain("base64", "data:image"));
        assertThat(r0.path("prompts").path("scene").asText()).contains("<task>answer</task>");
        // the thresholds round 0 was compared with, and the stop check after round 1
        assertThat(r0.path("trigger_check").path("theta_U").asDouble()).isEqualTo(0.5);
        assertThat(r0.path("trigger_check").path("theta_C").asDouble()).isEqualTo(0.6);
        assertThat(r0.path("mixture").size()).isEqualTo(2);
        assertThat(t.path("rounds").size()).as("a debate ran").isGreaterThan(1);
        JsonNode r1 = t.path("rounds").get(1).path("extra");
        assertThat(r1.path("stop").path("theta_term").asDouble()).isEqualTo(0.15);
        assertThat(r1.path("stop").path("epsilon").asDouble()).isEqualTo(0.01);
        assertThat(r1.path("prompts").path("ocr").asText()).as("round 1 asks the expert to revise").contains("<task>revise</task>");
        assertThat(r1.path("critic_prompts").size()).as("each critic's prompt: " + r1).isEqualTo(3);
        assertThat(r1.path("critic_prompts").path("fact").asText()).contains("<task>critique</task>", "[image 1: 40×30]");
    }

    @Test void withoutTheSettingNoPromptIsRecorded() {
        JsonNode t = run("gam", Config.defaults(), new ArrayList<>());
        assertThat(t.path("rounds").size()).isGreaterThan(1);
        assertThat(t.toString()).doesNotContain("\"prompts\"", "critic_prompts");
    }

    @Test void dreamReportsEachProbeAsItFinishesBeforeTheBranchAndRecordsTheProbePrompts() {
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        JsonNode t = run("dream+gam", Config.defaults().with("trace.prompts", "true"), events);
        int probes = t.path("extra").path("probes").size();
        assertThat(probes).isGreaterThan(1);
        List<String> seen = new ArrayList<>(events);
        List<String> answered = seen.stream().filter(e -> e.startsWith("probe_answered ")).toList();
        assertThat(answered).as("one event per probe: " + seen).hasSize(probes);
        assertThat(answered).allSatisfy(e -> assertThat(e).contains("\"agent\"", "\"scale\"", "\"u\""));
        int branch = seen.indexOf(seen.stream().filter(e -> e.startsWith("dream_branch ")).findFirst().orElseThrow());
        assertThat(seen.subList(0, branch)).as("every probe is reported before the branch is chosen").containsAll(answered);
        JsonNode asked = t.path("extra").path("probe_prompts");
        assertThat(asked.size()).as("one probe prompt per agent: " + asked.fieldNames().next()).isEqualTo(3);
        asked.forEach(p -> assertThat(p.asText()).contains("What colour is the sign?", "[image 1 at the probe's scale]").doesNotContain("base64"));
    }
}
