package example;

import dev.gamagent.Gam;
import dev.gamagent.api.Answer;
import dev.gamagent.api.ProgressEvent;
import dev.gamagent.api.Question;
import dev.gamagent.api.Trace;
import dev.gamagent.image.ImageLoader;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Asks one multiple-choice question about an image with GAM and prints the answer, the trace's rounds and the
 * progress events as they come (U_sys from each typed weights event). Without GAM_OPENAI_URL it runs on the built-in offline model (gam-local);
 * with GAM_OPENAI_URL=http://host:8000/v1 (and GAM_MODEL) it asks that OpenAI-compatible server.
 */
public final class AskExample {
    public static void main(String[] args) throws Exception {
        Path image = Path.of(args.length > 0 ? args[0] : "examples/red-triangle.png");

        Gam.Builder builder = Gam.builder()
                .method("gam")
                .set("gam.max_rounds", "2")
                // open answers are compared by words here, so the example needs no embedding model
                .set("gam.embedding", "none")
                .progress(event -> {
                    // every event has a type and its data as gam serve streams them...
                    System.out.println("event " + event.type() + " " + event.data());
                    // ...and is a record whose fields a program reads by its kind
                    if (event instanceof ProgressEvent.Weights w) System.out.printf("U_sys after round %d: %.3f%n", w.k(), w.uSys());
                });
        String url = System.getenv("GAM_OPENAI_URL");
        if (url != null && !url.isBlank()) {
            builder.openAiCompatible(url, System.getenv().getOrDefault("GAM_MODEL", "Qwen/Qwen2-VL-7B-Instruct"), "GAM_API_KEY");
        } else {
            builder.builtInModel();
        }

        Map<String, String> options = new LinkedHashMap<>();
        options.put("A", "circle");
        options.put("B", "triangle");
        options.put("C", "square");
        Question question = Question.of("example-1", List.of(ImageLoader.load(image)), "What shape is the red object?", options);

        try (Gam gam = builder.build()) {
            Answer a = gam.ask(question);
            System.out.println("answer: " + a.option() + ". " + a.answer());
            System.out.printf("confidence %.3f, uncertainty %.3f, %d rounds (%s), %d calls, %d+%d tokens via %s%n",
                    a.confidence(), a.uncertainty(), a.rounds(), a.termination(), a.calls(),
                    a.tokens().prompt(), a.tokens().completion(), gam.backend());
            for (Trace.Round r : a.trace().rounds()) {
                for (Trace.AgentTurn t : r.agents()) {
                    System.out.printf("round %d  %-10s answered %s (uncertainty %.3f)%n", r.k(), t.role(), t.option(), t.uncertainty());
                }
            }
        }
    }
}
