package dev.gamagent.eval.format;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An .xlsx workbook's shared strings in bounded memory: held as they are read until they fill {@link #MEMORY_CHARS}
 * characters, the rest written to a temporary file and read back by position when a cell names one. A workbook whose
 * string table is larger than the memory it is given is read, a little slower, instead of filling the heap.
 */
final class SharedStrings implements AutoCloseable {
    /** 32 M characters (64 MB of heap at most): far past any prediction file VLMEvalKit writes. */
    static final long MEMORY_CHARS = 32L << 20;

    private final long memoryChars;
    private final List<String> held = new ArrayList<>();
    private long heldChars;
    private Path spill;
    private RandomAccessFile file;
    private long[] offsets = new long[0];
    private int spilled;
    private long fileEnd;

    SharedStrings() { this(MEMORY_CHARS); }

    SharedStrings(long memoryChars) { this.memoryChars = memoryChars; }

    void add(String s) {
        if (spill == null && heldChars + s.length() <= memoryChars) {
            held.add(s);
            heldChars += s.length();
            return;
        }
        try {
            if (spill == null) {
                spill = Files.createTempFile("gam-xlsx-strings", ".txt");
                spill.toFile().deleteOnExit();
                file = new RandomAccessFile(spill.toFile(), "rw");
                offsets = new long[1024];
            }
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            if (spilled + 1 >= offsets.length) offsets = Arrays.copyOf(offsets, offsets.length * 2);
            file.seek(fileEnd);
            file.write(b);
            offsets[spilled] = fileEnd;
            fileEnd += b.length;
            offsets[++spilled] = fileEnd;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the workbook's shared strings in a temporary file: " + e.getMessage(), e);
        }
    }

    int size() { return held.size() + spilled; }

    /** How many strings are held in memory (the rest are in the temporary file). */
    int held() { return held.size(); }

    String get(int i) {
        if (i < held.size()) return held.get(i);
        int k = i - held.size();
        try {
            byte[] b = new byte[(int) (offsets[k + 1] - offsets[k])];
            file.seek(offsets[k]);
            file.readFully(b);
            return new String(b, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the workbook's shared strings back: " + e.getMessage(), e);
        }
    }

    @Override public void close() {
        try {
            if (file != null) file.close();
            if (spill != null) Files.deleteIfExists(spill);
        } catch (IOException ignored) {
            // a temporary file left behind is deleted on exit
        }
    }
}
