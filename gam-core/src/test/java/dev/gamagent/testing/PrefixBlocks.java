package dev.gamagent.testing;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.config.Config;
import dev.gamagent.image.internal.ImageTokens;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A test tool, never a result: a prefix cache as vLLM's automatic prefix caching keeps one, simplified. A prompt is a
 * sequence of tokens (a role token per message, text at four characters a token, each image as its image-token count
 * of tokens carrying the hash of its encoded bytes); tokens go in blocks of {@value #BLOCK}, each block hashed with
 * everything before it; a full block seen before is not computed again. Unbounded and sequential: requests sent at
 * once would not share what none of them has computed yet, so this is the least a server computes.
 */
public final class PrefixBlocks {
    public static final int BLOCK = 16;
    private static final ImageTokens.Rule IMAGES = ImageTokens.rule(Config.defaults().string("image.tokens"));
    private final Set<Long> seen = new HashSet<>();
    private long sent, computed;

    /** Counts one request: its prompt tokens, and how many of them the cache did not hold. */
    public void add(ChatRequest r) {
        List<Long> tokens = tokens(r);
        sent += tokens.size();
        long h = 17, reused = 0;
        boolean hit = true;
        List<Long> fresh = new ArrayList<>();
        for (int b = 0; b + BLOCK <= tokens.size(); b += BLOCK) {
            for (int i = b; i < b + BLOCK; i++) h = h * 1_000_003L + tokens.get(i);
            // a block is reused only while every block before it was (the hash chains the whole prefix)
            if (hit && seen.contains(h)) reused += BLOCK;
            else hit = false;
            fresh.add(h);
        }
        seen.addAll(fresh);
        computed += tokens.size() - reused;
    }

    public long sent() { return sent; }

    public long computed() { return computed; }

    /** The request as the tokens a chat template would make of it. */
    static List<Long> tokens(ChatRequest r) {
        List<Long> out = new ArrayList<>();
        for (ChatMessage m : r.messages()) {
            out.add((long) Objects.hash("role", m.role().wire()));
            for (ChatMessage.Part p : m.parts()) {
                if (p instanceof ChatMessage.Text t) {
                    String s = t.text();
                    for (int i = 0; i < s.length(); i += 4) out.add((long) s.substring(i, Math.min(s.length(), i + 4)).hashCode());
                } else if (p instanceof ChatMessage.Image img) {
                    long content = java.util.Arrays.hashCode(img.picture().encoding().base64());
                    long n = IMAGES.tokens(img.picture().width(), img.picture().height());
                    for (long i = 0; i < n; i++) out.add(content * 31 + i);
                }
            }
        }
        return out;
    }
}
