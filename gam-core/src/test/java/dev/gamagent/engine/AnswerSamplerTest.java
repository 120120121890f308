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
import dev.gamagent.influence.Similarity;
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
    private static final ChatRequest GREEDY = ChatRequest.of(List.of(ChatMessage.user("Which? A or B", List.of()))).from("ocr", 2);
    private static final Function<Choice, String> LETTER = c -> c.text().substring("ANSWER: ".length(), "ANSWER: ".length() + 1);

    private static Choice reply(String text) { return new Choice(text, List.of(), "stop"); }

    @Test void theSamplesAreOneRequestForNChoicesAtTheSamplingTemperatureWithoutLogprobsAndAreCounted() {
        List<ChatRequest> seen = new ArrayList<>();
        ScriptedBackend b = new ScriptedBackend("s", new Capabilities(true, false, 0, true, true, 0), r -> {
            seen.add(r);
            List<Choice> cs = new ArrayList<>();
            for (int i = 0; i < r.n(); i++) cs.add(reply("ANSWER: " + (i == 1 ? "B" : "A")));
            return new ChatResult(cs, new Usage(10, 6, false), Duration.ofMillis(1), "s");
        });
        List<ChatResult> counted = new ArrayList<>();
        List<Choice> samples = new AnswerSampler(SAMPLING, new SemanticUncertainty()).draw(b, GREEDY, counted::add);
        assertThat(seen).hasSize(1);
        ChatRequest sent = seen.get(0);
        assertThat(sent.n()).isEqualTo(3);
        assertThat(sent.temperature()).isEqualTo(0.8);
        assertThat(sent.logprobs()).isFalse();
        assertThat(sent.messages()).isEqualTo(GREEDY.messages());
        assertThat(sent.caller()).isEqualTo(GREEDY.caller());
        assertThat(counted).hasSize(1);
        assertThat(samples).extracting(Choice::text).containsExactly("ANSWER: A", "ANSWER: B", "ANSWER: A");
    }

    @Test void onlyAReplyWithoutLogprobsUnderTheSamplingFallbackIsSampled() {
        AnswerSampler sampling = new AnswerSampler(SAMPLING, new SemanticUncertainty());
        assertThat(sampling.applies(reply("ANSWER: A"))).isTrue();
        assertThat(sampling.applies(new Choice("ANSWER: A", List.of(new TokenLogprob("A", -0.1, List.of())), "stop"))).isFalse();
        assertThat(new AnswerSampler(UncertaintyFallback.SEMANTIC, new SemanticUncertainty()).applies(reply("ANSWER: A"))).isFalse();
    }

    @Test void multipleChoiceReadsTheAnswersShareOfTheSmoothedSampleFrequencies() {
        AnswerSampler s = new AnswerSampler(SAMPLING, new SemanticUncertainty());
        List<Choice> samples = List.of(reply("ANSWER: B"), reply("ANSWER: A"), reply("ANSWER: A"));
        AnswerSampler.Sampled got = s.options("A", samples, LETTER, List.of("A", "B", "C"), "A.");
        assertThat(got.keys()).containsExactly("B", "A", "A");
        assertThat(got.uncertainty().signal()).isEqualTo(UncertaintySignal.SAMPLING);
        // p(A) = (2 + 1/3) / 4; U = (1 − p(A))·3/2
        double pa = (2 + 1.0 / 3) / 4;
        assertThat(got.distribution().get("A")).isCloseTo(pa, within(1e-12));
        assertThat(got.uncertainty().value()).isCloseTo((1 - pa) * 1.5, within(1e-12));
        // an answer the samples never gave is as uncertain as can be
        assertThat(s.options("C", samples, LETTER, List.of("A", "B", "C"), "C.").uncertainty().value()).isEqualTo(1.0);
    }

    @Test void aHedgeOrReportedConfidenceOfTheAnswerIsThePseudoSampleInsteadOfUniform() {
        AnswerSampler s = new AnswerSampler(SAMPLING, new SemanticUncertainty());
        List<Choice> samples = List.of(reply("ANSWER: A"), reply("ANSWER: A"), reply("ANSWER: A"));
        String text = "A.\nCONFIDENCE: 0.4";
        double phi = new SemanticUncertainty().of(text);
        AnswerSampler.Sampled got = s.options("A", samples, LETTER, List.of("A", "B"), text);
        // the pseudo-sample is the reply's own word, Φ_sem's smoothed one-hot: q(A) = 1 − Φ_sem/2
        double pa = (3 + (1 - phi / 2)) / 4;
        assertThat(got.distribution().get("A")).isCloseTo(pa, within(1e-12));
        assertThat(got.uncertainty().value()).isCloseTo((1 - pa) * 2, within(1e-12));
        // a confident reply whose samples agree is more certain than the uniform pseudo-sample allows ...
        double uniform = (1 - (3 + 0.5) / 4) * 2;
        AnswerSampler.Sampled sure = s.options("A", samples, LETTER, List.of("A", "B"), "A.\nCONFIDENCE: 0.99");
        assertThat(sure.uncertainty().value()).isLessThan(uniform / 4);
        // ... yet samples that disagree outweigh it: one pseudo-sample against n
        List<Choice> split = List.of(reply("ANSWER: B"), reply("ANSWER: B"), reply("ANSWER: A"));
        assertThat(s.options("A", split, LETTER, List.of("A", "B"), "A.\nCONFIDENCE: 0.99").uncertainty().value()).isGreaterThan(0.5);
        // without a hedge or a reported confidence Φ_sem is a constant that says nothing: the pseudo-sample is uniform
        assertThat(s.options("A", samples, LETTER, List.of("A", "B"), "A.").uncertainty().value()).isCloseTo(uniform, within(1e-12));
    }

    @Test void anOpenAnswersHedgeCountsAsOneMoreSample() {
        AnswerSampler s = new AnswerSampler(SAMPLING, new SemanticUncertainty());
        List<Choice> samples = List.of(reply("red car"), reply("red car"), reply("red car"));
        String text = "probably a red car";
        double phi = new SemanticUncertainty().of(text);
        AnswerSampler.Sampled got = s.open("red car", samples, Choice::text, Similarity.lexical(), text);
        assertThat(got.uncertainty().value()).isCloseTo((3 * 0 + phi) / 4, within(1e-12));
        assertThat(s.open("red car", samples, Choice::text, Similarity.lexical(), "a red car").uncertainty().value()).isCloseTo(0, within(1e-12));
    }

    @Test void openAnswersUseTheMeanPairwiseSimilarityOfTheAnswerAndItsSamples() {
        AnswerSampler s = new AnswerSampler(SAMPLING, new SemanticUncertainty());
        List<Choice> samples = List.of(reply("a red car"), reply(""));
        AnswerSampler.Sampled got = s.open("red car", samples, c -> c.text().isBlank() ? null : c.text(), Similarity.lexical(), "");
        // Jaccard("red car", "a red car") = 2/3; the unreadable sample is similarity 0 to both: mean over 3 pairs
        assertThat(got.uncertainty().value()).isCloseTo(1 - (2.0 / 3) / 3, within(1e-12));
        assertThat(got.keys()).containsExactly("a red car", null);
    }

    @Test void theConfigNamesTheKeyOfABadValue() {
        Config c = Config.defaults().withOverrides(Map.of("gam.uncertainty_fallback", "votes"));
        assertThatThrownBy(() -> UncertaintyFallback.from(c, "gam")).hasMessageContaining("gam.uncertainty_fallback")
                .hasMessageContaining("sampling");
        Config one = Config.defaults().withOverrides(Map.of("dream.uncertainty_fallback", "sampling", "dream.samples", "1"));
        assertThatThrownBy(() -> UncertaintyFallback.from(one, "dream")).hasMessageContaining("dream.samples");
        assertThat(UncertaintyFallback.from(Config.defaults(), "gam")).isEqualTo(UncertaintyFallback.SEMANTIC);
        assertThat(UncertaintyFallback.from(Config.defaults().withOverrides(Map.of("gam.uncertainty_fallback", "sampling")), "gam"))
                .isEqualTo(new UncertaintyFallback(true, 3, 1.0));
    }
}
