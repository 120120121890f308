package dev.gamagent.backend.internal;

import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Removes the API key an endpoint is called with from what comes back, before anything is parsed,
 * recorded or traced: a server (or a proxy) that echoes the {@code Authorization} header must not put
 * the key into {@code --trace}, {@code --record}, results files or error messages. A key split across
 * generated tokens is removed from the tokens too.
 */
public final class SecretScrubber {
    public static final String MARK = "[redacted]";
    public static final SecretScrubber NONE = new SecretScrubber(List.of());

    private final List<String> secrets;

    public SecretScrubber(Collection<String> secrets) {
        // a one- or two-letter value (a placeholder) would redact ordinary words
        this.secrets = secrets.stream().filter(Objects::nonNull).map(String::strip).filter(s -> s.length() >= 4).distinct().toList();
    }

    public boolean isEmpty() { return secrets.isEmpty(); }

    public String scrub(String text) {
        if (text == null || secrets.isEmpty()) return text;
        String out = text;
        for (String s : secrets) if (out.contains(s)) out = out.replace(s, MARK);
        return out;
    }

    /** The choice with the key removed from its text, its tokens (also across token boundaries) and their alternatives. */
    public Choice scrub(Choice c) {
        if (secrets.isEmpty()) return c;
        List<TokenLogprob> tokens = new ArrayList<>(c.logprobs());
        for (String s : secrets) blankAcrossTokens(tokens, s);
        List<TokenLogprob> out = new ArrayList<>(tokens.size());
        for (TokenLogprob t : tokens) {
            List<TokenLogprob.Alternative> top = t.top().stream().map(a -> new TokenLogprob.Alternative(scrub(a.token()), a.logprob())).toList();
            out.add(new TokenLogprob(scrub(t.token()), t.logprob(), top));
        }
        return new Choice(scrub(c.text()), out, c.finishReason());
    }

    /** Where the tokens' concatenation contains {@code s}, the first token it touches says [redacted] and the rest of it go empty. */
    private static void blankAcrossTokens(List<TokenLogprob> tokens, String s) {
        StringBuilder all = new StringBuilder();
        int[] starts = new int[tokens.size()];
        for (int i = 0; i < tokens.size(); i++) {
            starts[i] = all.length();
            all.append(tokens.get(i).token());
        }
        for (int at = all.indexOf(s); at >= 0; at = all.indexOf(s, at + s.length())) {
            int end = at + s.length();
            for (int i = 0; i < tokens.size(); i++) {
                int from = starts[i], to = from + tokens.get(i).token().length();
                if (to <= at || from >= end || to == from) continue;
                TokenLogprob t = tokens.get(i);
                String before = from < at ? t.token().substring(0, at - from) : "";
                String after = to > end ? t.token().substring(end - from) : "";
                tokens.set(i, new TokenLogprob(before + (from <= at ? MARK : "") + after, t.logprob(), t.top()));
            }
        }
    }
}
