package dev.gamagent.cli;

import dev.gamagent.bench.sim.ModelServerSimulator;
import dev.gamagent.bench.sim.SimulatorCeiling;
import dev.gamagent.bench.sim.SimulatorSettings;
import dev.gamagent.image.internal.ImageTokens;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code gam bench serve-sim}: an OpenAI-compatible model-server simulator for benchmarks. It is not a
 * backend and holds no model: point {@code --backend openai --base-url} at it to measure what the
 * orchestration costs next to a server of known latency and capacity.
 */
@Command(name = "serve-sim", mixinStandardHelpOptions = true,
        description = {"A model-server SIMULATOR for benchmarks (no model: replies are synthetic and well-formed).",
                "OpenAI-compatible /v1/chat/completions with log-probs, a fixed or token-proportional latency and K slots;",
                "GET /sim/stats reports its counters (POST /sim/stats/reset zeroes the token counters, POST /reset_prefix_cache",
                "empties the cache). Prints its own ceiling (requests/s at zero latency) first."})
public final class BenchServeSimCommand implements Callable<Integer> {
    @Option(names = "--host", defaultValue = "127.0.0.1", description = "address to listen on (default: ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--port", defaultValue = "8765", description = "port, 0 = any free one (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--model", defaultValue = SimulatorSettings.DEFAULT_MODEL, description = "model name it reports (default: ${DEFAULT-VALUE})")
    String model;

    @Option(names = "--latency-ms", defaultValue = "1000", description = "fixed latency per request (default: ${DEFAULT-VALUE})")
    long latencyMs;

    @Option(names = "--ms-per-prompt-token", defaultValue = "0", description = "added latency per computed prompt token (prefill; "
            + "tokens served from the prefix cache cost nothing)")
    double msPerPromptToken;

    @Option(names = "--ms-per-output-token", defaultValue = "0", description = "added latency per generated token (decoding)")
    double msPerOutputToken;

    @Option(names = "--endpoints", defaultValue = "1", description = "independent servers in this process, on consecutive ports "
            + "(each with its own slots), to stand for several model servers (default: ${DEFAULT-VALUE})")
    int endpoints;

    @Option(names = "--slots", defaultValue = "8", description = "requests served at once per endpoint (default: ${DEFAULT-VALUE})")
    int slots;

    @Option(names = "--overflow", defaultValue = "queue", description = "past the slots: queue (like vLLM, Ollama) or 429 (like a hosted API)")
    String overflow;

    @Option(names = "--completion-tokens", defaultValue = "48", description = "reply length in tokens when max_tokens allows (default: ${DEFAULT-VALUE})")
    int completionTokens;

    @Option(names = "--agreement", defaultValue = "0.7", description = "chance a reply names the question's common answer (default: ${DEFAULT-VALUE})")
    double agreement;

    @Option(names = "--max-logprobs", defaultValue = "20", description = "largest top_logprobs accepted, 400 above (default: ${DEFAULT-VALUE}, as vLLM)")
    int maxLogprobs;

    @Option(names = "--image-tokens", description = "count image tokens as this model family's processor does, pixel budget "
            + "included: qwen (Qwen2.5-VL), qwen-vlmevalkit, internvl, gemma3, llava-next, openai, ... or family:key=value "
            + "(default: image.tokens of defaults.json, qwen)")
    String imageTokens;

    @Option(names = "--prefix-cache-tokens", defaultValue = "0", description = "automatic prefix caching as vLLM's, with an LRU of this "
            + "many tokens; replies then report usage.prompt_tokens_details.cached_tokens. 0 = off (default: ${DEFAULT-VALUE})")
    long prefixCacheTokens;

    @Option(names = "--block-size", defaultValue = "" + SimulatorSettings.DEFAULT_BLOCK_SIZE, description = "tokens per prefix-cache "
            + "block; only full blocks are cached (default: ${DEFAULT-VALUE}, as vLLM)")
    int blockSize;

    @Option(names = "--ceiling-seconds", defaultValue = "2", description = "how long to measure the ceiling first; 0 skips it (default: ${DEFAULT-VALUE})")
    double ceilingSeconds;

    @Option(names = "--ceiling-connections", defaultValue = "32", description = "connections of the ceiling's load generator (default: ${DEFAULT-VALUE})")
    int ceilingConnections;

    @Override public Integer call() throws Exception {
        SimulatorSettings s = new SimulatorSettings(host, port, model, Duration.ofMillis(latencyMs), msPerPromptToken, msPerOutputToken,
                slots, SimulatorSettings.Overflow.parse(overflow), completionTokens, agreement, maxLogprobs,
                imageTokens == null ? null : ImageTokens.rule(imageTokens), prefixCacheTokens, blockSize);
        System.out.println("gam bench serve-sim: a model-server SIMULATOR for benchmarks; it holds no model and its replies are synthetic");
        if (ceilingSeconds > 0) {
            SimulatorCeiling.Result c = SimulatorCeiling.measure(ceilingConnections, Duration.ofMillis(Math.round(ceilingSeconds * 1000)));
            System.out.printf(Locale.ROOT, "ceiling: %.0f requests/s (zero latency, %d kept-alive connections for %.1f s, load generator "
                    + "on the same cores%s)%n", c.requestsPerSecond(), c.connections(), c.seconds(),
                    c.failures() > 0 ? ", " + c.failures() + " failed" : "");
        }
        if (endpoints < 1) throw new IllegalArgumentException("--endpoints must be at least 1, got " + endpoints);
        List<ModelServerSimulator> sims = new ArrayList<>();
        for (int i = 0; i < endpoints; i++) sims.add(new ModelServerSimulator(port == 0 ? s : s.onPort(port + i)));
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (ModelServerSimulator sim : sims) System.out.println("at shutdown, " + sim.baseUrl() + ": " + sim.tokenSummary());
            System.out.flush();
            sims.forEach(ModelServerSimulator::close);
            stop.countDown();
        }));
        for (ModelServerSimulator sim : sims) {
            System.out.printf(Locale.ROOT, "serving %s: latency %d ms + %.3g ms/prompt token + %.3g ms/output token, %d slots, %s past them; "
                            + "image tokens as %s; %s; stats at http://%s:%d/sim/stats%n", sim.baseUrl(), latencyMs, msPerPromptToken, msPerOutputToken,
                    slots, s.overflow() == SimulatorSettings.Overflow.QUEUE ? "queue" : "429", s.imageTokens().spec(),
                    s.prefixCaching() ? "prefix cache of " + s.prefixCacheTokens() + " tokens in blocks of " + s.blockSize() : "no prefix cache",
                    host, sim.port());
        }
        System.out.flush();
        stop.await();
        return 0;
    }
}
