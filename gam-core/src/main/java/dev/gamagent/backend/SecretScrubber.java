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
import java.util.Base64;
import java.util.Collection;
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
 * stored or printed. A key is found in every form it takes on its way back: as is; JSON-escaped
 * ({@code \/}, {@code \u002f}, escaped twice); HTML-escaped ({@code &#x2F;}, {@code &#47;}, {@code &sol;},
 * {@code &amp;…}); URL-encoded ({@code %2F}, {@code %252F}); mixed; and inside base64 (of the key, of
 * {@code user:key}, of a whole header dump; standard or URL-safe alphabet), where the whole base64 run goes.
 * A key split across generated tokens is removed from the tokens too.
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
    /** Below this, the part of a key's base64 that does not depend on its neighbours could occur by chance in image data. */
    private static final int MIN_BASE64_LENGTH = 12;
    private static final Map<Character, String> HTML_NAMES = Map.of('&', "amp", '<', "lt", '>', "gt", '"', "quot",
            '\'', "apos", '/', "sol", '=', "equals", '+', "plus", ':', "colon");

    private final List<String> secrets;
    private final Pattern forms;
    private final Pattern base64;

    public SecretScrubber(Collection<String> secrets) {
        this.secrets = secrets.stream().filter(Objects::nonNull).map(String::strip).filter(SecretScrubber::couldBeASecret)
                .distinct().sorted((a, b) -> b.length() - a.length()).toList();
        if (this.secrets.isEmpty()) {
            forms = null;
            base64 = null;
            return;
        }
        // every alternative starts with one of a few characters: a look-ahead for them lets the matcher skip the
        // other positions at the cost of one class test (ten times faster on long texts without a key)
        StringBuilder f = new StringBuilder(), b = new StringBuilder();
        Set<Integer> fStarts = new java.util.TreeSet<>(List.of((int) '\\', (int) '&', (int) '%')), bStarts = new java.util.TreeSet<>();
        for (String s : this.secrets) {
            if (f.length() > 0) f.append('|');
            f.append(textForms(s));
            fStarts.add(s.codePointAt(0));
            if (s.codePointAt(0) == ' ') fStarts.add((int) '+');
            if (s.length() >= MIN_BASE64_LENGTH) {
                for (int align = 0; align < 3; align++) {
                    if (b.length() > 0) b.append('|');
                    String core = base64Core(s, align);
                    b.append(core);
                    bStarts.addAll(base64Starts(core));
                }
            }
        }
        forms = Pattern.compile("(?=" + startClass(fStarts) + ")(?:" + f + ")");
        base64 = b.length() == 0 ? null : Pattern.compile("(?=" + startClass(bStarts) + ")(?:" + b + ")");
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
        if (text == null || forms == null) return text;
        List<int[]> at = ranges(text);
        if (at.isEmpty()) return text;
        StringBuilder out = new StringBuilder(text.length());
        int from = 0;
        for (int[] r : at) {
            out.append(text, from, r[0]).append(MARK);
            from = r[1];
        }
        return out.append(text, from, text.length()).toString();
    }

    /** A copy of {@code node} with every string (values and field names) scrubbed; {@code node} itself when it holds no secret. */
    public JsonNode scrub(JsonNode node) {
        if (node == null || forms == null) return node;
        return holdsSecret(node) ? copy(node) : node;
    }

    private boolean holdsSecret(JsonNode n) {
        if (n.isTextual()) return !ranges(n.textValue()).isEmpty();
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!ranges(e.getKey()).isEmpty() || holdsSecret(e.getValue())) return true;
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
        if (forms == null) return c;
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
     * one write never reaches {@code target} whole or in part; {@code target} keeps its own encoding.
     */
    public PrintStream scrubbing(PrintStream target) {
        return new PrintStream(new LineScrubber(target), false, StandardCharsets.UTF_8);
    }

    /** Where in {@code text} a secret is, in any form: sorted, non-overlapping [start, end) ranges. */
    private List<int[]> ranges(String text) {
        List<int[]> out = new ArrayList<>();
        if (text.isEmpty()) return out;
        Matcher m = forms.matcher(text);
        while (m.find()) out.add(new int[] {m.start(), m.end()});
        if (base64 != null) {
            Matcher b = base64.matcher(text);
            int after = 0;
            while (b.find(after)) {
                int s = b.start(), e = b.end();
                while (s > 0 && base64Char(text.charAt(s - 1))) s--;
                while (e < text.length() && (base64Char(text.charAt(e)) || text.charAt(e) == '=')) e++;
                out.add(new int[] {s, e});
                after = e;
                if (after >= text.length()) break;
            }
            if (!out.isEmpty()) out = merged(out);
        }
        return out;
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

    /** A base64 digit of either alphabet, or a JSON escape's backslash inside a run ({@code \/}). */
    private static boolean base64Char(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_' || c == '\\';
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

    // ---- the patterns --------------------------------------------------------------------------------------

    /** Each character of {@code s} in any of its escaped forms, so mixed escaping is found too. */
    private static String textForms(String s) {
        StringBuilder p = new StringBuilder("(?:");
        s.codePoints().forEach(cp -> p.append(charForms(cp)));
        return p.append(')').toString();
    }

    private static String charForms(int cp) {
        List<String> alts = new ArrayList<>();
        String lit = new String(Character.toChars(cp));
        alts.add(Pattern.quote(lit));
        boolean alnum = cp < 128 && Character.isLetterOrDigit(cp);
        if (!alnum) alts.add("\\\\+" + Pattern.quote(lit)); // JSON's \/ (and \\\/ when escaped twice)
        if (cp <= 0xFFFF) alts.add("\\\\+u" + hexCaseless(String.format(Locale.ROOT, "%04x", cp))); // \u002f, \\u002f
        alts.add("&(?:amp;)*#[xX]0*" + hexCaseless(Integer.toHexString(cp)) + ";");
        alts.add("&(?:amp;)*#0*" + cp + ";");
        String name = cp < 128 ? HTML_NAMES.get((char) cp) : null;
        if (name != null) alts.add("&(?:amp;)*" + name + ";");
        StringBuilder url = new StringBuilder();
        for (byte b : lit.getBytes(StandardCharsets.UTF_8)) url.append("%(?:25)*").append(hexCaseless(String.format(Locale.ROOT, "%02x", b & 0xFF)));
        alts.add(url.toString());
        if (cp == ' ') alts.add("\\+");
        return "(?:" + String.join("|", alts) + ")";
    }

    /** A character class of the given code points. */
    private static String startClass(Set<Integer> cps) {
        StringBuilder sb = new StringBuilder("[");
        for (int cp : cps) sb.append("\\x{").append(Integer.toHexString(cp)).append('}');
        return sb.append(']').toString();
    }

    /** The characters a base64 core's pattern can start with (its first digit, or the forms of '+' and '/'). */
    private static Set<Integer> base64Starts(String corePattern) {
        char c = corePattern.charAt(0);
        if (c != '(') return Set.of((int) c);
        return corePattern.startsWith("(?:\\+") ? Set.of((int) '+', (int) '-', (int) '\\', (int) '%')
                : Set.of((int) '/', (int) '_', (int) '\\', (int) '%');
    }

    private static String hexCaseless(String hex) {
        StringBuilder sb = new StringBuilder();
        for (char c : hex.toCharArray()) {
            if (Character.isDigit(c)) sb.append(c);
            else sb.append('[').append(Character.toLowerCase(c)).append(Character.toUpperCase(c)).append(']');
        }
        return sb.toString();
    }

    /**
     * The base64 digits that depend only on the key's bytes when it starts {@code align} bytes into a 3-byte
     * group: whatever surrounds the key ({@code user:}, other headers), these digits are in the encoding.
     */
    private static String base64Core(String s, int align) {
        byte[] key = s.getBytes(StandardCharsets.UTF_8);
        byte[] buf = new byte[align + key.length + 3];
        System.arraycopy(key, 0, buf, align, key.length);
        String enc = Base64.getEncoder().withoutPadding().encodeToString(buf);
        int first = (8 * align + 5) / 6, end = 8 * (align + key.length) / 6; // digits [first, end) lie wholly on the key
        StringBuilder p = new StringBuilder();
        for (char c : enc.substring(first, end).toCharArray()) {
            if (c == '+') p.append("(?:\\+|-|\\\\+u002[bB]|%2[bB])");
            else if (c == '/') p.append("(?:\\\\*/|_|\\\\+u002[fF]|%2[fF])");
            else p.append(c);
        }
        return p.toString();
    }

    /** Passes text on a line (or a flush) at a time, scrubbed; holds back an unfinished UTF-8 character. */
    private final class LineScrubber extends OutputStream {
        private final PrintStream target;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

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
            target.print(scrub(text));
            if (text.endsWith("\n")) target.flush();
        }
    }
}
