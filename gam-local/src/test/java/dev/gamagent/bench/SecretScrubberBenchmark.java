package dev.gamagent.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.internal.SecretScrubber;
import dev.gamagent.util.Json;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * What scrubbing the process's keys costs on 1 MB of real traces (the {@code results.jsonl} of a {@code gam eval} run
 * with {@code trace.prompts}: prompts, replies, claims, numbers), with four keys shaped like real ones (OpenAI
 * project, Anthropic, Gemini, a 40-character random server key), none of them in the text: the whole megabyte as one
 * string (what the HTTP transport does to a body), and trace by trace as JSON trees (what the trace store and
 * {@code gam eval} do). Baseline: finding the four keys as they are with {@link String#indexOf}, the least any
 * search must cost. Run with {@code bench/scrub.sh}, which makes the traces.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SecretScrubberBenchmark {
    /** Where the traces are ({@code results.jsonl}); the first whole lines up to 1 MiB are used. */
    public static final String TRACES = "gam.bench.traces";

    private List<String> keys;
    private SecretScrubber scrubber;
    private String text;
    private List<JsonNode> trees;

    @Setup public void setup() throws IOException {
        Path file = Path.of(System.getProperty(TRACES, "target/scrub-bench/run/results.jsonl"));
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder();
        trees = new ArrayList<>();
        for (String l : lines) {
            if (sb.length() + l.length() + 1 > (1 << 20)) break;
            sb.append(l).append('\n');
            trees.add(Json.MAPPER.readTree(l));
        }
        if (sb.length() < (1 << 20) - 100_000) throw new IllegalStateException(file + " holds " + sb.length() + " characters, less than 1 MB");
        text = sb.toString();
        Random r = new Random(38);
        keys = List.of("sk-proj-" + random(r, 156, "-_"), "sk-ant-api03-" + random(r, 95, "-_"), "AIza" + random(r, 35, "-_"), random(r, 40, ""));
        scrubber = new SecretScrubber(keys);
        if (!scrubber.scrub(text).equals(text)) throw new IllegalStateException("the traces hold a key");
    }

    private static String random(Random r, int n, String extra) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" + extra;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        return sb.toString();
    }

    @Benchmark public String oneString() { return scrubber.scrub(text); }

    @Benchmark public void traceTrees(Blackhole bh) {
        for (JsonNode t : trees) bh.consume(scrubber.scrub(t));
    }

    @Benchmark public int indexOfBaseline() {
        int found = 0;
        for (String k : keys) found += text.indexOf(k);
        return found;
    }
}
