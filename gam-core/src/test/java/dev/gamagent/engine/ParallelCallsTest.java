package dev.gamagent.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParallelCallsTest {
    @Test void resultsComeBackInJobOrderWhateverOrderTheyFinishIn() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            java.util.concurrent.CountDownLatch lastDone = new java.util.concurrent.CountDownLatch(1);
            List<Callable<String>> jobs = new ArrayList<>();
            jobs.add(() -> { lastDone.await(); return "first"; }); // finishes only after the last one
            jobs.add(() -> "second");
            jobs.add(() -> { lastDone.countDown(); return "third"; });
            assertThat(ParallelCalls.all(pool, jobs, "interrupted", ParallelCalls::rethrow)).containsExactly("first", "second", "third");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test void theCallerRunsJobsNoPoolThreadStarted() {
        List<Runnable> queued = new ArrayList<>();
        Executor saturated = queued::add; // a pool busy with other work: it never starts these jobs
        List<Callable<Integer>> jobs = List.of(() -> 1, () -> 2);
        assertThat(ParallelCalls.all(saturated, jobs, "interrupted", ParallelCalls::rethrow)).containsExactly(1, 2);
        assertThat(queued).hasSize(2);
    }

    @Test void aFailedJobIsReportedThroughTheCallersWords() {
        Executor inline = Runnable::run;
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        List<Callable<Integer>> jobs = List.of(() -> 1, () -> { throw boom; });
        assertThatThrownBy(() -> ParallelCalls.all(inline, jobs, "interrupted", ParallelCalls::rethrow)).isSameAs(boom);
        assertThatThrownBy(() -> ParallelCalls.all(inline, jobs, "interrupted", c -> new IllegalStateException("job failed: " + c, c)))
                .isInstanceOf(IllegalStateException.class).hasMessage("job failed: " + boom).hasCause(boom);
        List<Callable<Integer>> checked = List.of(() -> { throw new java.io.IOException("io"); });
        assertThatThrownBy(() -> ParallelCalls.all(inline, checked, "interrupted", ParallelCalls::rethrow))
                .isInstanceOf(IllegalStateException.class).hasCauseInstanceOf(java.io.IOException.class);
    }
}
