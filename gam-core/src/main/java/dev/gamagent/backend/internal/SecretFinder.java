package dev.gamagent.backend.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where in a text the keys of a {@link SecretScrubber} are, in any form. The text is read the way its reader would
 * ({@link DecodedText}: escapes decoded, white space skipped), then every run of hex digits (upper or lower case, with
 * or without {@code :}, {@code -}, {@code ,} or space between bytes, {@code 0x} prefixes) and of base64 digits (either
 * alphabet, at every alignment, wrapped at any width) in it is decoded too; each reading is searched for every run of a
 * key long enough to matter ({@link #fragmentLength}), found by its first two characters and grown along the key as
 * far as the text agrees.
 */
final class SecretFinder {
    /**
     * What an attacker must still guess for a key to stay safe: 64 bits. Every guess of an API key is a request to its
     * provider; at a million requests a second (far beyond any rate limit) 2^64 guesses take 584,000 years.
     */
    static final double HIDDEN_BITS = 64;
    /**
     * A run of a key holding this many bits of it is the key's and not chance's, whatever it leaves hidden: 64 bits, one
     * chance in 2^64 per place a random text could hold it (a terabyte of text holds 2^40 places).
     */
    static final double DISTINCT_BITS = 64;
    /** Shorter runs are never redacted on their own: seven characters make ordinary words ("example", "Answer:"). */
    static final int MIN_FRAGMENT = 8;
    /**
     * The public part a key starts with ({@code sk-}, {@code sk-proj-}, {@code sk-ant-api03-}, {@code gsk_}, {@code hf_},
     * {@code AIza}): the same in every key of its kind, so it holds no bits and a run of it is no part of the secret.
     */
    private static final Pattern FORMAT_PREFIX = Pattern.compile("^(?:AIza|[a-z][a-z0-9]{1,9}[-_](?:[a-z][a-z0-9]{1,9}[-_]){0,2})");
    /** What the base64 and hex decodings are searched for: at least this many bytes of a key, lest random data hold them. */
    private static final int MIN_ENCODED_BYTES = 8;
    /** Decoded characters read at once, and how many of them are read again with the next piece (see {@link #ranges}). */
    private static final int CHUNK = 1 << 16, OVERLAP = 4096;
    /** What {@link #hexOrSeparator} says of what may stand between hex bytes ({@code :-,.;_}). */
    private static final int SEPARATOR = -2;
    /** The shortest key looked for ({@code SecretScrubber} keeps no shorter one either). */
    static final int MIN_LENGTH = 4;

    /** The runs of the keys that count, as characters (searched in the decoded text). */
    private final Runs chars;
    /** The same as UTF-8 bytes (searched in decoded hex and base64), for keys whose runs are long enough; null if none is. */
    private final Runs bytes;
    /** No text shorter than this can hold a run of a key that counts. */
    private final int shortest;

    /** @param secrets the keys, longest first */
    SecretFinder(List<String> secrets) {
        List<char[]> keys = new ArrayList<>(), keyBytes = new ArrayList<>();
        List<int[]> windows = new ArrayList<>(), byteWindows = new ArrayList<>();
        for (String secret : secrets) {
            // the text is read without white space, so the key is too (a key pasted with a line break in it)
            String key = secret.replaceAll("[\\s\\u00A0\\u2007\\u202F\\u200B-\\u200D\\u2060\\uFEFF]+", "");
            if (key.length() < MIN_LENGTH) continue;
            int[] w = windows(key);
            keys.add(key.toCharArray());
            windows.add(w);
            byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
            int[] bw = utf8.length == key.length() ? w : new int[] {0, 0, utf8.length};
            if (bw[2] >= MIN_ENCODED_BYTES) {
                char[] b = new char[utf8.length];
                for (int i = 0; i < utf8.length; i++) b[i] = (char) (utf8[i] & 0xFF);
                keyBytes.add(b);
                byteWindows.add(bw);
            }
        }
        this.chars = keys.isEmpty() ? null : new Runs(keys, windows);
        this.bytes = keyBytes.isEmpty() ? null : new Runs(keyBytes, byteWindows);
        this.shortest = chars == null ? Integer.MAX_VALUE : chars.shortest;
    }

    /** Whether it knows no key. */
    boolean isEmpty() { return chars == null; }

    /** No text shorter than this holds a run of a key that counts. */
    int shortest() { return shortest; }

    /**
     * The shortest run of a key's secret part (after its {@link #FORMAT_PREFIX}) that is redacted wherever it appears:
     * the fewer characters of (a) one that holds {@link #DISTINCT_BITS} of the key, so it cannot be there by chance,
     * and (b) one that leaves fewer than {@link #HIDDEN_BITS} unseen, so the rest could be guessed — but never fewer
     * than {@link #MIN_FRAGMENT}. For a 40-character random key (5.95 bits a character) that is 11 characters; for
     * a 12-character one, 8 (what 8 characters leave hidden, 24 bits, could be guessed). The bits a character holds
     * are those of the alphabet the secret part draws from (hex 16; else digits 10, each case 26, {@code -_} 2, other
     * symbols 30, other characters 2^16): an estimate from above, which only matters for (b) on short keys.
     * Returns the secret part's length or more when only the whole key counts.
     */
    static int fragmentLength(String key) {
        int secret = key.length() - publicPrefix(key);
        double bits = bitsPerCharacter(key.substring(key.length() - secret));
        int distinct = (int) Math.ceil(DISTINCT_BITS / bits);
        int guessable = (int) Math.floor(secret - HIDDEN_BITS / bits) + 1;
        return Math.max(MIN_FRAGMENT, Math.min(distinct, guessable));
    }

    /** The windows of {@code key} that count: {first start, last start, length}. */
    private static int[] windows(String key) {
        int prefix = publicPrefix(key), fragment = fragmentLength(key);
        return fragment >= key.length() - prefix ? new int[] {0, 0, key.length()} : new int[] {prefix, key.length() - fragment, fragment};
    }

    static int publicPrefix(String key) {
        Matcher m = FORMAT_PREFIX.matcher(key);
        return m.find() && m.end() < key.length() ? m.end() : 0;
    }

    private static double bitsPerCharacter(String s) {
        if (s.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f') || s.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'A' && c <= 'F')) {
            return 4;
        }
        boolean digit = false, lower = false, upper = false, dash = false, symbol = false, other = false;
        for (char c : s.toCharArray()) {
            if (c >= '0' && c <= '9') digit = true;
            else if (c >= 'a' && c <= 'z') lower = true;
            else if (c >= 'A' && c <= 'Z') upper = true;
            else if (c == '-' || c == '_') dash = true;
            else if (c < 128) symbol = true;
            else other = true;
        }
        int alphabet = (digit ? 10 : 0) + (lower ? 26 : 0) + (upper ? 26 : 0) + (dash ? 2 : 0) + (symbol ? 30 : 0) + (other ? 65_536 : 0);
        return Math.log(Math.max(2, alphabet)) / Math.log(2);
    }

    /**
     * Where in {@code text} a secret is, in any form: sorted, non-overlapping [start, end) ranges. A long text is read
     * in pieces of {@link #CHUNK} decoded characters that overlap by {@link #OVERLAP}, so memory stays small whatever
     * its length (a reply body may be 8 MB) and every form of a key, which is shorter than the overlap once white
     * space is gone, lies whole in one piece.
     */
    List<int[]> ranges(String text) {
        List<int[]> out = new ArrayList<>();
        if (chars == null || text.length() < shortest) return out;
        DecodedText d = new DecodedText(Math.min(text.length(), CHUNK) + 1);
        int from = 0;
        while (true) {
            int stop = d.decode(text, from);
            if (d.length >= shortest) search(d, text, out);
            if (stop >= text.length()) break;
            from = d.start[d.length - OVERLAP];
        }
        return out.size() > 1 ? merged(out) : out;
    }

    private void search(DecodedText d, String text, List<int[]> out) {
        Hits hits = new Hits();
        chars.find(d.chars, 0, d.length, hits);
        for (int i = 0; i < hits.size; i += 2) out.add(new int[] {d.start[hits.at[i]], d.end(text, hits.at[i + 1] - 1)});
        if (bytes != null) {
            hexRanges(d, text, out);
            base64Ranges(d, text, out);
        }
    }

    private static List<int[]> merged(List<int[]> rs) {
        rs.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(b[1], a[1]));
        List<int[]> out = new ArrayList<>();
        for (int[] r : rs) {
            int[] last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
            else out.add(new int[] {r[0], r[1]});
        }
        return out;
    }

    /**
     * Runs of hex digits in the decoded text (white space already gone; {@code :}, {@code -}, {@code ,}, {@code .},
     * {@code ;} or {@code _} between digits and {@code 0x} before them skipped), read as bytes from either of their two
     * first digits, searched for the keys' bytes. The digits that spell the key go.
     */
    private void hexRanges(DecodedText d, String text, List<int[]> out) {
        int minDigits = 2 * bytes.shortest;
        int[] pos = new int[Math.min(d.length, 1 << 16)];
        int n = 0;
        for (int i = 0; i <= d.length; i++) {
            char c = i < d.length ? d.chars[i] : 0;
            if (DecodedText.hex(c) >= 0) {
                if (c == '0' && i + 2 < d.length && (d.chars[i + 1] == 'x' || d.chars[i + 1] == 'X') && DecodedText.hex(d.chars[i + 2]) >= 0) {
                    i++;
                    continue;
                }
                if (n == pos.length) pos = Arrays.copyOf(pos, Math.min(d.length, 2 * n));
                pos[n++] = i;
                continue;
            }
            if (n > 0 && hexOrSeparator(c) == SEPARATOR && i + 1 < d.length && DecodedText.hex(d.chars[i + 1]) >= 0) continue;
            if (n >= minDigits) searchHex(d, text, pos, n, out);
            n = 0;
        }
    }

    private void searchHex(DecodedText d, String text, int[] pos, int n, List<int[]> out) {
        char[] decoded = new char[n / 2];
        Hits hits = new Hits();
        for (int phase = 0; phase < 2; phase++) {
            int m = 0;
            for (int k = phase; k + 1 < n; k += 2) decoded[m++] = (char) (DecodedText.hex(d.chars[pos[k]]) << 4 | DecodedText.hex(d.chars[pos[k + 1]]));
            hits.clear();
            bytes.find(decoded, 0, m, hits);
            for (int i = 0; i < hits.size; i += 2) {
                int first = pos[phase + 2 * hits.at[i]], last = pos[phase + 2 * (hits.at[i + 1] - 1) + 1];
                out.add(new int[] {d.start[first], d.end(text, last)});
            }
        }
    }

    /** A hex digit's value ({@link DecodedText#hex}), {@link #SEPARATOR} for what may stand between hex bytes ({@code :-,.;_}), or -1. */
    private static int hexOrSeparator(char c) {
        int h = DecodedText.hex(c);
        return h >= 0 ? h : ":-,.;_".indexOf(c) >= 0 ? SEPARATOR : -1;
    }

    /**
     * Runs of base64 digits in the decoded text (white space already gone, so wrapped lines join; {@code \/}, {@code %2F}
     * already '/'), read from each of their first four digits (so a key at any of the three byte alignments, after
     * anything, is read whole in one of them), searched for the keys' bytes. The digits that spell the key go, and
     * with them the rest of each base64 word they are in (up to white space), as before wrapping was read.
     */
    private void base64Ranges(DecodedText d, String text, List<int[]> out) {
        int minDigits = (4 * bytes.shortest + 2) / 3;
        char[] decoded = null;
        Hits hits = new Hits();
        int i = 0;
        while (i < d.length) {
            if (base64(d.chars[i]) < 0) {
                i++;
                continue;
            }
            int s = i;
            while (i < d.length && base64(d.chars[i]) >= 0) i++;
            if (i - s < minDigits) continue;
            if (decoded == null || decoded.length < i - s) decoded = new char[i - s];
            for (int phase = 0; phase < 4; phase++) {
                int m = decodeBase64(d.chars, s + phase, i, decoded);
                hits.clear();
                bytes.find(decoded, 0, m, hits);
                for (int h = 0; h < hits.size; h += 2) {
                    int a = hits.at[h], b = hits.at[h + 1] - 1;
                    // byte k of a group of three is spelled by its digits k and k + 1
                    int first = s + phase + 4 * (a / 3) + a % 3, last = s + phase + 4 * (b / 3) + b % 3 + 1;
                    int from = d.start[first], to = d.end(text, last);
                    while (from > 0 && base64Word(text.charAt(from - 1))) from--;
                    while (to < text.length() && (base64Word(text.charAt(to)) || text.charAt(to) == '=')) to++;
                    out.add(new int[] {from, to});
                }
            }
        }
    }

    /** A base64 digit of either alphabet, or the start of an escape inside a run ({@code \/}, {@code %2F}). */
    private static boolean base64Word(char c) { return base64(c) >= 0 || c == '\\' || c == '%'; }

    /** A base64 digit's value (either alphabet), or -1. */
    private static int base64(char c) {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+' || c == '-') return 62;
        if (c == '/' || c == '_') return 63;
        return -1;
    }

    /** Decodes the base64 digits {@code chars[from, to)} (a last group of 2 or 3 digits too) into {@code out}; returns how many bytes. */
    private static int decodeBase64(char[] chars, int from, int to, char[] out) {
        int m = 0, g = from;
        for (; g + 4 <= to; g += 4) {
            int v = base64(chars[g]) << 18 | base64(chars[g + 1]) << 12 | base64(chars[g + 2]) << 6 | base64(chars[g + 3]);
            out[m++] = (char) (v >> 16 & 0xFF);
            out[m++] = (char) (v >> 8 & 0xFF);
            out[m++] = (char) (v & 0xFF);
        }
        if (to - g >= 2) {
            int v = base64(chars[g]) << 18 | base64(chars[g + 1]) << 12 | (to - g == 3 ? base64(chars[g + 2]) << 6 : 0);
            out[m++] = (char) (v >> 16 & 0xFF);
            if (to - g == 3) out[m++] = (char) (v >> 8 & 0xFF);
        }
        return m;
    }

    /**
     * The runs of the keys that count: every window of {@link #fragmentLength} characters of a key's secret part (or the
     * whole key, when it is shorter than that), found by their first two characters (a bit set of the pairs rules out
     * almost every place of an ordinary text with one look) and then grown along the key as far as the text agrees, so
     * a hit covers all of the key the text holds.
     */
    private static final class Runs {
        private final char[][] keys;
        private final int[] lengths;
        /** A window's first two characters → {key, start, key, start, ...}: by their code when both are below 256, else in a map. */
        private final int[][] byPair = new int[1 << 16][];
        private final Map<Integer, int[]> byOtherPair = new HashMap<>();
        final int shortest;

        /** @param windows for each key: {first start, last start, length} */
        Runs(List<char[]> keys, List<int[]> windows) {
            this.keys = keys.toArray(char[][]::new);
            this.lengths = windows.stream().mapToInt(w -> w[2]).toArray();
            this.shortest = Arrays.stream(lengths).min().orElse(Integer.MAX_VALUE);
            Map<Integer, List<Integer>> at = new HashMap<>();
            for (int k = 0; k < this.keys.length; k++) {
                char[] key = this.keys[k];
                for (int j = windows.get(k)[0]; j <= windows.get(k)[1]; j++) {
                    List<Integer> l = at.computeIfAbsent(key[j] << 16 | key[j + 1], c -> new ArrayList<>());
                    l.add(k);
                    l.add(j);
                }
            }
            at.forEach((code, l) -> {
                int[] a = l.stream().mapToInt(Integer::intValue).toArray();
                if ((code & 0xFF00FF00) == 0) byPair[code >>> 8 | code & 0xFF] = a;
                else byOtherPair.put(code, a);
            });
        }

        /** Adds each hit in {@code d[from, to)} as a pair of indices [start, end). */
        void find(char[] d, int from, int to, Hits hits) {
            next:
            for (int i = from; i + 1 < to; i++) {
                char c0 = d[i], c1 = d[i + 1];
                int[] js = (c0 | c1) < 256 ? byPair[c0 << 8 | c1] : byOtherPair.isEmpty() ? null : byOtherPair.get(c0 << 16 | c1);
                if (js == null) continue;
                for (int p = 0; p < js.length; p += 2) {
                    char[] key = keys[js[p]];
                    int j = js[p + 1], length = lengths[js[p]];
                    if (i + length > to || !Arrays.equals(d, i, i + length, key, j, j + length)) continue;
                    int a = i, k = j;
                    while (a > from && k > 0 && d[a - 1] == key[k - 1]) {
                        a--;
                        k--;
                    }
                    int e = i + length, f = j + length;
                    while (e < to && f < key.length && d[e] == key[f]) {
                        e++;
                        f++;
                    }
                    hits.add(a, e);
                    i = e - 1;
                    continue next;
                }
            }
        }
    }

    /** Pairs of ints, grown as needed. */
    private static final class Hits {
        int[] at = new int[8];
        int size;

        void add(int a, int b) {
            if (size + 2 > at.length) at = Arrays.copyOf(at, 2 * at.length);
            at[size++] = a;
            at[size++] = b;
        }

        void clear() { size = 0; }
    }
}
