package dev.gamagent.langchain4j;

import dev.gamagent.Gam;
import dev.gamagent.api.ProgressListener;
import dev.gamagent.api.Question;
import dev.gamagent.image.ImageLoader;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * GAM as a LangChain4j {@link StreamingChatModel}: as {@link GamChatModel}, with the reply streamed. A debate has no
 * answer until it ends, so the partial responses carry the final answer's text only (one partial: joined, they are the
 * answer); the debate's progress (rounds, agents' answers, weights) goes to the builder's {@link ProgressListener},
 * never into the text. The complete response carries the same metadata as {@link GamChatModel}'s. The question is read
 * on the caller's thread (a bad request fails there, through {@code onError}); the method runs on the builder's executor.
 */
public final class GamStreamingChatModel implements StreamingChatModel {
    private final GamReplies replies;
    private final Executor executor;

    private GamStreamingChatModel(GamReplies replies, Executor executor) {
        this.replies = replies;
        this.executor = executor;
    }

    public static Builder builder() { return new Builder(); }

    @Override public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
        Question q;
        try {
            q = replies.question(request);
        } catch (RuntimeException e) {
            handler.onError(e);
            return;
        }
        executor.execute(() -> {
            ChatResponse r;
            try {
                r = replies.answer(q);
            } catch (RuntimeException | Error e) { // the handler hears of every end, or its caller waits for ever
                handler.onError(e);
                return;
            }
            handler.onPartialResponse(r.aiMessage().text());
            handler.onCompleteResponse(r);
        });
    }

    @Override public ChatRequestParameters defaultRequestParameters() {
        return ChatRequestParameters.builder().modelName(replies.method()).build();
    }

    @Override public ModelProvider provider() { return ModelProvider.OTHER; }

    /** As {@link GamChatModel.Builder}, with the executor the method runs on. */
    public static final class Builder {
        private Gam gam;
        private ProgressListener progress = ProgressListener.NONE;
        private ImageLoader images = new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS);
        private Duration imageFetchTimeout = Duration.ofSeconds(30);
        private Executor executor;

        private Builder() { }

        public Builder gam(Gam value) { this.gam = value; return this; }

        /** Receives the debate's progress events as it runs (the stream's text stays the answer alone). */
        public Builder progress(ProgressListener value) { this.progress = value; return this; }

        public Builder images(ImageLoader value) { this.images = Objects.requireNonNull(value, "images"); return this; }

        public Builder imageFetchTimeout(Duration value) { this.imageFetchTimeout = Objects.requireNonNull(value, "imageFetchTimeout"); return this; }

        /** Where the method runs (default: a new daemon thread per request). */
        public Builder executor(Executor value) { this.executor = Objects.requireNonNull(value, "executor"); return this; }

        public GamStreamingChatModel build() {
            if (gam == null) throw new IllegalStateException("GamStreamingChatModel.builder().gam(...) is required: the Gam that answers");
            Executor ex = executor != null ? executor : task -> {
                Thread t = new Thread(task, "gam-langchain4j-stream");
                t.setDaemon(true);
                t.start();
            };
            return new GamStreamingChatModel(new GamReplies(gam, progress, images, imageFetchTimeout), ex);
        }
    }
}
