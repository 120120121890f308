package dev.gamagent.uncertainty;

import dev.gamagent.backend.TokenLogprob;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the character ranges of a reply's content (answer, claims, evidence) in a reply text; the tokens
 * overlapping them are the ones {@link Scoring#CONTENT} scores. Implemented by whoever knows the reply format.
 */
@FunctionalInterface
public interface ContentSpans {
    /**
     * The [start, end) ranges of content in {@code text}; null when the text has no format to strip (free prose:
     * every token is content), empty when the format was read but holds no content.
     */
    List<int[]> find(String text);

    /**
     * The tokens whose characters overlap a content range of their concatenated text (so the mapping never depends
     * on how a backend splits or re-renders the reply); null when {@code spans} read no format from it.
     */
    static List<TokenLogprob> select(List<TokenLogprob> tokens, ContentSpans spans) {
        StringBuilder joined = new StringBuilder();
        int[] starts = new int[tokens.size() + 1];
        for (int t = 0; t < tokens.size(); t++) {
            starts[t] = joined.length();
            String s = tokens.get(t).token();
            joined.append(s == null ? "" : s);
        }
        starts[tokens.size()] = joined.length();
        List<int[]> ranges = spans.find(joined.toString());
        if (ranges == null) return null;
        List<TokenLogprob> out = new ArrayList<>();
        for (int t = 0; t < tokens.size(); t++) {
            for (int[] r : ranges) {
                if (starts[t + 1] > r[0] && starts[t] < r[1]) { out.add(tokens.get(t)); break; }
            }
        }
        return out;
    }
}
