package dev.gamagent.cli;

import dev.gamagent.backend.BackendSpec;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.config.Config;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The backend and configuration flags shared by ask, eval, demo, serve and backends check. */
public final class BackendOptions {
    @Option(names = "--backend", description = "local|openai|ollama|gemini|anthropic|replay (default: local); the run's default "
            + "backend, named 'default' in agent lists (more backends by name: the 'backends' section of --config)")
    String backend;

    @Option(names = "--base-url", description = "server URL; repeat for load-balanced replicas, e.g. http://127.0.0.1:8000/v1")
    List<String> baseUrls = new ArrayList<>();

    @Option(names = "--model", description = "model name as the server knows it")
    String model;

    @Option(names = "--api-key-env", description = "environment variable holding the API key (default: per backend, e.g. OPENAI_API_KEY)")
    String apiKeyEnv;

    @Option(names = "--timeout", description = "seconds per request (default: the configuration's backend.timeout_s)")
    Integer timeoutSeconds;

    @Option(names = "--retries", description = "retries on 408/409/429/5xx/connection errors (default: the configuration's backend.retries)")
    Integer retries;

    @Option(names = "--max-concurrent", description = "requests in flight per endpoint (default: the configuration's backend.max_concurrent; "
            + "for eval, see --concurrency)")
    Integer maxConcurrent;

    @Option(names = "--record", description = "append every request/response pair to this JSONL file")
    Path record;

    @Option(names = "--replay", description = "answer from this recorded JSONL file (with --backend replay)")
    Path replay;

    @Option(names = "--image-tokens", description = "the model family whose processor counts image tokens (pixel budget included), "
            + "for a server that reports no usage and the built-in model's usage: qwen, qwen-vlmevalkit, internvl, gemma3, llava-next, "
            + "openai, openai-low, gpt-4.1-mini, gemini, anthropic, or family:key=value (default: the hosted vendor's, else image.tokens)")
    String imageTokens;

    @Option(names = "--config", description = "JSON config file (hyperparameters, prompts, agents, named backends)")
    Path config;

    @Option(names = "--set", description = "override one config value, e.g. --set gam.lambda=0.3 (repeatable)")
    Map<String, String> overrides = new LinkedHashMap<>();

    /** The flags' backend; the flags left out take the configuration's {@code backend.timeout_s}, {@code retries}, {@code max_concurrent}. */
    public BackendSpec spec() { return spec(config()); }

    /** As {@link #spec()}, with the defaults of {@code c} (the command's configuration). */
    public BackendSpec spec(Config c) { return spec(c, maxConcurrent == null ? c.integer("backend.max_concurrent") : maxConcurrent); }

    /** The spec with {@code perEndpoint} requests in flight per endpoint (eval resolves it with --concurrency). */
    public BackendSpec spec(int perEndpoint) { return spec(config(), perEndpoint); }

    /** The spec with the defaults of {@code c} and {@code perEndpoint} requests in flight per endpoint. */
    public BackendSpec spec(Config c, int perEndpoint) {
        int seconds = timeoutSeconds == null ? c.integer("backend.timeout_s") : timeoutSeconds;
        int tries = retries == null ? c.integer("backend.retries") : retries;
        return new BackendSpec(backend == null ? "local" : backend, baseUrls, model, apiKeyEnv, Duration.ofSeconds(seconds), tries,
                perEndpoint, record, replay, imageTokens);
    }

    public Config config() {
        return Config.defaults().withFile(config).withOverrides(overrides);
    }

    /**
     * The configuration with this command's own defaults ({@code key=value}, e.g. {@code trace.prompts=true} for ask and
     * serve) over the built-in ones, under the {@code --config} file and {@code --set}, which still override them.
     */
    public Config config(Map<String, String> commandDefaults) {
        return Config.defaults().withOverrides(commandDefaults).withFile(config).withOverrides(overrides);
    }

    /**
     * The configuration with {@code settings} (a recipe's run) over the {@code --config} file and under {@code --set}: the
     * command line's own values win.
     */
    public Config configUnderSet(Map<String, String> settings) {
        return Config.defaults().withFile(config).withOverrides(settings).withOverrides(overrides);
    }

    /** {@code settings} with the command line's {@code --set} values over them, in the order a command line writes them. */
    public Map<String, String> settingsWith(Map<String, String> settings) {
        Map<String, String> all = new LinkedHashMap<>(settings);
        all.putAll(overrides);
        return all;
    }

    /** The command line's backend as {@code default}, the built-in model as {@code local}, and the configured ones. */
    public NamedBackends open(Config c, BackendSource source) {
        return NamedBackends.open(spec(c), c, source::create);
    }
}
