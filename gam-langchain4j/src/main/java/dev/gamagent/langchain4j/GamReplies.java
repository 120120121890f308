package dev.gamagent.langchain4j;

import dev.gamagent.Gam;
import dev.gamagent.api.Answer;
import dev.gamagent.api.ProgressListener;
import dev.gamagent.api.Question;
import dev.gamagent.api.internal.AnswerJson;
import dev.gamagent.image.ImageLoader;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;

/** What {@link GamChatModel} and {@link GamStreamingChatModel} share: a request read as a question, asked, the reply built. */
final class GamReplies {
    private final Gam gam;
    private final ProgressListener progress;
    private final QuestionReader reader;
    private final SecureRandom random = new SecureRandom();

    GamReplies(Gam gam, ProgressListener progress, ImageLoader images, Duration imageFetchTimeout) {
        this.gam = Objects.requireNonNull(gam, "gam");
        this.progress = progress == null ? ProgressListener.NONE : progress;
        this.reader = new QuestionReader(images, imageFetchTimeout);
    }

    String method() { return gam.method(); }

    /** The request read as a question (checked before any agent runs): errors name the message and part at fault. */
    Question question(ChatRequest request) {
        ChatRequestParameters p = request.parameters();
        if (p != null && p.toolSpecifications() != null && !p.toolSpecifications().isEmpty()) {
            throw new IllegalArgumentException("GAM answers visual questions and calls no tools; the request offers "
                    + p.toolSpecifications().size() + " (give GAM's model to an AI service without tools)");
        }
        return reader.read(newTraceId(), request.messages());
    }

    /** Asks the question: the answer's text as the AI message, GAM's usage and the debate summary as the metadata. */
    ChatResponse answer(Question q) {
        Answer a = gam.ask(q, progress);
        TokenUsage usage = new TokenUsage(Math.toIntExact(a.tokens().prompt()), Math.toIntExact(a.tokens().completion()));
        GamResponseMetadata meta = GamResponseMetadata.gamBuilder().method(gam.method()).traceId(q.id()).answer(a)
                .id(q.id()).modelName(gam.method()).tokenUsage(usage).finishReason(FinishReason.STOP).build();
        return ChatResponse.builder().aiMessage(AiMessage.from(AnswerJson.text(a))).metadata(meta).build();
    }

    private String newTraceId() {
        byte[] b = new byte[8];
        random.nextBytes(b);
        return "tr-" + HexFormat.of().formatHex(b);
    }
}
