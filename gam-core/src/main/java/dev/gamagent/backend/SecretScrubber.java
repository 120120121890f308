package dev.gamagent.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place that knows the secrets a process holds (API keys of the upstream servers, the key clients
 * send to {@code gam serve}, keys written into base URLs) and removes them from text before it is parsed,
 * stored or printed. A key is found in every form it takes on its way back, because the text is read the way
 * its reader would: escapes are decoded ({@code \/}, {@code \u002f}, {@code \x2f}, escaped twice; {@code &#x2F;},
 * {@code &#47;}, {@code &sol;}, {@code &amp;…}; {@code %2F}, {@code %252F}; mixed), white space is skipped (a key
 * split by spaces, tabs or line breaks), and runs of hex digits (upper or lower case, with or without {@code :},
 * {@code -}, {@code ,} or space between bytes, {@code 0x} prefixes) and of base64 digits (either alphabet, at every
 * alignment, wrapped at any width) are decoded; the key is then looked for in each. Not only the whole key: any run
 * of it long enough to matter (see {@link #fragmentLength}) goes too. The base64 word that spells a key goes whole;
 * in every other form, exactly the characters that spell it. A key split across generated tokens is removed from the
 * tokens too.
 */
public final class SecretScrubber {
    public static final String MARK = "[redacted]";
    public static final SecretScrubber NONE = new SecretScrubber(List.of());
    /** The variables the backends read keys from by default. */
    public static final List<String> WELL_KNOWN_KEY_VARIABLES =
            List.of("OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "ANTHROPIC_API_KEY", "OLLAMA_API_KEY");
    /** Query parameters that carry keys in URLs (Gemini's {@code ?key=}, others' {@code api_key}, tokens). */
    private static final Set<String> KEY_PARAMETERS = Set.of("key", "api_key", "apikey", "api-key", "token", "access_token", "auth");
    /** A value this short (a placeholder) would redact ordinary words. */
    private static final int MIN_LENGTH = 4;
    /** Values set where a server needs no key (vLLM's docs say {@code OPENAI_API_KEY=EMPTY}): scrubbing them would mangle text. */
    private static final Set<String> PLACEHOLDERS = Set.of("sk-no-key-required", "no-key-required", "placeholder", "changeme",
            "your-api-key", "your_api_key", "api-key", "api_key", "apikey", "not-needed", "notneeded", "unused");

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
    /** Characters of earlier output a {@link #scrubbing} stream keeps to find a key split across lines (a 160-character key's {@code \xNN} form fits). */
    private static final int STREAM_CONTEXT = 1024;
    /** Decoded characters read at once, and how many of them are read again with the next piece (see {@link #ranges}). */
    private static final int CHUNK = 1 << 16, OVERLAP = 4096;
    private static final Map<String, Character> HTML_NAMES = Map.ofEntries(Map.entry("amp", '&'), Map.entry("lt", '<'),
            Map.entry("gt", '>'), Map.entry("quot", '"'), Map.entry("apos", '\''), Map.entry("sol", '/'), Map.entry("equals", '='),
            Map.entry("plus", '+'), Map.entry("colon", ':'), Map.entry("nbsp", ' '), Map.entry("Tab", '\t'), Map.entry("NewLine", '\n'));
    /** A base64 digit's value (either alphabet), or -1. */
    private static final byte[] BASE64 = new byte[128];
    /** A hex digit's value, {@link #SEPARATOR} for what may stand between hex bytes ({@code :-,.;_}), or -1. */
    private static final byte[] HEX = new byte[128];
    private static final byte SEPARATOR = -2;

    static {
        Arrays.fill(HEX, (byte) -1);
        for (int i = 0; i < 16; i++) HEX["0123456789abcdef".charAt(i)] = HEX["0123456789ABCDEF".charAt(i)] = (byte) i;
        for (char c : ":-,.;_".toCharArray()) HEX[c] = SEPARATOR;
        Arrays.fill(BASE64, (byte) -1);
        String digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        for (int i = 0; i < digits.length(); i++) BASE64[digits.charAt(i)] = (byte) i;
        BASE64['+'] = BASE64['-'] = 62;
        BASE64['/'] = BASE64['_'] = 63;
    }

    private final List<String> secrets;
    /** The runs of the keys that count, as characters (searched in the decoded text). */
    private final Runs chars;
    /** The same as UTF-8 bytes (searched in decoded hex and base64), for keys whose runs are long enough; null if none is. */
    private final Runs bytes;
    /** No text shorter than this can hold a run of a key that counts. */
    private final int shortest;

    public SecretScrubber(Collection<String> secrets) {
        this.secrets = secrets.stream().filter(Objects::nonNull).map(String::strip).filter(SecretScrubber::couldBeASecret)
                .distinct().sorted((a, b) -> b.length() - a.length()).toList();
        List<char[]> keys = new ArrayList<>(), keyBytes = new ArrayList<>();
        List<int[]> windows = new ArrayList<>(), byteWindows = new ArrayList<>();
        for (String secret : this.secrets) {
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

    /**
     * Whether a value could be a key rather than a placeholder: at least 4 characters, not a known placeholder, and
     * not a short plain word ("EMPTY", "dummy", "test", "none"), which would be removed from every text holding it.
     */
    static boolean couldBeASecret(String s) {
        if (s.length() < MIN_LENGTH || PLACEHOLDERS.contains(s.toLowerCase(Locale.ROOT))) return false;
        return s.length() >= 8 || !s.chars().allMatch(Character::isLetter);
    }

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
     * The secrets of a process: the values of the variables the backends read keys from by default, of
     * {@code keyVariables} (e.g. {@code --api-key-env}, {@code --server-key-env}, a configured backend's
     * {@code api_key_env}), and keys written into {@code urls} (user info, {@code ?key=} and the like).
     */
    public static SecretScrubber of(Function<String, String> env, Collection<String> keyVariables, Collection<String> urls) {
        Set<String> vars = new LinkedHashSet<>(WELL_KNOWN_KEY_VARIABLES);
        if (keyVariables != null) keyVariables.stream().filter(Objects::nonNull).forEach(vars::add);
        List<String> found = new ArrayList<>();
        for (String v : vars) {
            String value = v.isBlank() ? null : env.apply(v.strip());
            if (value != null && !value.isBlank()) found.add(value);
        }
        if (urls != null) for (String u : urls) found.addAll(urlSecrets(u));
        return new SecretScrubber(found);
    }

    /** As {@link #of(Function, Collection, Collection)}, also taking every variable of {@code env} named {@code *_API_KEY}. */
    public static SecretScrubber of(Map<String, String> env, Collection<String> keyVariables, Collection<String> urls) {
        Set<String> vars = new LinkedHashSet<>();
        if (keyVariables != null) vars.addAll(keyVariables.stream().filter(Objects::nonNull).toList());
        for (String name : env.keySet()) if (name.toUpperCase(Locale.ROOT).endsWith("_API_KEY")) vars.add(name);
        return of(env::get, vars, urls);
    }

    /** Keys written into a URL: the password of its user info, and values of {@code key}, {@code api_key}, {@code token}, ... */
    public static List<String> urlSecrets(String url) {
        List<String> out = new ArrayList<>();
        if (url == null || url.isBlank()) return out;
        URI u;
        try {
            u = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            return out;
        }
        String info = u.getUserInfo();
        if (info != null && !info.isEmpty()) {
            int colon = info.indexOf(':');
            out.add(colon >= 0 ? info.substring(colon + 1) : info);
        }
        String query = u.getQuery();
        if (query != null) {
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && KEY_PARAMETERS.contains(pair.substring(0, eq).toLowerCase(Locale.ROOT))) out.add(pair.substring(eq + 1));
            }
        }
        return out;
    }

    /** This scrubber with {@code more} secrets. */
    public SecretScrubber with(Collection<String> more) {
        List<String> all = new ArrayList<>(secrets);
        all.addAll(more);
        return new SecretScrubber(all);
    }

    /** This scrubber with the other's secrets too. */
    public SecretScrubber with(SecretScrubber other) { return with(other.secrets); }

    public boolean isEmpty() { return secrets.isEmpty(); }

    private static volatile SecretScrubber process = NONE;

    /**
     * The scrubber of the running command ({@code gam}'s entry point sets it from the command line and the environment),
     * for outputs written far from it, e.g. {@code gam eval}'s records; {@link #NONE} in a library that set none.
     */
    public static SecretScrubber forProcess() { return process; }

    /** Sets {@link #forProcess()}; returns the one it replaces, to be put back when the command ends. */
    public static SecretScrubber useForProcess(SecretScrubber scrubber) {
        SecretScrubber before = process;
        process = scrubber == null ? NONE : scrubber;
        return before;
    }

    /** How many distinct secrets it knows (never which). */
    public int size() { return secrets.size(); }

    public String scrub(String text) {
        if (text == null || text.length() < shortest) return text;
        return redact(text, ranges(text), 0);
    }

    /** {@code text} from {@code from} on, each range replaced by {@link #MARK} (a range that starts before {@code from} is cut there). */
    private static String redact(String text, List<int[]> at, int from) {
        if (at.isEmpty()) return from == 0 ? text : text.substring(from);
        StringBuilder out = new StringBuilder(text.length() - from);
        int pos = from;
        for (int[] r : at) {
            if (r[1] <= from) continue;
            int s = Math.max(from, r[0]);
            out.append(text, pos, s).append(MARK);
            pos = r[1];
        }
        return out.append(text, pos, text.length()).toString();
    }

    /** A copy of {@code node} with every string (values and field names) scrubbed; {@code node} itself when it holds no secret. */
    public JsonNode scrub(JsonNode node) {
        if (node == null || chars == null) return node;
        return holdsSecret(node) ? copy(node) : node;
    }

    private boolean holdsSecret(String s) { return s.length() >= shortest && !ranges(s).isEmpty(); }

    private boolean holdsSecret(JsonNode n) {
        if (n.isTextual()) return holdsSecret(n.textValue());
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (holdsSecret(e.getKey()) || holdsSecret(e.getValue())) return true;
            }
            return false;
        }
        if (n.isArray()) {
            for (JsonNode c : n) if (holdsSecret(c)) return true;
        }
        return false;
    }

    private JsonNode copy(JsonNode n) {
        if (n.isTextual()) return JsonNodeFactory.instance.textNode(scrub(n.textValue()));
        if (n.isObject()) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            n.fields().forEachRemaining(e -> o.set(scrub(e.getKey()), copy(e.getValue())));
            return o;
        }
        if (n.isArray()) {
            ArrayNode a = JsonNodeFactory.instance.arrayNode();
            for (JsonNode c : n) a.add(copy(c));
            return a;
        }
        return n;
    }

    /** The choice with the key removed from its text, its tokens (also across token boundaries) and their alternatives. */
    public Choice scrub(Choice c) {
        if (chars == null) return c;
        List<TokenLogprob> tokens = new ArrayList<>(c.logprobs());
        blankAcrossTokens(tokens);
        List<TokenLogprob> out = new ArrayList<>(tokens.size());
        for (int i = 0; i < tokens.size(); i++) {
            TokenLogprob t = tokens.get(i);
            String was = c.logprobs().get(i).token();
            // the chosen token among its alternatives holds the same piece of the key: it is blanked the same way
            List<TokenLogprob.Alternative> top = t.top().stream().map(a -> new TokenLogprob.Alternative(
                    a.token().equals(was) && !was.equals(t.token()) ? t.token() : scrub(a.token()), a.logprob())).toList();
            out.add(new TokenLogprob(scrub(t.token()), t.logprob(), top));
        }
        return new Choice(scrub(c.text()), out, c.finishReason());
    }

    /**
     * A stream that writes to {@code target} what it is given with every secret scrubbed. Text is passed on a
     * line at a time and at each flush (a progress bar's {@code \r} redraw is flushed), so a key printed in
     * one write never reaches {@code target} whole or in part; a key split across lines is found with the lines before
     * it (the part already passed on is shorter than what counts, or it would have been redacted there);
     * {@code target} keeps its own encoding.
     */
    public PrintStream scrubbing(PrintStream target) {
        return new PrintStream(new LineScrubber(target), false, StandardCharsets.UTF_8);
    }

    /**
     * Where in {@code text} a secret is, in any form: sorted, non-overlapping [start, end) ranges. A long text is read
     * in pieces of {@link #CHUNK} decoded characters that overlap by {@link #OVERLAP}, so memory stays small whatever
     * its length (a reply body may be 8 MB) and every form of a key, which is shorter than the overlap once white
     * space is gone, lies whole in one piece.
     */
    private List<int[]> ranges(String text) {
        List<int[]> out = new ArrayList<>();
        if (chars == null || text.length() < shortest) return out;
        Decoded d = new Decoded(Math.min(text.length(), CHUNK) + 1);
        int from = 0;
        while (true) {
            int stop = d.decode(text, from);
            if (d.length >= shortest) search(d, text, out);
            if (stop >= text.length()) break;
            from = d.start[d.length - OVERLAP];
        }
        return out.size() > 1 ? merged(out) : out;
    }

    private void search(Decoded d, String text, List<int[]> out) {
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
    private void hexRanges(Decoded d, String text, List<int[]> out) {
        int minDigits = 2 * bytes.shortest;
        int[] pos = new int[Math.min(d.length, 1 << 16)];
        int n = 0;
        for (int i = 0; i <= d.length; i++) {
            char c = i < d.length ? d.chars[i] : 0;
            if (c < 128 && HEX[c] >= 0) {
                if (c == '0' && i + 2 < d.length && (d.chars[i + 1] == 'x' || d.chars[i + 1] == 'X') && hex(d.chars[i + 2]) >= 0) {
                    i++;
                    continue;
                }
                if (n == pos.length) pos = Arrays.copyOf(pos, Math.min(d.length, 2 * n));
                pos[n++] = i;
                continue;
            }
            if (n > 0 && c < 128 && HEX[c] == SEPARATOR && i + 1 < d.length && hex(d.chars[i + 1]) >= 0) continue;
            if (n >= minDigits) searchHex(d, text, pos, n, out);
            n = 0;
        }
    }

    private void searchHex(Decoded d, String text, int[] pos, int n, List<int[]> out) {
        char[] decoded = new char[n / 2];
        Hits hits = new Hits();
        for (int phase = 0; phase < 2; phase++) {
            int m = 0;
            for (int k = phase; k + 1 < n; k += 2) decoded[m++] = (char) (hex(d.chars[pos[k]]) << 4 | hex(d.chars[pos[k + 1]]));
            hits.clear();
            bytes.find(decoded, 0, m, hits);
            for (int i = 0; i < hits.size; i += 2) {
                int first = pos[phase + 2 * hits.at[i]], last = pos[phase + 2 * (hits.at[i + 1] - 1) + 1];
                out.add(new int[] {d.start[first], d.end(text, last)});
            }
        }
    }

    private static int hex(char c) { return c < 128 && HEX[c] >= 0 ? HEX[c] : -1; }

    /**
     * Runs of base64 digits in the decoded text (white space already gone, so wrapped lines join; {@code \/}, {@code %2F}
     * already '/'), read from each of their first four digits (so a key at any of the three byte alignments, after
     * anything, is read whole in one of them), searched for the keys' bytes. The digits that spell the key go, and
     * with them the rest of each base64 word they are in (up to white space), as before wrapping was read.
     */
    private void base64Ranges(Decoded d, String text, List<int[]> out) {
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

    private static int base64(char c) { return c < 128 ? BASE64[c] : -1; }

    /** Decodes the base64 digits {@code chars[from, to)} (a last group of 2 or 3 digits too) into {@code out}; returns how many bytes. */
    private static int decodeBase64(char[] chars, int from, int to, char[] out) {
        int m = 0, g = from;
        for (; g + 4 <= to; g += 4) {
            int v = BASE64[chars[g]] << 18 | BASE64[chars[g + 1]] << 12 | BASE64[chars[g + 2]] << 6 | BASE64[chars[g + 3]];
            out[m++] = (char) (v >> 16 & 0xFF);
            out[m++] = (char) (v >> 8 & 0xFF);
            out[m++] = (char) (v & 0xFF);
        }
        if (to - g >= 2) {
            int v = BASE64[chars[g]] << 18 | BASE64[chars[g + 1]] << 12 | (to - g == 3 ? BASE64[chars[g + 2]] << 6 : 0);
            out[m++] = (char) (v >> 16 & 0xFF);
            if (to - g == 3) out[m++] = (char) (v >> 8 & 0xFF);
        }
        return m;
    }

    /** Where the tokens' concatenation holds a secret, the token it starts in says [redacted] and the rest of it go empty. */
    private void blankAcrossTokens(List<TokenLogprob> tokens) {
        StringBuilder all = new StringBuilder();
        for (TokenLogprob t : tokens) all.append(t.token());
        List<int[]> secretsAt = ranges(all.toString());
        if (secretsAt.isEmpty()) return;
        int from = 0;
        for (int i = 0; i < tokens.size(); i++) {
            TokenLogprob t = tokens.get(i);
            String tok = t.token();
            int to = from + tok.length();
            StringBuilder kept = new StringBuilder();
            int pos = from;
            for (int[] r : secretsAt) {
                if (r[1] <= from || r[0] >= to) continue;
                if (r[0] > pos) kept.append(tok, pos - from, r[0] - from);
                if (r[0] >= from) kept.append(MARK);
                pos = Math.max(pos, Math.min(to, r[1]));
            }
            if (pos != from || kept.length() > 0) {
                if (pos < to) kept.append(tok, pos - from, tok.length());
                tokens.set(i, new TokenLogprob(kept.toString(), t.logprob(), t.top()));
            }
            from = to;
        }
    }

    // ---- the search ----------------------------------------------------------------------------------------

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

    /**
     * A text as its readers would see it: each escape decoded to its character (JSON {@code \/}, {@code \u002f},
     * {@code \x2f}, with any number of backslashes; HTML {@code &#x2F;}, {@code &#47;}, {@code &sol;}, after any number of
     * {@code amp;}; URL {@code %2F}, {@code %252F}, UTF-8 sequences), white space (spaces, tabs, line breaks, no-break and
     * zero-width spaces, and their escapes such as {@code \n}) left out, each character remembering where in the text it
     * came from.
     */
    static final class Decoded {
        final char[] chars;
        final int[] start;
        int length;

        Decoded(int capacity) {
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
    }

    /** Passes text on a line (or a flush) at a time, scrubbed; holds back an unfinished UTF-8 character. */
    private final class LineScrubber extends OutputStream {
        private final PrintStream target;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        /** The end of what was passed on (as it was given): a key split across lines is found with it. */
        private String before = "";

        LineScrubber(PrintStream target) { this.target = target; }

        @Override public synchronized void write(int b) {
            pending.write(b);
            if (b == '\n') emit(pending.size());
        }

        @Override public synchronized void write(byte[] b, int off, int len) {
            pending.write(b, off, len);
            for (int i = off + len - 1; i >= off; i--) {
                if (b[i] == '\n') {
                    emit(pending.size() - (off + len - 1 - i));
                    return;
                }
            }
        }

        @Override public synchronized void flush() {
            emit(completeCharacters());
            target.flush();
        }

        @Override public synchronized void close() { flush(); }

        private int completeCharacters() {
            byte[] b = pending.toByteArray();
            int n = b.length;
            for (int back = 1; back <= Math.min(3, n); back++) {
                int lead = b[n - back] & 0xFF;
                if ((lead & 0xC0) == 0x80) continue; // a continuation byte: look further back
                int need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
                return back < need ? n - back : n;
            }
            return n;
        }

        private void emit(int upTo) {
            if (upTo <= 0) return;
            byte[] all = pending.toByteArray();
            String text = new String(all, 0, upTo, StandardCharsets.UTF_8);
            pending.reset();
            pending.write(all, upTo, all.length - upTo);
            String joined = before + text;
            target.print(joined.length() < shortest ? text : redact(joined, ranges(joined), before.length()));
            before = joined.substring(Math.max(0, joined.length() - STREAM_CONTEXT));
            if (text.endsWith("\n")) target.flush();
        }
    }
}
