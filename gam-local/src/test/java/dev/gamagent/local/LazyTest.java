package dev.gamagent.local;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The one home of a value computed once on first use (Sight's looks, LocalPerception's second reader). */
class LazyTest {
    @Test
    void computesOnceOnFirstUseAndLoadedComputesNothing() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        Lazy<String> lazy = new Lazy<>(() -> "value " + runs.incrementAndGet());
        assertThat(lazy.loaded()).isNull();
        assertThat(runs.get()).isZero();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> gets = new ArrayList<>();
            for (int i = 0; i < 16; i++) gets.add(pool.submit(lazy::get));
            for (Future<String> f : gets) assertThat(f.get()).isEqualTo("value 1");
        } finally {
            pool.shutdownNow();
        }
        assertThat(runs.get()).isEqualTo(1);
        assertThat(lazy.loaded()).isEqualTo("value 1");
    }
}
