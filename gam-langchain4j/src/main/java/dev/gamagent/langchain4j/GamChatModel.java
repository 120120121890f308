package dev.gamagent.langchain4j;

import dev.gamagent.Gam;
import dev.gamagent.api.ProgressListener;
import dev.gamagent.image.ImageLoader;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;

import java.time.Duration;

/**
 * GAM as a LangChain4j {@link ChatModel}: what an application's code, AI services and agents call. A request's user
 * messages (text and {@code ImageContent}) become one visual question, read as {@code gam serve} reads one (options
 * "A. red" on their own lines or inline make it multiple choice; otherwise it is open); the {@link Gam} answers it with
 * its method (GAM's debate, DREAM, a baseline). The reply's AI message is the answer ("B. triangle" for an option);
 * {@code tokenUsage()} is what every agent's calls used; {@code metadata()} is a {@link GamResponseMetadata} with the
 * rounds, termination, confidence and trace id. The model does not close the {@code Gam} it is given.
 *
 * <pre>{@code
 * try (Gam gam = Gam.builder().openAiCompatible("http://127.0.0.1:8000/v1", "Qwen/Qwen2.5-VL-7B-Instruct").method("gam").build()) {
 *     ChatModel model = GamChatModel.builder().gam(gam).build();
 *     ChatResponse r = model.chat(UserMessage.from(TextContent.from("Which bar is tallest?\nA. red\nB. blue"),
 *             ImageContent.from(base64Png, "image/png")));
 *     GamResponseMetadata debate = (GamResponseMetadata) r.metadata();
 * }
 * }</pre>
 */
public final class GamChatModel implements ChatModel {
    private final GamReplies replies;

    private GamChatModel(GamReplies replies) { this.replies = replies; }

    public static Builder builder() { return new Builder(); }

    @Override public ChatResponse doChat(ChatRequest request) {
        return replies.answer(replies.question(request));
    }

    /** The model's name is the method's ({@code gam}, {@code dream+gam}, ...). */
    @Override public ChatRequestParameters defaultRequestParameters() {
        return ChatRequestParameters.builder().modelName(replies.method()).build();
    }

    @Override public ModelProvider provider() { return ModelProvider.OTHER; }

    /** Chooses the {@link Gam} behind the model, where progress goes, and how images are read. */
    public static final class Builder {
        private Gam gam;
        private ProgressListener progress = ProgressListener.NONE;
        private ImageLoader images = new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS);
        private Duration imageFetchTimeout = Duration.ofSeconds(30);

        private Builder() { }

        /** The library facade that answers (its backend, method and configuration); required. */
        public Builder gam(Gam value) { this.gam = value; return this; }

        /** Receives the debate's progress events (rounds, answers, weights) as it runs; never part of the reply's text. */
        public Builder progress(ProgressListener value) { this.progress = value; return this; }

        /** How images are decoded and the largest accepted (default: {@code image.max_megapixels}). */
        public Builder images(ImageLoader value) { this.images = java.util.Objects.requireNonNull(value, "images"); return this; }

        /** How long fetching an http(s) image URL may take (default 30 s). */
        public Builder imageFetchTimeout(Duration value) { this.imageFetchTimeout = java.util.Objects.requireNonNull(value, "imageFetchTimeout"); return this; }

        public GamChatModel build() {
            if (gam == null) throw new IllegalStateException("GamChatModel.builder().gam(...) is required: the Gam that answers");
            return new GamChatModel(new GamReplies(gam, progress, images, imageFetchTimeout));
        }
    }
}
