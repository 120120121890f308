package dev.gamagent.backend.internal;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.gamagent.image.internal.ImageTokens;

import java.util.List;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.Usage;

/**
 * Token counts for servers that report no usage: text with the cl100k tokenizer (jtokkit), images with the
 * {@link ImageTokens} rule of the configured family (its processor's resizing and pixel budget included). Results are
 * marked {@code estimated}.
 */
public final class TokenEstimator {
    /** Chat templates add a few tokens per message (role markers); 4 is OpenAI's documented figure. */
    private static final int PER_MESSAGE = 4;

    private static final class Tokenizer {
        static final Encoding CL100K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    }

    /** jtokkit is an optional dependency of the core: without it text is counted at about 4 characters a token. */
    private static final boolean HAS_TOKENIZER = tokenizerPresent();

    private static boolean tokenizerPresent() {
        try {
            Class.forName("com.knuddels.jtokkit.Encodings", false, TokenEstimator.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private final ImageTokens.Rule imageRule;

    /**
     * An estimator counting images by the rule named {@code imageFamily} ({@link ImageTokens#rule}; null: the family of
     * {@code image.tokens} in defaults.json). An unknown family is refused here, when the backend is made, not at its
     * first image.
     */
    public TokenEstimator(String imageFamily) {
        this.imageRule = ImageTokens.rule(imageFamily != null ? imageFamily : dev.gamagent.config.Config.defaults().string("image.tokens"));
    }

    public long text(String s) {
        if (s == null || s.isEmpty()) return 0;
        return HAS_TOKENIZER ? Tokenizer.CL100K.countTokens(wellFormed(s)) : (s.length() + 3) / 4;
    }

    /**
     * The start of {@code s} that fits in {@code maxTokens} tokens as {@link #text} counts them (cl100k; without jtokkit
     * 4 characters a token): what a client's {@code max_tokens} lets through. A character cut in half by the last token is
     * left out, so the result is always a prefix of {@code s}.
     */
    public static String firstTokens(String s, int maxTokens) {
        if (s == null || s.isEmpty() || maxTokens <= 0) return "";
        if (!HAS_TOKENIZER) return s.length() <= 4L * maxTokens ? s : s.substring(0, 4 * maxTokens);
        String w = wellFormed(s);
        var r = Tokenizer.CL100K.encode(w, maxTokens);
        if (!r.isTruncated()) return s;
        String d = Tokenizer.CL100K.decode(r.getTokens());
        int n = 0;
        while (n < d.length() && n < w.length() && d.charAt(n) == w.charAt(n)) n++;
        return s.substring(0, n);
    }

    /**
     * The text with lone surrogates (half an emoji, as a server cutting a reply mid-character may send)
     * replaced by U+FFFD: the tokenizer assumes well-formed UTF-16 (found by the wire fuzz test).
     */
    public static String wellFormed(String s) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
            if (pair) {
                if (out != null) out.append(c).append(s.charAt(i + 1));
                i++;
            } else if (Character.isSurrogate(c)) {
                if (out == null) out = new StringBuilder(s.length()).append(s, 0, i);
                out.append('\uFFFD');
            } else if (out != null) out.append(c);
        }
        return out == null ? s : out.toString();
    }

    public long prompt(ChatRequest r) {
        long total = 3; // the assistant turn's priming tokens
        for (ChatMessage m : r.messages()) {
            total += PER_MESSAGE;
            for (ChatMessage.Part p : m.parts()) {
                if (p instanceof ChatMessage.Text t) total += text(t.text());
                else if (p instanceof ChatMessage.Image img) {
                    total += image(img.picture().width(), img.picture().height());
                }
            }
        }
        return total;
    }

    /** Image tokens of one image by the family's rule. */
    public long image(int width, int height) { return imageRule.tokens(width, height); }

    public long completion(List<Choice> choices) {
        long total = 0;
        for (Choice c : choices) total += c.hasLogprobs() ? c.logprobs().size() : Math.max(1, text(c.text()));
        return total;
    }

    /**
     * Server counts where given, estimates for the missing parts (then the whole is marked estimated). The cached prompt
     * tokens are the server's or none: whether a prefix was cached only the server knows.
     */
    public Usage usage(ChatRequest r, List<Choice> choices, Long serverPrompt, Long serverCompletion, Long serverCached) {
        boolean estimated = serverPrompt == null || serverCompletion == null;
        long p = serverPrompt != null ? serverPrompt : prompt(r);
        long c = serverCompletion != null ? serverCompletion : completion(choices);
        return new Usage(p, c, estimated, serverCached);
    }
}
