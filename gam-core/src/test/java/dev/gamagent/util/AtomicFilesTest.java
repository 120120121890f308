package dev.gamagent.util;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AtomicFilesTest {
    @TempDir Path dir;

    @Test void replacesTheFileAndLeavesNoTemporaryBehind() throws IOException {
        Path f = dir.resolve("summary.json");
        Files.writeString(f, "old");
        AtomicFiles.writeString(f, "new ü");
        assertThat(Files.readString(f, StandardCharsets.UTF_8)).isEqualTo("new ü");
        AtomicFiles.write(f, new byte[] {1, 2, 3});
        assertThat(Files.readAllBytes(f)).containsExactly(1, 2, 3);
        assertThat(names()).containsExactly("summary.json");
    }

    @Test void aWriterThatFailsLeavesTheOldFileWholeAndNoTemporary() throws IOException {
        Path f = dir.resolve("report.html");
        Files.writeString(f, "the old report");
        assertThatThrownBy(() -> AtomicFiles.write(f, out -> {
            out.write("half a new rep".getBytes(StandardCharsets.UTF_8));
            throw new IOException("disk full");
        })).isInstanceOf(IOException.class).hasMessage("disk full");
        assertThat(Files.readString(f)).isEqualTo("the old report");
        assertThat(names()).containsExactly("report.html");
    }

    @Test void streamsContentIntoANewFile() throws IOException {
        Path f = dir.resolve("results.jsonl");
        AtomicFiles.write(f, out -> { for (int i = 0; i < 3; i++) out.write(("line " + i + "\n").getBytes(StandardCharsets.UTF_8)); });
        assertThat(Files.readAllLines(f)).containsExactly("line 0", "line 1", "line 2");
    }

    @Test void movesOverAnExistingFile() throws IOException {
        Path from = dir.resolve("a.part"), to = dir.resolve("a");
        Files.writeString(from, "complete");
        Files.writeString(to, "stale");
        AtomicFiles.move(from, to);
        assertThat(Files.readString(to)).isEqualTo("complete");
        assertThat(from).doesNotExist();
    }

    @Test void aMissingDirectoryIsAnErrorNamingTheFile() {
        Path f = dir.resolve("no/such/dir/summary.json");
        assertThatThrownBy(() -> AtomicFiles.writeString(f, "x")).isInstanceOf(IOException.class).hasMessageContaining("summary.json");
    }

    private java.util.List<String> names() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
