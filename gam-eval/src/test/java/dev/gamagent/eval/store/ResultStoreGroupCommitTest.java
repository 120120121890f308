package dev.gamagent.eval.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** Records stored from many threads at once (grouped into shared transactions) are all committed when put returns. */
class ResultStoreGroupCommitTest {
    @TempDir Path dir;

    private static ResultRecord record(int q) {
        return Records.record("q" + q, "single").group("q" + q).category("c").l2Category("-").outcome("correct")
                .predicted("A").groundTruth("A").answer("red").option("A").confidence(0.9).uncertainty(0.1)
                .promptTokens(10).completionTokens(1).calls(1).millis(5).rule("exact").backend("test").build();
    }

    private boolean stored(String id) throws Exception {
        try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("results.db").toAbsolutePath());
             var q = c.prepareStatement("SELECT 1 FROM results WHERE question_id = ?")) {
            q.setString(1, id);
            try (var rs = q.executeQuery()) { return rs.next(); }
        }
    }

    @Test void concurrentPutsAreEachCommittedBeforeTheyReturn() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (ResultStore store = new ResultStore(dir)) {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int base = t * 50;
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        store.put(record(base + i));
                        // what put stored is in the database file when it returns (another connection sees it)
                        if (i % 10 == 9) assertThat(stored("q" + (base + i))).isTrue();
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) f.get();
            assertThat(store.finishedPairs()).hasSize(400);
        } finally {
            pool.shutdownNow();
        }
        assertThat(Files.readAllLines(dir.resolve("results.jsonl"))).hasSize(400);
        assertThat(ResultStore.read(dir)).hasSize(400);
    }
}
