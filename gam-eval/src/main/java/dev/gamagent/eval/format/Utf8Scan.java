package dev.gamagent.eval.format;

import java.util.ArrayDeque;
import java.util.Locale;

/**
 * Checks a byte stream for UTF-8 as it passes, a chunk at a time, and remembers the first bad sequence of each
 * line (its offset, first byte and line), so the loader can skip the row that holds it and name the place an
 * editor or {@code xxd} finds, instead of failing the whole file with "Input length = 1". Lines are counted
 * here too: every {@code \n} ends one.
 */
public final class Utf8Scan {
    public static final String FIX = "save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)";

    /** Bytes at {@code offset} (on 1-based {@code line}) that are not UTF-8; {@code first} is the sequence's first byte. */
    public record BadByte(long offset, byte first, long line) {
        public String describe() {
            return String.format(Locale.ROOT, "byte 0x%02X at offset %d (line %d) is not valid UTF-8", first & 0xFF, offset, line);
        }
    }

    private final ArrayDeque<BadByte> bad = new ArrayDeque<>();
    private long line = 1;
    private long lastBadLine = -1;
    private int need;          // continuation bytes still expected
    private int low = 0x80, high = 0xBF; // the range the next continuation byte must fall in
    private long leadOffset;
    private byte lead;
    private long leadLine;
    private long nul = -1;
    private long lines;
    /** Bad places kept until their rows are read (a latin-1 file has one on almost every line). */
    private static final int MAX_KEPT = 100_000;

    /** The 1-based line the next byte is on. */
    long line() { return line; }

    /** Offset of the first NUL byte seen, or -1. */
    public long firstNul() { return nul; }
public 
    void feed(byte[] b, int from, int to, long base) {
        for (int i = from; i < to; i++) {
            int c = b[i];
            if (need == 0) {
                if (c >= 0) {
                    if (c == '\n') line++;
                    else if (c == 0 && nul < 0) nul = base + i;
                    continue;
                }
                start(c & 0xFF, base + i, b[i]);
                continue;
            }
            int u = c & 0xFF;
            if (u >= low && u <= high) {
                need--;
                low = 0x80;
                high = 0xBF;
                continue;
            }
            // the sequence started at `lead` is cut short: that is the bad place; this byte starts anew
            mark(leadOffset, lead, leadLine);
            need = 0;
            i--;
        }
    }

    private void start(int u, long offset, byte first) {
        leadOffset = offset;
        lead = first;
        leadLine = line;
        if (u >= 0xC2 && u <= 0xDF) { need = 1; return; }
        if (u == 0xE0) { need = 2; low = 0xA0; return; }
        if (u >= 0xE1 && u <= 0xEC || u == 0xEE || u == 0xEF) { need = 2; return; }
        if (u == 0xED) { need = 2; high = 0x9F; return; }
        if (u == 0xF0) { need = 3; low = 0x90; return; }
        if (u >= 0xF1 && u <= 0xF3) { need = 3; return; }
        if (u == 0xF4) { need = 3; high = 0x8F; return; }
        mark(offset, first, line);
    }

    /** The stream ended: a sequence still open is bad. */
    public void end() {
        if (need > 0) mark(leadOffset, lead, leadLine);
        need = 0;
    }

    private void mark(long offset, byte first, long atLine) {
        low = 0x80;
        high = 0xBF;
        if (atLine == lastBadLine) return;
        lastBadLine = atLine;
        lines++;
        if (bad.size() < MAX_KEPT) bad.add(new BadByte(offset, first, atLine));
    }

    /** How many lines held a bad sequence in all. */
    public long badLines() { return lines; }

    /** The first bad sequence at an offset in [from, to), or null; everything before {@code to} is forgotten. */
    public BadByte firstIn(long from, long to) {
        BadByte found = null;
        while (!bad.isEmpty() && bad.peekFirst().offset() < to) {
            BadByte b = bad.pollFirst();
            if (found == null && b.offset() >= from) found = b;
        }
        return found;
    }

    /** The first bad sequence seen and not yet taken by {@link #firstIn}, or null. */
    public BadByte first() { return bad.peekFirst(); }

    /** How many lines held a bad sequence and were not yet taken. */
    int pending() { return bad.size(); }
}
