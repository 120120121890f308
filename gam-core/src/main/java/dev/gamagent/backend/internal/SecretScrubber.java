package dev.gamagent.backend.internal;

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
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;

/**
 * The one place that knows the secrets a process holds (API keys of the upstream servers, the key clients
 * send to {@code gam serve}, keys written into base URLs) and removes them from text before it is parsed,
 * stored or printed. A key is found in every form it takes on its way back, because the text is read the way
 * its reader would: escapes are decoded ({@code \/}, {@code \u002f}, {@code \x2f}, escaped twice; {@code &#x2F;},
 * {@code &#47;}, {@code &sol;}, {@code &amp;…}; {@code %2F}, {@code %252F}; mixed), white space is skipped (a key
 * split by spaces, tabs or line breaks), and runs of hex digits (upper or lower case, with or without {@code :},
 * {@code -}, {@code ,} or space between bytes, {@code 0x} prefixes) and of base64 digits (either alphabet, at every
 * alignment, wrapped at any width) are decoded; the key is then looked for in each ({@link SecretFinder}). Not only
 * the whole key: any run of it long enough to matter ({@link SecretFinder#fragmentLength}) goes too. The base64 word
 * that spells a key goes whole; in every other form, exactly the characters that spell it. A key split across
 * generated tokens is removed from the tokens too.
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
    static final int MIN_LENGTH = SecretFinder.MIN_LENGTH;
    /** Values set where a server needs no key (vLLM's docs say {@code OPENAI_API_KEY=EMPTY}): scrubbing them would mangle text. */
    /** Characters of earlier output a {@link #scrubbing} stream keeps to find a key split across lines (a 160-character key's {@code \xNN} form fits). */
    private static final int STREAM_CONTEXT = 1024;
    private static final Set<String> PLACEHOLDERS = Set.of("sk-no-key-required", "no-key-required", "placeholder", "changeme",
            "your-api-key", "your_api_key", "api-key", "api_key", "apikey", "not-needed", "notneeded", "unused");

    private final List<String> secrets;
    private final SecretFinder finder;

    public SecretScrubber(Collection<String> secrets) {
        this.secrets = secrets.stream().filter(Objects::nonNull).map(String::strip).filter(SecretScrubber::couldBeASecret)
                .distinct().sorted((a, b) -> b.length() - a.length()).toList();
        this.finder = new SecretFinder(this.secrets);
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

    /** How many distinct secrets it knows (never which). */
    public int size() { return secrets.size(); }

    public String scrub(String text) {
        if (text == null || text.length() < finder.shortest()) return text;
        return redact(text, finder.ranges(text), 0);
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
        if (node == null || finder.isEmpty()) return node;
        return holdsSecret(node) ? copy(node) : node;
    }

    private boolean holdsSecret(String s) { return s.length() >= finder.shortest() && !finder.ranges(s).isEmpty(); }

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
        if (finder.isEmpty()) return c;
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

    /** Where the tokens' concatenation holds a secret, the token it starts in says [redacted] and the rest of it go empty. */
    private void blankAcrossTokens(List<TokenLogprob> tokens) {
        StringBuilder all = new StringBuilder();
        for (TokenLogprob t : tokens) all.append(t.token());
        List<int[]> secretsAt = finder.ranges(all.toString());
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
            target.print(joined.length() < finder.shortest() ? text : redact(joined, finder.ranges(joined), before.length()));
            before = joined.substring(Math.max(0, joined.length() - STREAM_CONTEXT));
            if (text.endsWith("\n")) target.flush();
        }
    }
}
