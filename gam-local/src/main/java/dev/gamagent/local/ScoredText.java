package dev.gamagent.local;

import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.IntArrayList;
import dev.gamagent.backend.TokenLogprob;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns pieces into the output text and its tokens. Boilerplate is split into cl100k tokens, each
 * near-certain (log p = −0.001: the format is fixed, not a guess); a scored piece is one token whose
 * log-prob and alternatives are its distribution's. The tokens always concatenate to the text.
 */
public final class ScoredText {
    /** Log-prob of a format token: the template leaves no real choice. */
    static final double BOILERPLATE_LOGPROB = -0.001;
    /** Value name of "some character outside the recogniser's top-k" in OCR distributions; never emitted as a token. */
    static final String OTHER = "\uFFFD";
    private static final Pattern FALLBACK = Pattern.compile("\\s*[\\p{L}\\p{N}]+|\\s*[^\\s\\p{L}\\p{N}]|\\s+");

    /** cl100k, loaded once: an encoding is immutable and thread-safe, and loading it takes about a second. */
    static final Encoding CL100K = com.knuddels.jtokkit.Encodings.newLazyEncodingRegistry()
            .getEncoding(com.knuddels.jtokkit.api.EncodingType.CL100K_BASE);

    private final Encoding encoding;
    private final StringBuilder text = new StringBuilder();
    private final List<TokenLogprob> tokens = new ArrayList<>();

    public ScoredText(Encoding encoding) { this.encoding = encoding; }

    public ScoredText add(Piece p) {
        if (!p.scored()) return plain(p.text());
        if (p.full().isEmpty()) return this;
        Distribution d = p.alternatives();
        List<TokenLogprob.Alternative> alts = new ArrayList<>();
        List<Integer> order = new ArrayList<>(d.ranking());
        if (d.p(p.chosen()) >= d.p(order.get(0)) - 1e-12) {
            order.remove(Integer.valueOf(p.chosen())); // among equally probable values the emitted one comes first
            order.add(0, p.chosen());
        }
        for (int i : order) {
            String v = d.values().get(i);
            if (OTHER.equals(v) || d.p(i) <= 0) continue;
            String tok = p.prefix() + v;
            if (alts.stream().anyMatch(a -> a.token().equals(tok))) continue;
            alts.add(new TokenLogprob.Alternative(tok, Math.log(d.p(i))));
        }
        double lp = Math.log(Math.max(1e-12, d.p(p.chosen())));
        text.append(p.full());
        tokens.add(new TokenLogprob(p.full(), lp, alts));
        return this;
    }

    public ScoredText addAll(List<Piece> pieces) {
        for (Piece p : pieces) add(p);
        return this;
    }

    public ScoredText plain(String s) {
        if (s == null || s.isEmpty()) return this;
        text.append(s);
        for (String t : split(s)) {
            tokens.add(new TokenLogprob(t, BOILERPLATE_LOGPROB, List.of(new TokenLogprob.Alternative(t, BOILERPLATE_LOGPROB))));
        }
        return this;
    }

    public String text() { return text.toString(); }

    public int tokenCount() { return tokens.size(); }

    /** The tokens with at most {@code topK} alternatives each (0: only the chosen token's log-prob). */
    public List<TokenLogprob> tokens(int topK) {
        List<TokenLogprob> out = new ArrayList<>(tokens.size());
        for (TokenLogprob t : tokens) {
            List<TokenLogprob.Alternative> top = t.top();
            out.add(new TokenLogprob(t.token(), t.logprob(), top.subList(0, Math.min(topK, top.size()))));
        }
        return out;
    }

    /** cl100k pieces when they decode back to the exact text (ASCII does), else words and punctuation. */
    private List<String> split(String s) {
        List<String> parts = new ArrayList<>();
        IntArrayList ids = encoding.encodeOrdinary(s);
        StringBuilder check = new StringBuilder();
        IntArrayList one = new IntArrayList(1);
        for (int i = 0; i < ids.size(); i++) {
            one.clear();
            one.add(ids.get(i));
            String piece = encoding.decode(one);
            parts.add(piece);
            check.append(piece);
        }
        if (check.toString().equals(s)) return parts;
        parts.clear();
        Matcher m = FALLBACK.matcher(s);
        int end = 0;
        while (m.find()) {
            if (m.start() > end) parts.add(s.substring(end, m.start()));
            parts.add(m.group());
            end = m.end();
        }
        if (end < s.length()) parts.add(s.substring(end));
        return parts;
    }
}
