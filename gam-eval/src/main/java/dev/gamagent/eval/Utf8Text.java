package dev.gamagent.eval;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A benchmark file's bytes decoded as UTF-8, with every byte sequence that is not UTF-8 replaced by
 * U+FFFD and remembered (byte offset, the char index of its replacement), so the loader can name the
 * row, line and offset of the damage instead of failing the whole file with "Input length = 1".
 */
record Utf8Text(String text, List<BadBytes> bad) {
    /** Bytes at {@code offset} that are not UTF-8, replaced at {@code charIndex} of the text. */
    record BadBytes(long offset, int charIndex, byte first) {
        /** "byte 0xE9 at offset 1234 (line 5)": where an editor or {@code xxd} finds it. */
        String describe(String text) {
            return String.format(Locale.ROOT, "byte 0x%02X at offset %d (line %d) is not valid UTF-8", first & 0xFF, offset,
                    lineOf(text, charIndex));
        }
    }

    static final String FIX = "save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)";

    static Utf8Text decode(byte[] bytes) {
        CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(Math.max(16, bytes.length));
        List<BadBytes> bad = new ArrayList<>();
        while (true) {
            CoderResult r = dec.decode(in, out, true);
            if (r.isUnderflow()) break;
            if (r.isOverflow()) {
                out = grow(out);
                continue;
            }
            if (out.remaining() < 1) out = grow(out);
            bad.add(new BadBytes(in.position(), out.position(), bytes[in.position()]));
            out.put('\uFFFD');
            in.position(in.position() + r.length());
        }
        while (dec.flush(out).isOverflow()) out = grow(out);
        out.flip();
        // a byte-order mark is not part of the first header name
        String text = out.length() > 0 && out.charAt(0) == '\uFEFF' ? out.subSequence(1, out.length()).toString() : out.toString();
        if (out.length() > 0 && out.charAt(0) == '\uFEFF') {
            bad = bad.stream().map(b -> new BadBytes(b.offset(), b.charIndex() - 1, b.first())).toList();
        }
        return new Utf8Text(text, List.copyOf(bad));
    }

    /** The first bad bytes with a char index in [from, to), or null. */
    BadBytes firstIn(int from, int to) {
        for (BadBytes b : bad) if (b.charIndex() >= from && b.charIndex() < to) return b;
        return null;
    }

    /** 1-based line of a char index. */
    static int lineOf(String text, int charIndex) {
        int line = 1;
        for (int i = 0; i < Math.min(charIndex, text.length()); i++) if (text.charAt(i) == '\n') line++;
        return line;
    }

    private static CharBuffer grow(CharBuffer b) {
        CharBuffer bigger = CharBuffer.allocate(b.capacity() * 2 + 16);
        b.flip();
        bigger.put(b);
        return bigger;
    }
}
