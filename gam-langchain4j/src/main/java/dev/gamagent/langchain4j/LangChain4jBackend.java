package dev.gamagent.langchain4j;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.Usage;
import dev.gamagent.backend.internal.TokenEstimator;
import dev.gamagent.image.Picture;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A GAM {@link Backend} over any LangChain4j {@link ChatModel} (OpenAI, Azure OpenAI, Bedrock, Vertex AI, Mistral,
 * watsonx, Ollama, ...): messages with their images, temperature and the most tokens go through LangChain4j's common
 * request parameters; {@code n > 1} is n calls (LangChain4j has no {@code n}); a seed, or any parameter of one provider,
 * goes through {@link Builder#parameters}. Log-probs are read from the response when the builder says the model returns
 * them ({@link Builder#logprobs}); a reply without them leaves the agent's uncertainty to the engine's fallback
 * (sampling, else the reply's hedges), as for any backend without log-probs. LangChain4j's typed errors become GAM's
 * ({@link BackendException}: rate limits and server errors are retried by the wrappers, refusals are not).
 *
 * <p>Register one under a name for a panel's agents with {@code Gam.builder().backend("mistral", backend)} and name it in
 * the configuration ({@code gam.experts[1].backend = "mistral"}), or make it the default with
 * {@code Gam.builder().backend(backend)}.
 */
public final class LangChain4jBackend implements Backend {
    private final ChatModel model;
    private final String name;
    private final Capabilities capabilities;
    private final BiFunction<dev.gamagent.backend.ChatRequest, ChatRequestParameters, ChatRequestParameters> parameters;
    private final Function<ChatResponse, List<TokenLogprob>> logprobs;
    private final TokenEstimator estimator;

    private LangChain4jBackend(Builder b) {
        this.model = b.model;
        this.name = b.name != null ? b.name : "langchain4j:" + b.model.provider().name().toLowerCase(Locale.ROOT)
                + (b.model.defaultRequestParameters() != null && b.model.defaultRequestParameters().modelName() != null
                ? ":" + b.model.defaultRequestParameters().modelName() : "");
        this.capabilities = new Capabilities(b.images, b.maxTopLogprobs >= 0, Math.max(0, b.maxTopLogprobs), true, false,
                Capabilities.DEFAULT_MAX_PIXELS);
        this.parameters = b.parameters;
        this.logprobs = b.logprobReader;
        this.estimator = new TokenEstimator(b.imageTokenFamily);
    }

    /** A builder over {@code model}. */
    public static Builder builder(ChatModel model) { return new Builder(model); }

    /** {@code model} as a backend without log-probs, with images. */
    public static LangChain4jBackend of(ChatModel model) { return builder(model).build(); }

    @Override public String name() { return name; }

    @Override public Capabilities capabilities() { return capabilities; }

    @Override public ChatResult chat(dev.gamagent.backend.ChatRequest request) {
        long t0 = System.nanoTime();
        List<ChatMessage> messages = messages(request);
        List<Choice> choices = new ArrayList<>();
        long prompt = 0, completion = 0;
        boolean estimated = false;
        String modelName = null;
        // LangChain4j has no n: n calls, the seed (when the parameters hook sends one) moved on by one each, so samples differ
        for (int i = 0; i < request.n(); i++) {
            dev.gamagent.backend.ChatRequest one = request.withSampling(request.temperature(), request.maxTokens(), 1,
                    request.seed() == null ? null : request.seed() + i);
            ChatResponse r = call(ChatRequest.builder().messages(messages).parameters(parameters(one)).build());
            String text = r.aiMessage() == null || r.aiMessage().text() == null ? "" : r.aiMessage().text();
            List<TokenLogprob> lp = request.logprobs() && capabilities.logprobs() ? logprobs.apply(r) : List.of();
            Choice c = new Choice(text, lp, finish(r.finishReason()));
            choices.add(c);
            TokenUsage u = r.tokenUsage();
            if (u != null && u.inputTokenCount() != null) prompt += u.inputTokenCount();
            else { prompt += estimator.prompt(one); estimated = true; }
            if (u != null && u.outputTokenCount() != null) completion += u.outputTokenCount();
            else { completion += estimator.completion(List.of(c)); estimated = true; }
            if (r.modelName() != null) modelName = r.modelName();
        }
        return new ChatResult(choices, new Usage(prompt, completion, estimated), Duration.ofNanos(System.nanoTime() - t0), modelName);
    }

    /** The model's own parameters, with the request's temperature and most tokens, then the builder's hook. */
    private ChatRequestParameters parameters(dev.gamagent.backend.ChatRequest r) {
        ChatRequestParameters p = ChatRequestParameters.builder().temperature(r.temperature()).maxOutputTokens(r.maxTokens()).build();
        return parameters == null ? p : parameters.apply(r, p);
    }

    private ChatResponse call(ChatRequest request) {
        try {
            return model.chat(request);
        } catch (RateLimitException e) {
            throw new BackendException.RateLimited(name + ": rate limited: " + e.getMessage(), 429, null);
        } catch (InternalServerException e) {
            throw new BackendException.ServerUnavailable(name + ": server error: " + e.getMessage(), 500, null);
        } catch (TimeoutException e) {
            throw new BackendException.Timeout(name + ": timed out: " + e.getMessage(), e);
        } catch (AuthenticationException e) {
            throw new BackendException.Unauthorized(name + ": refused the credentials: " + e.getMessage(), 401);
        } catch (ModelNotFoundException e) {
            throw new BackendException.InvalidRequest(name + ": no such model: " + e.getMessage(), 404, e.getMessage());
        } catch (InvalidRequestException e) {
            throw new BackendException.InvalidRequest(name + ": refused the request: " + e.getMessage(), 400, e.getMessage());
        } catch (HttpException e) {
            throw byStatus(e);
        } catch (BackendException e) {
            throw e;
        } catch (RuntimeException e) {
            Throwable io = cause(e);
            if (io instanceof HttpTimeoutException) throw new BackendException.Timeout(name + ": timed out: " + io.getMessage(), e);
            if (io != null) throw new BackendException.ConnectionFailed(name + ": connection failed: " + io.getMessage(), e);
            throw new BackendException.MalformedResponse(name + ": " + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    private BackendException byStatus(HttpException e) {
        int s = e.statusCode();
        String m = name + ": HTTP " + s + ": " + e.getMessage();
        if (s == 429 || s == 408 || s == 409) return new BackendException.RateLimited(m, s, null);
        if (s >= 500) return new BackendException.ServerUnavailable(m, s, null);
        if (s == 401 || s == 403) return new BackendException.Unauthorized(m, s);
        return new BackendException.InvalidRequest(m, s, e.getMessage());
    }

    /** The I/O failure under a LangChain4j exception, if any. */
    private static Throwable cause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IOException || t instanceof UncheckedIOException) return t instanceof UncheckedIOException u ? u.getCause() : t;
            if (t.getCause() == t) break;
        }
        return null;
    }

    private static String finish(FinishReason f) {
        if (f == null) return null;
        return switch (f) {
            case STOP -> "stop";
            case LENGTH -> "length";
            case CONTENT_FILTER -> "content_filter";
            case TOOL_EXECUTION -> "tool_calls";
            default -> f.name().toLowerCase(Locale.ROOT);
        };
    }

    /** GAM's messages as LangChain4j's: system, user (images then text, as GAM orders them), assistant. */
    static List<ChatMessage> messages(dev.gamagent.backend.ChatRequest r) {
        List<ChatMessage> out = new ArrayList<>();
        for (dev.gamagent.backend.ChatMessage m : r.messages()) {
            switch (m.role()) {
                case SYSTEM -> out.add(SystemMessage.from(m.text()));
                case ASSISTANT -> out.add(AiMessage.from(m.text()));
                case USER -> {
                    List<Content> parts = new ArrayList<>();
                    for (dev.gamagent.backend.ChatMessage.Part p : m.parts()) {
                        if (p instanceof dev.gamagent.backend.ChatMessage.Text t) parts.add(TextContent.from(t.text()));
                        else if (p instanceof dev.gamagent.backend.ChatMessage.Image img) parts.add(image(img.picture(), img.detail()));
                    }
                    out.add(UserMessage.from(parts));
                }
            }
        }
        return out;
    }

    private static ImageContent image(Picture p, String detail) {
        Picture.Encoding e = p.encoding();
        String base64 = new String(e.base64(), StandardCharsets.US_ASCII);
        if (detail == null) return ImageContent.from(base64, e.mimeType());
        ImageContent.DetailLevel level = switch (detail.toLowerCase(Locale.ROOT)) {
            case "low" -> ImageContent.DetailLevel.LOW;
            case "high" -> ImageContent.DetailLevel.HIGH;
            default -> ImageContent.DetailLevel.AUTO;
        };
        return ImageContent.from(base64, e.mimeType(), level);
    }

    /** Chooses the backend's name, what the model can take and give, and the provider's own parameters. */
    public static final class Builder {
        private final ChatModel model;
        private String name;
        private boolean images = true;
        private int maxTopLogprobs = -1;
        private Function<ChatResponse, List<TokenLogprob>> logprobReader = r -> List.of();
        private BiFunction<dev.gamagent.backend.ChatRequest, ChatRequestParameters, ChatRequestParameters> parameters;
        private String imageTokenFamily;

        private Builder(ChatModel model) { this.model = Objects.requireNonNull(model, "model"); }

        /** The name in traces and logs (default {@code langchain4j:PROVIDER:MODEL}); never a key. */
        public Builder name(String value) { this.name = Objects.requireNonNull(value, "name"); return this; }

        /** Whether the model takes images (default true); a text-only model reads the questions without them. */
        public Builder images(boolean value) { this.images = value; return this; }

        /**
         * The model returns log-probs (e.g. OpenAI's with {@code .logprobs(true).topLogprobs(5)}), with up to
         * {@code maxTop} alternatives per token, found in the response's metadata by {@link LogprobReader#fromMetadata}.
         */
        public Builder logprobs(int maxTop) { return logprobs(maxTop, LogprobReader::fromMetadata); }

        /** As {@link #logprobs(int)}, read from the response by {@code reader} (a provider whose metadata has another shape). */
        public Builder logprobs(int maxTop, Function<ChatResponse, List<TokenLogprob>> reader) {
            if (maxTop < 0) throw new IllegalArgumentException("logprobs: maxTop must be 0 or more, got " + maxTop);
            this.maxTopLogprobs = maxTop;
            this.logprobReader = Objects.requireNonNull(reader, "reader");
            return this;
        }

        /**
         * A hook that adds a provider's own parameters to each call's: given GAM's request (its {@code seed()},
         * {@code logprobs()}, {@code topLogprobs()}) and the common parameters (temperature, most tokens), the parameters
         * to send, e.g. {@code (r, p) -> OpenAiChatRequestParameters.builder().overrideWith(p).seed(...).build()}.
         */
        public Builder parameters(BiFunction<dev.gamagent.backend.ChatRequest, ChatRequestParameters, ChatRequestParameters> hook) {
            this.parameters = Objects.requireNonNull(hook, "hook");
            return this;
        }

        /** The rule image tokens are estimated by when the provider reports no usage (default: {@code image.tokens}). */
        public Builder imageTokens(String family) { this.imageTokenFamily = family; return this; }

        public LangChain4jBackend build() { return new LangChain4jBackend(this); }
    }
}
