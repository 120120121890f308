package dev.gamagent.local;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.config.Config;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Concurrency;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The built-in model reads a question phrased as the harnesses phrase it — VLMEvalKit's "Question: … Options: … Please
 * select the correct answer from the options above." and lmms-eval's "… There are several options: … Answer with the
 * option's letter from the given choices directly." — inside every method's prompt as it reads the bare question: on the
 * README's red triangle every method answers red, where before every method but {@code single} read the instruction as
 * part of the question and answered "cannot determine" (gam: no answer).
 */
class HarnessPhrasingTest {
    private static final String VLMEVALKIT = "Question: What colour is the triangle?\nOptions:\nA. red\nB. green\nC. blue\n"
            + "Please select the correct answer from the options above. \n";
    private static final String LMMS_EVAL = "What colour is the triangle? There are several options:\nA. red\nB. green\nC. blue\n\n"
            + "Answer with the option's letter from the given choices directly.";

    private static LocalBackend backend;
    private static ExecutorService executor;
    private static Picture triangle;

    @BeforeAll static void open() {
        backend = RealEngines.backend();
        executor = Concurrency.newIoExecutor("harness-phrasing");
        triangle = new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS).file(Path.of("examples/red-triangle.png"));
    }

    @AfterAll static void close() {
        executor.shutdownNow();
        backend.close();
    }

    @Test void theHarnessesPromptsAreReadAsTheQuestionTheyAsk() {
        for (String harness : List.of(VLMEVALKIT, LMMS_EVAL)) {
            // as gam local-server receives it (untagged), and as a method's template embeds it (tagged)
            for (String prompt : List.of(harness, PanelTest.tagged("assistant", "answer", harness) + "\nThink step by step, then answer.")) {
                ParsedPrompt p = PromptReader.read(ChatRequest.of(List.of(ChatMessage.user(prompt, List.of(triangle)))));
                assertThat(p.question()).as(prompt).isEqualTo("What colour is the triangle?");
                assertThat(p.options()).as(prompt).containsExactly(Map.entry("A", "red"), Map.entry("B", "green"), Map.entry("C", "blue"));
            }
        }
    }

    @Test void everyMethodAnswersTheRedTriangleWhenTheQuestionsTextCarriesTheHarnesssLines() {
        Map<String, String> rgb = new LinkedHashMap<>();
        rgb.put("A", "red");
        rgb.put("B", "green");
        rgb.put("C", "blue");
        // the question as `gam serve` once passed it on (the option lines taken out, the rest kept), and as a user or a
        // benchmark file may write it: the label and the instruction are in the question's text
        for (String text : List.of("Question: What colour is the triangle?\nPlease select the correct answer from the options above.",
                "What colour is the triangle? There are several options:\nAnswer with the option's letter from the given choices directly.")) {
            Question q = new Question("q", List.of(triangle), text, null, rgb);
            for (String m : MethodRegistry.listed()) {
                Answer a = MethodRegistry.create(m).run(q, new RunContext(backend, null, Config.defaults(), executor, null));
                assertThat(a.option()).as(m + " on " + text).isEqualTo("A");
            }
        }
    }
}
