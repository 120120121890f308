package dev.gamagent.eval.load;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A benchmark's bytes: a file read in chunks (never whole, never memory-mapped, so resident memory does not
 * grow with the file) or a small array (the bundled demo). The index pass reads it once from start to end
 * ({@link #stream}, {@link #sequential}), hashing it on the way; a question reads its own row later by position
 * ({@link #read}), after checking that the file has not changed since it was indexed.
 */
abstract class DataBytes {
    /** Bytes read per step of the index pass. */
    static final int CHUNK = 1 << 20;

    /** The name used in messages (the file's path, or the in-memory text's name). */
    abstract String name();

    abstract long size();

    /** {@code length} bytes from {@code position} (fewer only at the end of the source). */
    abstract byte[] read(long position, int length);

    /** The bytes from the start, unhashed. */
    abstract InputStream open() throws IOException;

    private java.util.function.LongConsumer progress = n -> { };

    /** Told the bytes read so far as the source is read from the start. */
    DataBytes onProgress(java.util.function.LongConsumer p) {
        this.progress = p;
        return this;
    }

    /** Remembers what the source is now (size, time), so later reads can tell that it changed. */
    void remember() { }

    /** Receives the bytes in order as they are read; the array is reused after the call returns. */
    interface ChunkSink {
        void chunk(byte[] bytes, int from, int to, long offset);
    }

    /** Reads everything from the start through {@code sink}; returns the SHA-256 of the whole. */
    String stream(ChunkSink sink) {
        try (Sequential in = sequential(sink)) {
            byte[] buf = new byte[CHUNK];
            while (in.readFully(buf) > 0) { /* the sink sees every byte */ }
            return in.sha256();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read benchmark file " + name() + ": " + e.getMessage(), e);
        }
    }

    /** A stream from the start that hashes what is read and shows it to {@code observer} (may be null). */
    Sequential sequential(ChunkSink observer) throws IOException {
        remember();
        return new Sequential(open(), observer);
    }

    /** An input stream over the whole source that hashes what passes and shows it to an observer. */
    final class Sequential extends InputStream {
        private final InputStream in;
        private final ChunkSink observer;
        private final MessageDigest md = newDigest();
        private long offset;

        private Sequential(InputStream in, ChunkSink observer) {
            this.in = in;
            this.observer = observer;
        }

        @Override public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n <= 0) return n;
            md.update(b, off, n);
            if (observer != null) observer.chunk(b, off, off + n, offset);
            offset += n;
            progress.accept(offset);
            return n;
        }

        /** Fills {@code b} as far as the source goes; 0 at the end. */
        int readFully(byte[] b) throws IOException {
            int got = 0;
            while (got < b.length) {
                int n = read(b, got, b.length - got);
                if (n < 0) break;
                got += n;
            }
            return got;
        }

        /** Bytes read so far. */
        long offset() { return offset; }

        /** The hash of everything read; the source must have been read to its end, and not have changed meanwhile. */
        String sha256() throws IOException {
            while (read(new byte[8192], 0, 8192) >= 0) { /* read what is left */ }
            if (offset != size()) {
                throw new IllegalStateException("benchmark file " + name() + " changed while it was being read (" + offset + " bytes read, "
                        + size() + " expected); read it again");
            }
            return HexFormat.of().formatHex(md.digest());
        }

        @Override public void close() throws IOException { in.close(); }
    }

    static DataBytes of(Path file) { return new FileBytes(file); }

    static DataBytes of(String name, byte[] bytes) { return new ArrayBytes(name, bytes); }

    static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java runtime has no SHA-256", e);
        }
    }

    private static final class FileBytes extends DataBytes {
        private final Path file;
        private long size = -1;
        private FileTime modified;

        FileBytes(Path file) { this.file = file; }

        @Override String name() { return file.toString(); }

        @Override long size() {
            if (size < 0) {
                try {
                    size = Files.size(file);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read benchmark file " + file + ": " + e.getMessage(), e);
                }
            }
            return size;
        }

        @Override void remember() {
            try {
                size = Files.size(file);
                modified = Files.getLastModifiedTime(file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read benchmark file " + file + ": " + e.getMessage(), e);
            }
        }

        @Override InputStream open() throws IOException {
            return Channels.newInputStream(FileChannel.open(file, StandardOpenOption.READ));
        }

        /** One channel for every question's reads (positional reads may run at once), opened at the first. */
        private volatile FileChannel channel;

        private FileChannel channel() throws IOException {
            FileChannel ch = channel;
            if (ch == null) {
                synchronized (this) {
                    if (channel == null) channel = FileChannel.open(file, StandardOpenOption.READ);
                    ch = channel;
                }
            }
            return ch;
        }

        @Override byte[] read(long position, int length) {
            try {
                FileChannel ch = channel();
                if (modified != null && (ch.size() != size || !Files.getLastModifiedTime(file).equals(modified))) {
                    throw new IllegalStateException("benchmark file " + file + " changed after it was indexed (its size or time is not "
                            + "what it was); rerun the command to index it again");
                }
                ByteBuffer buf = ByteBuffer.allocate((int) Math.max(0, Math.min(length, ch.size() - position)));
                long at = position;
                while (buf.hasRemaining()) {
                    int n = ch.read(buf, at);
                    if (n < 0) break;
                    at += n;
                }
                return buf.position() == buf.capacity() ? buf.array() : Arrays.copyOf(buf.array(), buf.position());
            } catch (java.nio.channels.ClosedByInterruptException e) {
                channel = null; // an interrupted reader closed the shared channel: the next read opens it again
                throw new UncheckedIOException("interrupted while reading benchmark file " + file, e);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read benchmark file " + file + ": " + e.getMessage(), e);
            }
        }
    }

    private static final class ArrayBytes extends DataBytes {
        private final String name;
        private final byte[] bytes;

        ArrayBytes(String name, byte[] bytes) {
            this.name = name;
            this.bytes = bytes;
        }

        @Override String name() { return name; }

        @Override long size() { return bytes.length; }

        @Override InputStream open() { return new ByteArrayInputStream(bytes); }

        @Override byte[] read(long position, int length) {
            int from = (int) Math.min(position, bytes.length);
            return Arrays.copyOfRange(bytes, from, (int) Math.min(bytes.length, (long) from + length));
        }
    }
}
