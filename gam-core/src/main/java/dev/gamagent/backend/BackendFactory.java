package dev.gamagent.backend;

import dev.gamagent.config.Config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import dev.gamagent.backend.internal.BackendProvider;
import dev.gamagent.backend.internal.EndpointSettings;
import dev.gamagent.backend.internal.SecretScrubber;

/**
 * Builds a backend (with its resilience, recording and load-balancing wrappers) from a {@link BackendSpec}:
 * per endpoint an HTTP backend; several endpoints are load-balanced; retries and the concurrency limit
 * wrap that; {@code --record} wraps everything. Retry timing comes from config keys
 * {@code backend.retry_base_ms}, {@code backend.retry_max_ms}, {@code backend.retry_after_cap_ms},
 * {@code backend.endpoint_cooldown_ms}; the top-k limit from {@code backend.max_top_logprobs}; the largest reply read
 * from {@code backend.max_reply_mb}.
 */
public final class BackendFactory {
    private BackendFactory() { }

    /**
     * A kind of HTTP server: its default URL, the variable its API key is read from (and whether the default URL
     * needs one), the model asked for at the default URL (null: the server is asked which it serves), and how one
     * endpoint is built.
     */
    private record RemoteKind(String defaultUrl, String keyEnv, boolean keyRequiredAtDefaultUrl, String hostedModel,
                              Function<EndpointSettings, Backend> make) { }

    private static final Map<String, RemoteKind> REMOTE_KINDS = Map.of(
            "openai", new RemoteKind("https://api.openai.com/v1", "OPENAI_API_KEY", false, "gpt-4o-mini", OpenAiCompatibleBackend::new),
            "ollama", new RemoteKind("http://127.0.0.1:11434", "OLLAMA_API_KEY", false, null, OllamaBackend::new),
            "gemini", new RemoteKind("https://generativelanguage.googleapis.com/v1beta", "GEMINI_API_KEY", true, "gemini-2.5-flash",
                    GeminiBackend::new),
            "anthropic", new RemoteKind("https://api.anthropic.com", "ANTHROPIC_API_KEY", true, "claude-sonnet-4-5", AnthropicBackend::new));

    public static Backend create(BackendSpec spec, Config config) {
        return create(spec, config, System::getenv);
    }

    /** As {@link #create(BackendSpec, Config)} with an explicit environment (API keys are read from it). */
    public static Backend create(BackendSpec spec, Config config, Function<String, String> env) {
        Backend b = switch (spec.kind()) {
            // --image-tokens names the family whose processor the built-in model's usage counts images by (image.tokens)
            case "local" -> provided("local", spec.imageTokenFamily() == null ? config : config.with("image.tokens", spec.imageTokenFamily()));
            case "replay" -> {
                if (spec.replay() == null) throw new IllegalArgumentException("--backend replay needs --replay FILE (a file written with --record)");
                yield new ReplayBackend(spec.replay());
            }
            default -> {
                RemoteKind remote = REMOTE_KINDS.get(spec.kind());
                if (remote == null) {
                    throw new IllegalArgumentException("unknown backend '" + spec.kind()
                            + "'; known: local, openai, ollama, gemini, anthropic, replay");
                }
                yield remote(spec, config, env, remote);
            }
        };
        if (spec.record() == null) return b;
        // the recording holds what every backend of the run answered: keep out every key this spec can reach
        List<String> keyVars = spec.apiKeyEnv() == null ? List.of() : List.of(spec.apiKeyEnv());
        return new RecordingBackend(b, spec.record(), dev.gamagent.backend.internal.SecretScrubber.of(env, keyVars, spec.baseUrls()));
    }

    /** A backend from the {@link BackendProvider} of that kind on the classpath; its absence names the module to add. */
    static Backend provided(String kind, Config config) {
        for (BackendProvider p : ServiceLoader.load(BackendProvider.class, BackendFactory.class.getClassLoader())) {
            if (p.kind().equals(kind)) return p.create(config);
        }
        throw new IllegalArgumentException("backend '" + kind + "' is the built-in model, which is not on the classpath: "
                + "add the dependency dev.gamagent:gam-local (the gam launcher includes it)");
    }

    /** The retry policy a spec and config describe. */
    public static RetryPolicy retryPolicy(BackendSpec spec, Config config) {
        return new RetryPolicy(spec.maxRetries(), Duration.ofMillis(config.integer("backend.retry_base_ms")),
                Duration.ofMillis(config.integer("backend.retry_max_ms")),
                Duration.ofMillis(config.integer("backend.retry_after_cap_ms")));
    }

    private static Backend remote(BackendSpec spec, Config config, Function<String, String> env, RemoteKind kind) {
        String defaultUrl = kind.defaultUrl();
        List<String> urls = spec.baseUrls().isEmpty() ? List.of(defaultUrl) : spec.baseUrls();
        String keyEnv = spec.apiKeyEnv() != null ? spec.apiKeyEnv() : kind.keyEnv();
        String key = env.apply(keyEnv);
        if ((key == null || key.isBlank()) && spec.apiKeyEnv() != null) {
            throw new IllegalArgumentException("--api-key-env " + keyEnv + " names an environment variable that is not set");
        }
        if ((key == null || key.isBlank()) && kind.keyRequiredAtDefaultUrl() && urls.contains(defaultUrl)) {
            throw new IllegalArgumentException("backend '" + spec.kind() + "' at " + defaultUrl + " needs an API key: set "
                    + keyEnv + " (or name another variable with --api-key-env)");
        }
        // a hosted API gets its default model; a server elsewhere is asked which model it serves
        String model = spec.model() != null ? spec.model() : urls.contains(defaultUrl) ? kind.hostedModel() : null;
        int maxTop = config.integer("backend.max_top_logprobs");
        String family = spec.imageTokenFamily() != null ? spec.imageTokenFamily() : defaultImageFamily(spec.kind(), urls, defaultUrl, config);
        long maxReply = Math.round(config.number("backend.max_reply_mb") * 1024 * 1024);
        if (maxReply <= 0) throw new IllegalArgumentException("backend.max_reply_mb must be above 0, got " + config.number("backend.max_reply_mb"));
        List<Backend> endpoints = new ArrayList<>();
        for (String url : urls) {
            endpoints.add(kind.make().apply(new EndpointSettings(url, model, key, spec.timeout(), maxTop, family, maxReply)));
        }
        RetryPolicy policy = retryPolicy(spec, config);
        if (endpoints.size() == 1) {
            return new ResilientBackend(endpoints.get(0), policy, spec.maxConcurrent(), stripSlash(urls.get(0)));
        }
        Duration cooldown = Duration.ofMillis(config.integer("backend.endpoint_cooldown_ms"));
        Backend lb = new LoadBalancedBackend(endpoints, urls.stream().map(BackendFactory::stripSlash).toList(), cooldown,
                spec.maxConcurrent());
        return new ResilientBackend(lb, policy, spec.maxConcurrent() * endpoints.size(), String.join(",", urls));
    }

    /**
     * The image-token estimate for servers without usage: the vendor's own rule for hosted APIs, else the family of
     * {@code image.tokens} (Qwen2.5-VL's processor by default: a self-hosted server most often serves an open VLM).
     */
    private static String defaultImageFamily(String kind, List<String> urls, String defaultUrl, Config config) {
        return switch (kind) {
            case "gemini" -> "gemini";
            case "anthropic" -> "anthropic";
            case "openai" -> urls.contains(defaultUrl) ? "openai" : config.string("image.tokens");
            default -> config.string("image.tokens");
        };
    }

    private static String stripSlash(String u) {
        UnaryOperator<String> f = s -> s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
        return f.apply(u.strip());
    }
}
