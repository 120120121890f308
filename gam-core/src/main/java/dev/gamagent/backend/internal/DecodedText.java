package dev.gamagent.backend.internal;

import java.util.Map;

/**
 * A text as its readers would see it: each escape decoded to its character (JSON {@code \/}, {@code \u002f},
 * {@code \x2f}, with any number of backslashes; HTML {@code &#x2F;}, {@code &#47;}, {@code &sol;}, after any number of
 * {@code amp;}; URL {@code %2F}, {@code %252F}, UTF-8 sequences), white space (spaces, tabs, line breaks, no-break and
 * zero-width spaces, and their escapes such as {@code \n}) left out, each character remembering where in the text it
 * came from.
 */
final class DecodedText {
    private static final Map<String, Character> HTML_NAMES = Map.ofEntries(Map.entry("amp", '&'), Map.entry("lt", '<'),
            Map.entry("gt", '>'), Map.entry("quot", '"'), Map.entry("apos", '\''), Map.entry("sol", '/'), Map.entry("equals", '='),
            Map.entry("plus", '+'), Map.entry("colon", ':'), Map.entry("nbsp", ' '), Map.entry("Tab", '\t'), Map.entry("NewLine", '\n'));

    final char[] chars;
    /** Where in the text each character's escape (or the character itself) starts. */
    final int[] start;
    int length;

    DecodedText(int capacity) {
        chars = new char[capacity];
        start = new int[capacity];
    }

    /**
     * Decodes {@code s} from {@code from} (the start of a character or an escape) until this is full or the text
     * ends; returns where it stopped.
     */
    int decode(String s, int from) {
        length = 0;
        int n = s.length(), i = from;
        while (i < n && length + 2 <= chars.length) {
            char c = s.charAt(i);
            if (c > ' ' && c < 0x7F && c != '\\' && c != '&' && c != '%') { // most of any text: itself
                chars[length] = c;
                start[length++] = i++;
                continue;
            }
            long u = unit(s, i);
            int decoded = (int) u, next = (int) (u >>> 32);
            if (!space(decoded)) {
                if (decoded > 0xFFFF) {
                    for (char half : Character.toChars(decoded)) add(half, i);
                } else {
                    add((char) decoded, i);
                }
            }
            i = next;
        }
        return i;
    }

    /** Where the text of character {@code k} ends. */
    int end(String s, int k) { return (int) (unit(s, start[k]) >>> 32); }

    /** The character or escape at {@code i}: its end in the high half, the code point it stands for in the low. */
    private static long unit(String s, int i) {
        int n = s.length(), next = i + 1, decoded = s.charAt(i);
        if (decoded == '\\') {
            int q = i;
            while (q < n && s.charAt(q) == '\\') q++;
            next = q; // backslashes before an ordinary letter: one backslash, as JSON reads "\\\\"
            if (q < n) {
                char x = s.charAt(q);
                int h;
                if (x == 'u' && (h = hexValue(s, q + 1, 4)) >= 0) {
                    decoded = h;
                    next = q + 5;
                } else if (x == 'x' && (h = hexValue(s, q + 1, 2)) >= 0) {
                    decoded = h;
                    next = q + 3;
                } else if (x == 'n' || x == 'r' || x == 't' || x == 'f') {
                    decoded = ' ';
                    next = q + 1;
                } else if (!Character.isLetterOrDigit(x)) {
                    decoded = x;
                    next = q + 1;
                }
            }
        } else if (decoded == '&' || decoded == '%') {
            int[] e = decoded == '&' ? entity(s, i) : percent(s, i);
            if (e != null) {
                decoded = e[0];
                next = e[1];
            }
        }
        return (long) next << 32 | decoded;
    }

    private void add(char c, int from) {
        chars[length] = c;
        start[length++] = from;
    }

    static boolean space(int c) {
        return Character.isWhitespace(c) || c == '\u00A0' || c == '\u2007' || c == '\u202F' || c >= '\u200B' && c <= '\u200D'
                || c == '\u2060' || c == '\uFEFF';
    }

    /** The value of {@code digits} hex digits at {@code at}, or -1. */
    private static int hexValue(String s, int at, int digits) {
        if (at + digits > s.length()) return -1;
        int v = 0;
        for (int k = 0; k < digits; k++) {
            int h = hex(s.charAt(at + k));
            if (h < 0) return -1;
            v = v << 4 | h;
        }
        return v;
    }

    /** An HTML character reference at {@code at} (after any number of {@code amp;}): {code point, end}, or null. */
    private static int[] entity(String s, int at) {
        int q = at + 1, n = s.length();
        boolean amp = false;
        while (s.startsWith("amp;", q)) {
            q += 4;
            amp = true;
        }
        if (q < n && s.charAt(q) == '#') {
            boolean hexForm = q + 1 < n && (s.charAt(q + 1) == 'x' || s.charAt(q + 1) == 'X');
            int p = q + (hexForm ? 2 : 1);
            long v = 0;
            int digits = 0;
            while (p < n && digits < 12) {
                int h = hexForm ? hex(s.charAt(p)) : Character.digit(s.charAt(p), 10);
                if (h < 0) break;
                v = v * (hexForm ? 16 : 10) + h;
                digits++;
                p++;
            }
            if (digits > 0 && p < n && s.charAt(p) == ';' && v <= Character.MAX_CODE_POINT) return new int[] {(int) v, p + 1};
        } else {
            int p = q;
            while (p < n && p - q < 8 && Character.isLetter(s.charAt(p))) p++;
            Character named = p < n && s.charAt(p) == ';' ? HTML_NAMES.get(s.substring(q, p)) : null;
            if (named != null) return new int[] {named, p + 1};
        }
        return amp ? new int[] {'&', at + 5} : null;
    }

    /** A URL-encoded character at {@code at} ({@code %2F}, {@code %252F}; a UTF-8 sequence of them): {code point, end}, or null. */
    private static int[] percent(String s, int at) {
        int[] first = percentByte(s, at);
        if (first == null) return null;
        int lead = first[0];
        int more = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
        if (lead < 0x80 || more == 0) return first;
        int cp = lead & (0x3F >> more), end = first[1];
        for (int k = 0; k < more; k++) {
            int[] b = percentByte(s, end);
            if (b == null || (b[0] & 0xC0) != 0x80) return first;
            cp = cp << 6 | b[0] & 0x3F;
            end = b[1];
        }
        return new int[] {cp, end};
    }

    private static int[] percentByte(String s, int at) {
        if (at >= s.length() || s.charAt(at) != '%') return null;
        int q = at + 1;
        while (s.startsWith("25", q) && hexValue(s, q + 2, 2) >= 0) q += 2;
        int v = hexValue(s, q, 2);
        return v < 0 ? null : new int[] {v, q + 2};
    }

    /** A hex digit's value (upper or lower case), or -1. */
    static int hex(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }
}
