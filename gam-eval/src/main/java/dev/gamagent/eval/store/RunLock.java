package dev.gamagent.eval.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * One run writes to a directory at a time: an operating-system lock on {@code DIR/run.lock}, held while the
 * results are open. A second {@code gam eval} on the same {@code --out} is told which process is writing, instead of
 * failing later with SQLite's "database is locked". The lock goes with its process, so a killed run leaves nothing
 * to clean up (the file stays; its lock does not).
 */
public final class RunLock implements AutoCloseable {
    static final String FILE = "run.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private RunLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the directory's lock.
     *
     * @throws IllegalStateException "another run is writing to DIR" (naming its process) when another holds it
     */
    public static RunLock take(Path dir) {
        Path f = dir.resolve(FILE);
        FileChannel ch;
        try {
            Files.createDirectories(dir);
            ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open run directory " + dir + ": " + e.getMessage(), e);
        }
        FileLock l;
        try {
            l = ch.tryLock();
        } catch (OverlappingFileLockException sameProcess) {
            l = null;
        } catch (IOException e) {
            close(ch);
            throw new UncheckedIOException("cannot lock run directory " + dir + " (" + f.getFileName() + "): " + e.getMessage(), e);
        }
        if (l == null) {
            String holder = holder(f);
            close(ch);
            throw new IllegalStateException("another run is writing to " + dir + (holder.isEmpty() ? "" : " (" + holder + ")")
                    + "; wait for it to finish, or give this run another --out");
        }
        try {
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(("process " + ProcessHandle.current().pid() + ", started "
                    + DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault()).format(Instant.now()) + "\n")
                    .getBytes(StandardCharsets.UTF_8)));
            ch.force(false);
        } catch (IOException e) {
            // the lock holds without the note: the note only makes the other run's message friendlier
        }
        return new RunLock(ch, l);
    }

    private static String holder(Path f) {
        try {
            return Files.readString(f, StandardCharsets.UTF_8).strip();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static void close(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing held
        }
    }

    @Override public void close() {
        try {
            if (lock.isValid()) lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it too
        }
        close(channel);
    }
}
