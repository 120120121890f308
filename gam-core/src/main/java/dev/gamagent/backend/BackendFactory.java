package dev.gamagent.backend;

import dev.gamagent.config.Config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.function.UnaryOperator;

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

    public static Backend create(BackendSpec spec, Config config) {
        return create(spec, config, System::getenv);
    }

    /** As {@link #create(BackendSpec, Config)} with an explicit environment (API keys are read from it). */
    public static Backend create(BackendSpec spec, Config config, Function<String, String> env) {
        Backend b;
        switch (spec.kind()) {
            case "local":
                b = provided("local", config);
                break;
            case "openai":
                b = remote(spec, config, env, "https://api.openai.com/v1", "OPENAI_API_KEY", false, OpenAiCompatibleBackend::new);
                break;
            case "ollama":
                b = remote(spec, config, env, "http://127.0.0.1:11434", "OLLAMA_API_KEY", false, OllamaBackend::new);
                break;
            case "gemini":
                b = remote(spec, config, env, "https://generativelanguage.googleapis.com/v1beta", "GEMINI_API_KEY", true, GeminiBackend::new);
                break;
            case "anthropic":
                b = remote(spec, config, env, "https://api.anthropic.com", "ANTHROPIC_API_KEY", true, AnthropicBackend::new);
                break;
            case "replay":
                if (spec.replay() == null) throw new IllegalArgumentException("--backend replay needs --replay FILE (a file written with --record)");
                b = new ReplayBackend(spec.replay());
                break;
            default:
                throw new IllegalArgumentException("unknown backend '" + spec.kind()
                        + "'; known: local, openai, ollama, gemini, anthropic, replay");
        }
        if (spec.record() == null) return b;
        // the recording holds what every backend of the run answered: keep out every key this spec can reach
        List<String> keyVars = spec.apiKeyEnv() == null ? List.of() : List.of(spec.apiKeyEnv());
        return new RecordingBackend(b, spec.record(), dev.gamagent.backend.SecretScrubber.of(env, keyVars, spec.baseUrls()));
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

    private static Backend remote(BackendSpec spec, Config config, Function<String, String> env, String defaultUrl,
                                  String defaultKeyEnv, boolean keyRequiredForDefaultUrl, Function<EndpointSettings, Backend> make) {
        List<String> urls = spec.baseUrls().isEmpty() ? List.of(defaultUrl) : spec.baseUrls();
        String keyEnv = spec.apiKeyEnv() != null ? spec.apiKeyEnv() : defaultKeyEnv;
        String key = env.apply(keyEnv);
        if ((key == null || key.isBlank()) && spec.apiKeyEnv() != null) {
            throw new IllegalArgumentException("--api-key-env " + keyEnv + " names an environment variable that is not set");
        }
        if ((key == null || key.isBlank()) && keyRequiredForDefaultUrl && urls.contains(defaultUrl)) {
            throw new IllegalArgumentException("backend '" + spec.kind() + "' at " + defaultUrl + " needs an API key: set "
                    + keyEnv + " (or name another variable with --api-key-env)");
        }
        String model = spec.model() != null ? spec.model() : defaultModel(spec.kind(), urls, defaultUrl);
        int maxTop = config.integer("backend.max_top_logprobs");
        String family = spec.imageTokenFamily() != null ? spec.imageTokenFamily() : defaultImageFamily(spec.kind(), urls, defaultUrl);
        long maxReply = Math.round(config.number("backend.max_reply_mb") * 1024 * 1024);
        if (maxReply <= 0) throw new IllegalArgumentException("backend.max_reply_mb must be above 0, got " + config.number("backend.max_reply_mb"));
        List<Backend> endpoints = new ArrayList<>();
        for (String url : urls) {
            endpoints.add(make.apply(new EndpointSettings(url, model, key, spec.timeout(), maxTop, family, maxReply)));
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

    /** Hosted APIs get a default model; local servers are asked which model they serve. */
    private static String defaultModel(String kind, List<String> urls, String defaultUrl) {
        if (!urls.contains(defaultUrl)) return null;
        return switch (kind) {
            case "openai" -> "gpt-4o-mini";
            case "gemini" -> "gemini-2.5-flash";
            case "anthropic" -> "claude-sonnet-4-5";
            default -> null;
        };
    }

    /** The image-token estimate for servers without usage: the vendor's own rule for hosted APIs, else Qwen2.5-VL's. */
    private static String defaultImageFamily(String kind, List<String> urls, String defaultUrl) {
        return switch (kind) {
            case "gemini" -> "gemini";
            case "anthropic" -> "anthropic";
            case "openai" -> urls.contains(defaultUrl) ? "openai" : "qwen";
            default -> "qwen";
        };
    }

    private static String stripSlash(String u) {
        UnaryOperator<String> f = s -> s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
        return f.apply(u.strip());
    }
}
