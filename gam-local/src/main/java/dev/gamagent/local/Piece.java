package dev.gamagent.local;

import java.util.List;

/**
 * A piece of output text: either boilerplate (no alternatives: near-certain) or one scored token whose
 * alternatives come from a real distribution (an option letter, a colour word, a count, an OCR character).
 *
 * @param prefix text emitted before the scored token and part of it (e.g. a leading space)
 * @param alternatives null for boilerplate; else the distribution the token was chosen from, whose
 *                     values are the alternative token texts (without the prefix)
 * @param chosen index of the emitted value in {@code alternatives}
 */
public record Piece(String prefix, String text, Distribution alternatives, int chosen) {
    public static Piece plain(String text) { return new Piece("", text, null, -1); }

    /** The distribution's most probable value, emitted after {@code prefix}. */
    public static Piece best(String prefix, Distribution d) { return new Piece(prefix, d.best(), d, d.bestIndex()); }

    /** A given value of the distribution (e.g. a sampled alternative answer). */
    public static Piece chosen(String prefix, Distribution d, int index) { return new Piece(prefix, d.values().get(index), d, index); }

    public boolean scored() { return alternatives != null; }

    public String full() { return prefix + text; }

    /** Concatenated text of several pieces. */
    public static String join(List<Piece> pieces) {
        StringBuilder sb = new StringBuilder();
        for (Piece p : pieces) sb.append(p.full());
        return sb.toString();
    }
}
