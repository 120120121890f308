package dev.gamagent.local;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.RunContext;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendFactory;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import dev.gamagent.config.Config;
import dev.gamagent.util.Concurrency;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ExecutorService;

import static org.assertj.core.api.Assertions.assertThat;

/** The local model over the real engines (PP-OCR and classical vision) on generated benchmark items. */
class LocalBackendRealPerceptionTest {
    static LocalBackend backend;

    @BeforeAll
    static void open() { backend = RealEngines.backend(); }

    @AfterAll
    static void close() { backend.close(); }

    @Test
    void oneItemOfEveryFamilyIsAnsweredCorrectlyWithTheBaselinePrompt() {
        List<BenchItem> items = new BenchmarkGenerator(42).generate(6, List.of(Family.values()));
        for (BenchItem it : items) {
            var q = it.toQuestion();
            String prompt = q.render() + "\nAnswer with the option's letter from the given choices directly.";
            String reply = backend.chat(ChatRequest.of(List.of(ChatMessage.user(prompt, q.images())))).text();
            assertThat(reply).as(it.category() + ": " + it.question() + " " + it.options()).isEqualTo(it.answer());
        }
    }

    @Test
    void theBackendFactoryBuildsTheLocalModel() {
        try (Backend b = BackendFactory.create(BackendSpec.local(), Config.defaults())) {
            assertThat(b.name()).isEqualTo(LocalBackend.NAME);
            assertThat(b.capabilities().maxTopLogprobs()).isEqualTo(20);
        }
    }

    @Test
    void gamRunsEndToEndOnTheLocalModel() throws Exception {
        BenchItem it = new BenchmarkGenerator(42).generate(2, Family.COLOR);
        ExecutorService ex = Concurrency.newIoExecutor("local-gam");
        try {
            Answer a = MethodRegistry.create("gam").run(it.toQuestion(), new RunContext(backend, null, Config.defaults(), ex, null));
            assertThat(a.option()).isEqualTo(it.answer());
            assertThat(a.tokens().estimated()).isFalse();
            assertThat(backend.perception().cache().hits()).isGreaterThan(0);
        } finally {
            ex.shutdownNow();
        }
    }
}
