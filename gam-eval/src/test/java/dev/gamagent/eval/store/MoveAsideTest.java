package dev.gamagent.eval.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --force-new} moves the earlier run aside whole: the report's debates sidecar ({@code report-debates/}) goes with
 * its {@code report.html}, so the new report never pages through the old run's debates.
 */
class MoveAsideTest {
    @TempDir Path dir;

    @Test void theReportsDebatesFolderMovesWithTheReport() throws Exception {
        Files.writeString(dir.resolve("results.jsonl"), "{}\n");
        Files.writeString(dir.resolve("report.html"), "<html></html>");
        Files.createDirectories(dir.resolve("report-debates"));
        Files.writeString(dir.resolve("report-debates/part-0000.js"), "old debates");
        Files.writeString(dir.resolve("notes.txt"), "the user's own file");
        Path aside = ResultStore.moveAside(dir);
        assertThat(aside).isNotNull();
        assertThat(aside.resolve("report.html")).exists();
        assertThat(aside.resolve("report-debates/part-0000.js")).hasContent("old debates");
        assertThat(dir.resolve("report-debates")).doesNotExist();
        assertThat(dir.resolve("notes.txt")).as("files that are not the run's stay").exists();
    }
}
