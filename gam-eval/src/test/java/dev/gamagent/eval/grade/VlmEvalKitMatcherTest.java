package dev.gamagent.eval.grade;

import dev.gamagent.eval.grade.VlmEvalKitMatcher.Match;
import dev.gamagent.eval.grade.VlmEvalKitMatcher.Rules;
import dev.gamagent.eval.grade.VlmEvalKitMatcher.Step;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** VLMEvalKit's can_infer, quirks included, in each rule set; replies are real VILA-1.5 replies or shaped like them. */
class VlmEvalKitMatcherTest {
    private static Map<String, String> opts(String... texts) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < texts.length; i++) m.put(String.valueOf((char) ('A' + i)), texts[i]);
        return m;
    }

    private static Match infer(String reply, Map<String, String> o, Rules r) { return VlmEvalKitMatcher.infer(reply, o, r); }

    @Test void theArticleAIsReadAsOptionAIn2024() {
        // VILA-1.5 8B, ScienceQA: VLMEvalKit recorded hit 0 with the log of a successful match, i.e. it read "A"
        String reply = "A flag is a piece of cloth with a distinctive design, used as a symbol. The flag is black";
        Map<String, String> o = opts("Red", "Black");
        assertThat(infer(reply, o, Rules.V2024)).isEqualTo(new Match("A", Step.OPTION));
        // from 2025 the letter must be among the last four tokens, and a reply this long is not text-matched
        assertThat(infer(reply, o, Rules.V2025)).isEqualTo(new Match(null, Step.NONE));
        assertThat(infer(reply, o, Rules.V2026)).isEqualTo(new Match(null, Step.NONE));
    }

    @Test void twoOptionLettersMatchNothing() {
        Map<String, String> o = opts("stack {1, 2}", "stack {3}", "queue");
        assertThat(infer("A. stack {1, 2} B. stack {3}", o, Rules.V2024).matched()).isFalse();
        assertThat(infer("A. D", opts("D", "E", "C", "A"), Rules.V2024)).isEqualTo(new Match(null, Step.NONE));
    }

    @Test void refusalsAndALoneZAreZ() {
        Map<String, String> o = opts("cat", "dog");
        for (Rules r : Rules.values()) {
            assertThat(infer("Sorry, I can't help with images of people yet.", o, r)).isEqualTo(new Match("Z", Step.REFUSAL));
            assertThat(infer("I'm sorry, but without the image provided I cannot say", o, r).letter()).isEqualTo("Z");
            assertThat(infer("Cannot determine the answer.", o, r).letter()).isEqualTo("Z");
            assertThat(infer("Z", o, r)).isEqualTo(new Match("Z", Step.Z));
            // a refusal phrase wins over an option letter
            assertThat(infer("B? I can't process this file.", o, r).letter()).isEqualTo("Z");
        }
    }

    @Test void anApiFailureSkipsTheOptionRulesButNotTextMatching() {
        Map<String, String> o = opts("cat", "dog");
        assertThat(infer("Failed to obtain answer via API. B", o, Rules.V2024)).isEqualTo(new Match(null, Step.NONE));
        assertThat(infer("Failed to obtain answer via API: dog", o, Rules.V2024)).isEqualTo(new Match("B", Step.TEXT));
    }

    @Test void textMatchingNeedsExactlyOneOptionTextAndFrom2025ALengthLimit() {
        Map<String, String> o = opts("solid", "liquid", "gas");
        assertThat(infer("it is a liquid", o, Rules.V2024)).isEqualTo(new Match("B", Step.TEXT));
        assertThat(infer("Solid, liquid, and gas are states of matter", o, Rules.V2024).matched()).isFalse();
        // "solid"+"liquid"+"gas" = 14 characters: 28 is the longest reply 2025 still reads
        String longReply = "the thing in the picture is liquid!!!"; // 37 characters
        assertThat(infer(longReply, o, Rules.V2024).letter()).isEqualTo("B");
        assertThat(infer(longReply, o, Rules.V2025).matched()).isFalse();
        assertThat(infer("x".repeat(22) + "liquid", o, Rules.V2025).letter()).isEqualTo("B"); // exactly 28
        assertThat(infer("x".repeat(23) + "liquid", o, Rules.V2025).matched()).isFalse();
    }

    @Test void from2025TheLetterMustBeAmongTheLastFourTokens() {
        Map<String, String> o = opts("cat", "dog");
        assertThat(infer("the answer here is B", o, Rules.V2025).letter()).isEqualTo("B");        // index 4 > 5 - 5
        assertThat(infer("B because it barks and wags", o, Rules.V2025).matched()).isFalse();     // index 0, 6 tokens
        assertThat(infer("B because it barks and wags", o, Rules.V2024).letter()).isEqualTo("B");
    }

    @Test void in2026TheAnswerIsXWinsWhenTheTokensDoNotAndReadsALowerCaseLetterToo() {
        Map<String, String> o = opts("cat", "dog", "cow", "pig");
        String reply = "A figure shows active flexures when it is in a position of flexion. The answer is C.";
        assertThat(infer(reply, o, Rules.V2024).matched()).isFalse();           // A and C: two letters
        assertThat(infer(reply, o, Rules.V2026)).isEqualTo(new Match("C", Step.ANSWER_IS));
        assertThat(infer("The correct answer is **D**, as shown. A cat is there.", o, Rules.V2026).letter()).isEqualTo("D");
        // the pattern is case-insensitive: "answer is a" is option A (a quirk kept on purpose)
        assertThat(infer("I believe the answer is a small dog and a cow", o, Rules.V2026).letter()).isEqualTo("A");
        // only A-D: "answer is E" does not count even when E is an option
        assertThat(infer("The letters A and B are wrong; the answer is E", opts("a", "b", "c", "d", "e"), Rules.V2026).matched()).isFalse();
    }

    @Test void tokensSplitOnPythonWhitespaceAndLengthsCountCodePoints() {
        Map<String, String> o = opts("cat", "dog");
        assertThat(infer("answer:\u3000B", o, Rules.V2024).letter()).isEqualTo("B");           // ideographic space separates
        assertThat(infer("answer \u200bB", o, Rules.V2024).matched()).isFalse();               // zero-width space does not
        assertThat(VlmEvalKitMatcher.pySplit(" a\u00a0b\u2028c\u001fd ")).containsExactly("a", "b", "c", "d");
        // "cat"+"dog" = 6, so 12 code points are read; four emoji are 8 UTF-16 units but 4 code points
        assertThat(infer("\uD83D\uDC31\uD83D\uDC31\uD83D\uDC31\uD83D\uDC31 a dog!", o, Rules.V2025).letter()).isEqualTo("B");
    }

    @Test void ruleSetsAreNamedByLabelOrYear() {
        assertThat(Rules.of("vlmevalkit")).isEqualTo(Rules.latest());
        assertThat(Rules.of("2024")).isEqualTo(Rules.V2024);
        assertThat(Rules.of("vlmevalkit-2025")).isEqualTo(Rules.V2025);
        assertThatThrownBy(() -> Rules.of("2023")).hasMessageContaining("vlmevalkit-2024");
        assertThat(GradingMode.of("extended").isVlmEvalKit()).isFalse();
        assertThatThrownBy(() -> GradingMode.of("loose")).hasMessageContaining("extended");
    }
}
