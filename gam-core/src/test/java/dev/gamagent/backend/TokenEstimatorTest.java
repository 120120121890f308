package dev.gamagent.backend;

import dev.gamagent.image.internal.ImageTokens;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import dev.gamagent.backend.internal.TokenEstimator;

/** Token estimates for servers that report no usage. */
class TokenEstimatorTest {
    @Test void textIsCountedWithTheCl100kTokenizer() {
        TokenEstimator e = new TokenEstimator("qwen");
        assertThat(e.text("hello world")).isEqualTo(2);
        assertThat(e.text("")).isZero();
    }

    /** Found by WireFuzzTest: a reply holding half an emoji tripped the tokenizer's UTF-8 assertion. */
    @Test void aLoneSurrogateInAReplyIsCountedNotThrown() {
        TokenEstimator e = new TokenEstimator("qwen");
        assertThat(e.text("A \uD83D")).isPositive();
        assertThat(e.text("\uDE00x\uD83D\uDE00")).isPositive();
    }

    @Test void imagesFollowTheirFamilysRule() {
        assertThat(new TokenEstimator("qwen").image(448, 448)).isEqualTo(ImageTokens.qwen(448, 448, 3136, 12_845_056)).isEqualTo(256);
        assertThat(new TokenEstimator("openai").image(1024, 1024)).isEqualTo(85 + 170 * 4);
        assertThat(new TokenEstimator("gemini").image(300, 200)).isEqualTo(258);
        assertThat(new TokenEstimator("gemini").image(1536, 768)).isEqualTo(258 * 2);
        assertThat(new TokenEstimator("anthropic").image(1000, 750)).isEqualTo(1000);
    }

    @Test void serverCountsWinAndMissingPartsAreEstimatedAndMarked() {
        TokenEstimator e = new TokenEstimator("qwen");
        ChatRequest q = BackendContractTest.question();
        List<Choice> cs = List.of(new Choice("A", List.of(), "stop"));
        assertThat(e.usage(q, cs, 900L, 3L, null)).isEqualTo(new Usage(900, 3, false));
        assertThat(e.usage(q, cs, 900L, 3L, 512L).cachedPromptTokens()).as("the server's cached count, kept as is").isEqualTo(512);
        Usage partly = e.usage(q, cs, null, 3L, null);
        assertThat(partly.estimated()).isTrue();
        assertThat(partly.completionTokens()).isEqualTo(3);
        assertThat(partly.promptTokens()).isEqualTo(e.prompt(q));
    }

    @Test void firstTokensIsTheLongestPrefixWithinTheLimit() {
        TokenEstimator e = new TokenEstimator("qwen");
        String s = "A. a red triangle on a white ground";
        assertThat(TokenEstimator.firstTokens(s, 1000)).isEqualTo(s);
        for (int n = 1; n < e.text(s); n++) {
            String cut = TokenEstimator.firstTokens(s, n);
            assertThat(s).startsWith(cut);
            assertThat(e.text(cut)).as(cut).isLessThanOrEqualTo(n);
            assertThat(cut.length()).isLessThan(s.length());
        }
        assertThat(TokenEstimator.firstTokens(s, 0)).isEmpty();
        // a character split between two tokens is left out whole
        String emoji = "🙂🙂🙂";
        assertThat(emoji).startsWith(TokenEstimator.firstTokens(emoji, 1));
    }
}
