package dev.gamagent.backend.internal;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.openai.ChatCompletionReply;
import dev.gamagent.util.Json;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * What reading one OpenAI-compatible reply with log-probs costs the client: the body read into a tree and its tokens
 * and alternatives taken out ({@link WireParse#openAiTokens}), as {@code OpenAiCompatibleBackend} does after every call.
 * {@code wholeTree} reads it as the transport did before (every log-prob entry's {@code bytes} array built into nodes),
 * {@code skippingBytes} as it did next (a tree without the arrays, {@link HttpTransport#body}, which the other wire formats still
 * use), {@code streamed} as it does now (no tree: the reply streamed into its tokens, {@link OpenAiReply}). The reply is written by
 * the same records as the simulator's and {@code gam serve}'s ({@link ChatCompletionReply}): {@code tokens} tokens of
 * words of 1–9 characters, each with {@code top} alternatives. Run with {@code bench/replyparse.sh}; {@link #main} measures
 * the three ways by the thread's CPU time, alternately, which a machine shared with other work disturbs less than
 * JMH's wall time ({@code bench/replyparse.sh --cpu}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ReplyParseBenchmark {
    /** How the transport read a reply before streaming past the {@code bytes} arrays: the whole tree. */
    private static final ObjectReader WHOLE = Json.MAPPER.reader().with(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .with(StreamReadFeature.USE_FAST_DOUBLE_PARSER);

    @Param({"80"}) public int tokens;
    @Param({"5"}) public int top;

    private String raw;

    @Setup public void setup() throws Exception {
        Random rnd = new Random(7);
        List<TokenLogprob> out = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < tokens; i++) {
            String t = word(rnd);
            text.append(t);
            List<TokenLogprob.Alternative> alts = new ArrayList<>();
            alts.add(new TokenLogprob.Alternative(t, -rnd.nextDouble() * 0.5));
            for (int k = 1; k < top; k++) alts.add(new TokenLogprob.Alternative(word(rnd), -1 - rnd.nextDouble() * 8));
            out.add(new TokenLogprob(t, alts.get(0).logprob(), alts));
        }
        ChatCompletionReply.Completion reply = new ChatCompletionReply.Completion("chatcmpl-bench", 1, "sim", null,
                List.of(ChatCompletionReply.CompletionChoice.of(0, new Choice(text.toString(), out, "stop"), true)),
                ChatCompletionReply.TokenUsage.of(1200, tokens), null);
        raw = Json.MAPPER.writeValueAsString(reply);
        if (read(HttpTransport.body(200, raw, "bench").body()).size() != tokens || read(WHOLE.readTree(raw)).size() != tokens
                || !streamed().equals(wholeTree())) {
            throw new IllegalStateException("the reply does not read back as " + tokens + " tokens");
        }
        System.out.printf("%nreply: %d characters, %d tokens × %d alternatives%n", raw.length(), tokens, top);
    }

    private static String word(Random rnd) {
        StringBuilder sb = new StringBuilder(" ");
        for (int n = 1 + rnd.nextInt(9); n > 0; n--) sb.append((char) ('a' + rnd.nextInt(26)));
        return sb.toString();
    }

    private static List<TokenLogprob> read(JsonNode body) {
        return WireParse.openAiTokens(body.path("choices").path(0).path("logprobs").path("content"));
    }

    @Benchmark public List<TokenLogprob> wholeTree() throws Exception { return read(WHOLE.readTree(raw)); }

    @Benchmark public List<TokenLogprob> skippingBytes() { return read(HttpTransport.body(200, raw, "bench").body()); }

    @Benchmark public List<TokenLogprob> streamed() {
        return HttpTransport.read(200, raw, "bench", OpenAiReply::read).value().choices().get(0).tokens();
    }

    /**
     * The thread's CPU time per reply of each way, in 10 rounds of 2,000 replies each way after 10 rounds of warm-up; prints
     * the medians, their ranges and the ratio. Arguments: tokens and alternatives (80 and 5 when absent).
     */
    public static void main(String[] args) throws Exception {
        ReplyParseBenchmark b = new ReplyParseBenchmark();
        b.tokens = args.length > 0 ? Integer.parseInt(args[0]) : 80;
        b.top = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        b.setup();
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        int n = 2000, rounds = 10;
        long sink = 0;
        for (int w = 0; w < rounds * n; w++) sink += b.wholeTree().size() + b.skippingBytes().size();
        for (int w = 0; w < rounds * n; w++) sink += b.streamed().size();
        double[] whole = new double[rounds], skip = new double[rounds], stream = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long t0 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) sink += b.wholeTree().size();
            long t1 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) sink += b.skippingBytes().size();
            long t2 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) sink += b.streamed().size();
            long t3 = mx.getCurrentThreadCpuTime();
            whole[r] = (t1 - t0) / 1e3 / n;
            skip[r] = (t2 - t1) / 1e3 / n;
            stream[r] = (t3 - t2) / 1e3 / n;
        }
        double w = median(whole), s = median(skip), st = median(stream);
        System.out.printf(java.util.Locale.ROOT, "thread CPU per reply, median of %d rounds of %d (range): whole tree %.1f µs (%.1f–%.1f), "
                + "skipping bytes %.1f µs (%.1f–%.1f), streamed %.1f µs (%.1f–%.1f); skipping / whole %.2f, streamed / whole %.2f "
                + "(%d tokens read)%n", rounds, n, w, whole[0], whole[rounds - 1], s, skip[0], skip[rounds - 1], st, stream[0],
                stream[rounds - 1], s / w, st / w, sink);
    }

    /** Sorts {@code a} and gives its median. */
    private static double median(double[] a) {
        java.util.Arrays.sort(a);
        return a.length % 2 == 0 ? (a[a.length / 2 - 1] + a[a.length / 2]) / 2 : a[a.length / 2];
    }
}
