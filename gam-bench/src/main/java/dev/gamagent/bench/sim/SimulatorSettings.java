package dev.gamagent.bench.sim;

import dev.gamagent.config.Config;
import dev.gamagent.image.internal.ImageTokens;

import java.time.Duration;

/**
 * How the model-server simulator behaves: where it listens, how long a request takes (a fixed part plus
 * optional per-token parts, as prefill and decoding cost on a real server), how many requests it serves
 * at once ({@code slots}) and what happens past them: queue (as vLLM and Ollama do) or answer 429 (as a
 * hosted API does). {@code agreement} is the chance that a reply names the question's common answer
 * rather than a random other one, so debates have something to settle.
 *
 * @param completionTokens the length of a reply when {@code max_tokens} allows it
 * @param maxTopLogprobs   the largest {@code top_logprobs} accepted (vLLM's {@code --max-logprobs}, 20)
 * @param imageTokens      how its usage counts an image's tokens: the processor rule of the family it stands for
 *                         ({@code --image-tokens}; {@code image.tokens} of defaults.json, Qwen2.5-VL's, when not given)
 * @param prefixCacheTokens the capacity of its automatic prefix cache in tokens ({@code --prefix-cache-tokens}); 0 turns
 *                         the cache off: every prompt token is computed and replies carry no {@code prompt_tokens_details}
 * @param blockSize        tokens per cache block ({@code --block-size}, vLLM's default 16)
 */
public record SimulatorSettings(String host, int port, String model, Duration latency, double msPerPromptToken,
                                double msPerCompletionToken, int slots, Overflow overflow, int completionTokens,
                                double agreement, int maxTopLogprobs, ImageTokens.Rule imageTokens, long prefixCacheTokens,
                                int blockSize) {
    /** What happens to a request that finds every slot busy. */
    public enum Overflow {
        /** waits for a slot, first come first served */
        QUEUE,
        /** is refused at once with 429 and a Retry-After header */
        REJECT;

        public static Overflow parse(String s) {
            return switch (s == null ? "" : s.strip().toLowerCase(java.util.Locale.ROOT)) {
                case "queue" -> QUEUE;
                case "429", "reject" -> REJECT;
                default -> throw new IllegalArgumentException("--overflow " + s + ": use queue or 429");
            };
        }
    }

    public static final String DEFAULT_MODEL = "gam-sim";

    public SimulatorSettings {
        if (host == null || host.isBlank()) host = "127.0.0.1";
        if (port < 0 || port > 65535) throw new IllegalArgumentException("--port " + port + " is not a TCP port (0 picks a free one)");
        if (model == null || model.isBlank()) model = DEFAULT_MODEL;
        if (latency == null || latency.isNegative()) throw new IllegalArgumentException("--latency-ms must be ≥ 0");
        if (msPerPromptToken < 0 || msPerCompletionToken < 0) throw new IllegalArgumentException("per-token latencies must be ≥ 0");
        if (slots < 1) throw new IllegalArgumentException("--slots " + slots + ": a server needs at least one slot");
        if (overflow == null) overflow = Overflow.QUEUE;
        if (completionTokens < 1) throw new IllegalArgumentException("--completion-tokens must be ≥ 1, got " + completionTokens);
        if (!(agreement >= 0 && agreement <= 1)) throw new IllegalArgumentException("--agreement must be in [0, 1], got " + agreement);
        if (maxTopLogprobs < 0) maxTopLogprobs = 20;
        if (imageTokens == null) imageTokens = ImageTokens.rule(Config.defaults().string("image.tokens"));
        if (prefixCacheTokens < 0) throw new IllegalArgumentException("--prefix-cache-tokens " + prefixCacheTokens + ": use 0 (off) or a capacity in tokens");
        if (blockSize < 1) throw new IllegalArgumentException("--block-size " + blockSize + ": a block holds at least one token");
        if (prefixCacheTokens > 0 && prefixCacheTokens < blockSize) {
            throw new IllegalArgumentException("--prefix-cache-tokens " + prefixCacheTokens + " holds no block of " + blockSize + " tokens");
        }
    }

    /** vLLM's default block size, in tokens. */
    public static final int DEFAULT_BLOCK_SIZE = 16;

    /** A simulator on a free loopback port with a fixed latency and {@code slots} slots that queue. */
    public static SimulatorSettings fixed(Duration latency, int slots) {
        return new SimulatorSettings("127.0.0.1", 0, DEFAULT_MODEL, latency, 0, 0, slots, Overflow.QUEUE, 48, 0.7, 20, null, 0, DEFAULT_BLOCK_SIZE);
    }

    public SimulatorSettings withOverflow(Overflow o) {
        return new SimulatorSettings(host, port, model, latency, msPerPromptToken, msPerCompletionToken, slots, o, completionTokens,
                agreement, maxTopLogprobs, imageTokens, prefixCacheTokens, blockSize);
    }

    public SimulatorSettings onPort(int p) {
        return new SimulatorSettings(host, p, model, latency, msPerPromptToken, msPerCompletionToken, slots, overflow, completionTokens,
                agreement, maxTopLogprobs, imageTokens, prefixCacheTokens, blockSize);
    }

    public SimulatorSettings withTokenLatency(double msPerPrompt, double msPerCompletion) {
        return new SimulatorSettings(host, port, model, latency, msPerPrompt, msPerCompletion, slots, overflow, completionTokens,
                agreement, maxTopLogprobs, imageTokens, prefixCacheTokens, blockSize);
    }

    /** The same simulator counting image tokens as {@code rule}'s family does. */
    public SimulatorSettings withImageTokens(ImageTokens.Rule rule) {
        return new SimulatorSettings(host, port, model, latency, msPerPromptToken, msPerCompletionToken, slots, overflow, completionTokens,
                agreement, maxTopLogprobs, rule, prefixCacheTokens, blockSize);
    }

    /** The same simulator with a prefix cache of {@code tokens} tokens (0: none). */
    public SimulatorSettings withPrefixCache(long tokens) {
        return new SimulatorSettings(host, port, model, latency, msPerPromptToken, msPerCompletionToken, slots, overflow, completionTokens,
                agreement, maxTopLogprobs, imageTokens, tokens, blockSize);
    }

    /**
     * How long a request occupies its slot: its prefill ({@link #prefillNanos} of the prompt tokens it computes, those not
     * served from the prefix cache), then the fixed latency and {@code msPerCompletionToken} per generated token.
     */
    public long latencyNanos(long computedPromptTokens, long completionTokens) {
        return prefillNanos(computedPromptTokens) + latency.toNanos() + Math.round(msPerCompletionToken * completionTokens * 1_000_000);
    }

    /** How long computing this many prompt tokens takes: the first part of a request's time, after which its blocks are cached. */
    public long prefillNanos(long computedPromptTokens) { return Math.round(msPerPromptToken * computedPromptTokens * 1_000_000); }

    /** Whether replies report cached prompt tokens and the prefix cache is used. */
    public boolean prefixCaching() { return prefixCacheTokens > 0; }
}
