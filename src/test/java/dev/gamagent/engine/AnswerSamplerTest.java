package dev.gamagent.engine;

import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.UncertaintySignal;
import dev.gamagent.backend.Usage;
import dev.gamagent.config.Config;
import dev.gamagent.game.Similarity;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.uncertainty.SemanticUncertainty;
import dev.gamagent.uncertainty.UncertaintyFallback;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class AnswerSamplerTest {
    private static final UncertaintyFallback SAMPLING = new UncertaintyFallback(true, 3, 0.8);
    private static final ChatRequest GREEDY = ChatRequest.of(List.of(ChatMessage.user("Which? A or B", List.of())));
    private static final Function<Choice, String> LETTER = c -> c.text().substring("ANSWER: ".length(), "ANSWER: ".length() + 1);

    /** Answers each request with {@code n} choices cycling through {@code letters}, with or without a log-prob. */
    private static ScriptedBackend backend(boolean declaresLogprobs, boolean givesLogprobs, String... letters) {
        int[] next = {0};
        return new ScriptedBackend("scripted", new Capabilities(true, declaresLogprobs, declaresLogprobs ? 5 : 0, true, false, 0), r -> {
            List<Choice> cs = new ArrayList<>();
            for (int i = 0; i < r.n(); i++) {
                String l = letters[next[0]++ % letters.length];
                cs.add(new Choice("ANSWER: " + l, givesLogprobs && r.logprobs() ? List.of(new TokenLogprob(l, -0.1, List.of())) : List.of(), "stop"));
            }
            return new ChatResult(cs, new Usage(10, 2L * r.n(), false), Duration.ofMillis(1), "scripted");
        });
    }

    @Test void aBackendKnownToGiveNoLogprobsIsAskedOnceForNSamplesAtTheSamplingTemperature() {
        ScriptedBackend b = backend(false, false, "A", "B", "A");
        List<ChatResult> counted = new ArrayList<>();
        AnswerSampler.Reply reply = new AnswerSampler(SAMPLING, new SemanticUncertainty()).chat(b, GREEDY, counted::add);
        assertThat(b.requests).hasSize(1);
        ChatRequest sent = b.requests.get(0);
        assertThat(sent.n()).isEqualTo(3);
        assertThat(sent.temperature()).isEqualTo(0.8);
        assertThat(sent.logprobs()).isFalse();
        assertThat(counted).hasSize(1);
        assertThat(reply.samples()).extracting(Choice::text).containsExactly("ANSWER: A", "ANSWER: B", "ANSWER: A");
    }

    @Test void aBackendThatTurnsOutToGiveNoLogprobsGetsOneMoreRequestForTheSamplesAndBothAreCounted() {
        ScriptedBackend b = backend(true, false, "A", "B", "B", "B");
        List<ChatResult> counted = new ArrayList<>();
        AnswerSampler.Reply reply = new AnswerSampler(SAMPLING, new SemanticUncertainty()).chat(b, GREEDY, counted::add);
        assertThat(b.requests).hasSize(2);
        assertThat(b.requests.get(0)).isEqualTo(GREEDY);
        assertThat(b.requests.get(1).n()).isEqualTo(3);
        assertThat(counted).hasSize(2);
        // the greedy reply is not a sample: the three samples are the second request's choices
        assertThat(reply.samples()).extracting(Choice::text).containsExactly("ANSWER: B", "ANSWER: B", "ANSWER: B");
    }

    @Test void withLogprobsOrWithTheSemanticFallbackNothingIsSampled() {
        ScriptedBackend withLp = backend(true, true, "A");
        AnswerSampler.Reply r1 = new AnswerSampler(SAMPLING, new SemanticUncertainty()).chat(withLp, GREEDY, x -> { });
        assertThat(r1.sampled()).isFalse();
        assertThat(withLp.requests).hasSize(1);
        ScriptedBackend noLp = backend(false, false, "A");
        AnswerSampler.Reply r2 = new AnswerSampler(UncertaintyFallback.SEMANTIC, new SemanticUncertainty()).chat(noLp, GREEDY, x -> { });
        assertThat(r2.sampled()).isFalse();
        assertThat(noLp.requests).containsExactly(GREEDY);
    }

    @Test void multipleChoiceTakesTheModalSampleAndItsSmoothedFrequencies() {
        AnswerSampler s = new AnswerSampler(SAMPLING, new SemanticUncertainty());
        List<Choice> samples = List.of(new Choice("ANSWER: B", List.of(), "stop"), new Choice("ANSWER: A", List.of(), "stop"),
                new Choice("ANSWER: A", List.of(), "stop"));
        AnswerSampler.Sampled got = s.options(samples, LETTER, List.of("A", "B", "C"), Choice::text);
        assertThat(got.choice()).isSameAs(samples.get(1));
        assertThat(got.keys()).containsExactly("B", "A", "A");
        assertThat(got.uncertainty().signal()).isEqualTo(UncertaintySignal.SAMPLING);
        // p(A) = (2 + 1/3) / 4; U = (1 − p(A))·3/2
        double pa = (2 + 1.0 / 3) / 4;
        assertThat(got.distribution().get("A")).isCloseTo(pa, within(1e-12));
        assertThat(got.uncertainty().value()).isCloseTo((1 - pa) * 1.5, within(1e-12));
    }

    @Test void aHedgeOrReportedConfidenceInTheChosenSampleIsBlendedEvenly() {
        AnswerSampler s = new AnswerSampler(SAMPLING, new SemanticUncertainty());
        List<Choice> samples = List.of(new Choice("ANSWER: A\nCONFIDENCE: 40%", List.of(), "stop"),
                new Choice("ANSWER: A", List.of(), "stop"), new Choice("ANSWER: A", List.of(), "stop"));
        AnswerSampler.Sampled got = s.options(samples, LETTER, List.of("A", "B"), Choice::text);
        double uSamp = (1 - (3 + 0.5) / 4) * 2;
        double phi = new SemanticUncertainty().of("ANSWER: A\nCONFIDENCE: 40%");
        assertThat(got.uncertainty().value()).isCloseTo((uSamp + phi) / 2, within(1e-12));
        assertThat(got.distribution().get("A")).isCloseTo(1 - got.uncertainty().value() / 2, within(1e-12));
    }

    @Test void openAnswersTakeTheMedoidAndOneMinusTheMeanPairwiseSimilarity() {
        AnswerSampler s = new AnswerSampler(SAMPLING, new SemanticUncertainty());
        List<Choice> samples = List.of(new Choice("a red car", List.of(), "stop"), new Choice("red car", List.of(), "stop"),
                new Choice("", List.of(), "stop"));
        AnswerSampler.Sampled got = s.open(samples, c -> c.text().isBlank() ? null : c.text(), Similarity.lexical(), c -> "");
        // Jaccard("a red car", "red car") = 2/3; the unreadable third sample is similarity 0 to both
        assertThat(got.uncertainty().value()).isCloseTo(1 - (2.0 / 3) / 3, within(1e-12));
        assertThat(got.choice()).isSameAs(samples.get(0));
    }

    @Test void theConfigNamesTheKeyOfABadValue() {
        Config c = Config.defaults().withOverrides(Map.of("gam.uncertainty_fallback", "votes"));
        assertThatThrownBy(() -> UncertaintyFallback.from(c, "gam")).hasMessageContaining("gam.uncertainty_fallback")
                .hasMessageContaining("sampling");
        Config one = Config.defaults().withOverrides(Map.of("dream.uncertainty_fallback", "sampling", "dream.samples", "1"));
        assertThatThrownBy(() -> UncertaintyFallback.from(one, "dream")).hasMessageContaining("dream.samples");
        assertThat(UncertaintyFallback.from(Config.defaults(), "gam")).isEqualTo(UncertaintyFallback.SEMANTIC);
    }
}
