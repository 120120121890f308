package dev.gamagent.util;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The one way the project replaces a file so that a reader (or a crash) sees the old file or the new one, never a
 * torn one: the new content goes to a temporary file in the same directory, which is then moved over the target in
 * one step ({@code ATOMIC_MOVE}); where the file system cannot move atomically the move replaces the target as
 * {@code REPLACE_EXISTING} does. The temporary file is deleted when writing fails.
 */
public final class AtomicFiles {
    private AtomicFiles() { }

    /** Writes the content a {@link Content} gives into a temporary sibling of {@code file}, then moves it over {@code file}. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Replaces {@code file} with {@code bytes}. */
    public static void write(Path file, byte[] bytes) throws IOException {
        write(file, out -> out.write(bytes));
    }

    /** Replaces {@code file} with {@code text} in UTF-8. */
    public static void writeString(Path file, String text) throws IOException {
        write(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Replaces {@code file} with what {@code content} writes (buffered); the target is untouched if it throws. */
    public static void write(Path file, Content content) throws IOException {
        // a new name per write (two writers of one file do not share a temporary), created with the usual permissions
        Path tmp = file.resolveSibling("." + file.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
        try {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), 1 << 16)) {
                content.writeTo(out);
            }
            move(tmp, file);
        } catch (IOException | RuntimeException | Error e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** Moves {@code from} over {@code to} in one step where the file system can, else replacing it. */
    public static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
