package example;

import dev.gamagent.Gam;
import dev.gamagent.langchain4j.GamChatModel;
import dev.gamagent.langchain4j.GamResponseMetadata;
import dev.gamagent.langchain4j.LangChain4jBackend;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.Result;
import dev.langchain4j.service.UserMessage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * An application's AI service whose model is GAM: GAM's agents run on a LangChain4j OpenAI model pointed at an
 * OpenAI-compatible server (here `gam local-server`, the built-in model), and the service's model is a GamChatModel.
 * Prints the answer, the tokens every agent used and the debate's summary from the response's metadata.
 *
 * Arguments: the server's URL (default http://127.0.0.1:8089/v1) and an image (default examples/red-triangle.png).
 */
public final class LangChain4jExample {
    /** The application's AI service: a question with options, and the image it is about. */
    interface ShapeAssistant {
        Result<String> ask(@UserMessage String question, @UserMessage ImageContent image);
    }

    public static void main(String[] args) throws Exception {
        String url = args.length > 0 ? args[0] : "http://127.0.0.1:8089/v1";
        Path image = Path.of(args.length > 1 ? args[1] : "examples/red-triangle.png");

        // the provider, as the application already has it: a LangChain4j model (any provider works the same way)
        ChatModel openAi = OpenAiChatModel.builder().baseUrl(url).apiKey("not-needed").modelName("gam-perception")
                .logprobs(true).topLogprobs(5).build();

        try (Gam gam = Gam.builder()
                .backend(LangChain4jBackend.builder(openAi).name("openai-via-langchain4j").logprobs(5).build())
                .method("gam")
                .set("gam.max_rounds", "2")
                .set("gam.embedding", "none")
                .build()) {
            ShapeAssistant assistant = AiServices.create(ShapeAssistant.class, GamChatModel.builder().gam(gam).build());
            String png = Base64.getEncoder().encodeToString(Files.readAllBytes(image));
            Result<String> r = assistant.ask("What shape is the red object?\nA. circle\nB. triangle\nC. square",
                    ImageContent.from(png, "image/png"));

            GamResponseMetadata debate = (GamResponseMetadata) r.finalResponse().metadata();
            System.out.println("answer: " + r.content());
            System.out.println("tokens: " + r.tokenUsage().inputTokenCount() + " in, " + r.tokenUsage().outputTokenCount() + " out");
            System.out.printf("debate: method %s, %d rounds, termination %s, confidence %.3f, %d calls, trace %s%n",
                    debate.method(), debate.rounds(), debate.termination(), debate.confidence(), debate.calls(), debate.traceId());
            debate.trace().rounds().forEach(round -> round.agents().forEach(t ->
                    System.out.println("round " + round.k() + " " + t.id() + " answered " + t.option() + " via " + t.backend()
                            + " (" + t.model() + ", " + t.signal() + ")")));
        }
    }
}
