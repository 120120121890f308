package dev.gamagent.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Trace;
import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.cli.Main;
import dev.gamagent.config.Config;
import dev.gamagent.util.Concurrency;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;

import static org.assertj.core.api.Assertions.assertThat;

/** The papers' comparators end to end on the built-in model (real PP-OCR and classical vision), and through {@code gam eval}. */
class ComparatorsOnTheLocalModelTest {
    static LocalBackend backend;
    static ExecutorService executor;

    @BeforeAll
    static void open() {
        backend = LocalBackend.create(Config.defaults());
        executor = Concurrency.newIoExecutor("local-comparators");
    }

    @AfterAll
    static void close() {
        executor.shutdownNow();
        backend.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"dwi", "div-mad", "dream+dwi", "dream+div-mad"})
    void eachComparatorAnswersAColourQuestionOnTheBuiltInModel(String name) {
        BenchItem it = new BenchmarkGenerator(42).generate(2, Family.COLOR);
        Answer a = MethodRegistry.create(name).run(it.toQuestion(), new RunContext(backend, null, Config.defaults(), executor, null));
        assertThat(a.option()).as(name + " on " + it.question() + " " + it.options()).isEqualTo(it.answer());
        assertThat(a.tokens().estimated()).isFalse();
        assertThat(a.trace().method()).isEqualTo(name);
        if (name.equals("dwi")) {
            // the built-in model marks the region of the object it describes, so every later speaker sees marked images
            List<Trace.Round> rounds = a.trace().rounds();
            assertThat(rounds.get(0).extra().get("evidence").toString()).contains("region");
            assertThat(a.trace().extra()).containsEntry("decided_by", "judge");
        }
    }

    @Test
    void gamEvalScoresTheComparatorsWithTheBuiltInModel(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("bench.tsv"), out = dir.resolve("eval");
        main("bench", "generate", "--n", "1", "--seed", "5", "--out", data.toString());
        main("eval", "--data", data.toString(), "--methods", "dwi,div-mad", "--out", out.toString());
        List<String> methods = new ArrayList<>();
        for (String line : Files.readAllLines(out.resolve("results.jsonl"))) {
            JsonNode r = Json.MAPPER.readTree(line);
            methods.add(r.path("method").asText());
            assertThat(r.path("outcome").asText()).as(line).isIn("correct", "wrong");
            assertThat(r.path("trace").path("method").asText()).isEqualTo(r.path("method").asText());
        }
        assertThat(methods).containsExactlyInAnyOrder("dwi", "div-mad");
        assertThat(Files.readString(out.resolve("summary.json"))).contains("\"dwi\"", "\"div-mad\"");
    }

    private static synchronized void main(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.run(args)).as(buf.toString(StandardCharsets.UTF_8)).isZero();
        } finally {
            System.setOut(old);
        }
    }
}
