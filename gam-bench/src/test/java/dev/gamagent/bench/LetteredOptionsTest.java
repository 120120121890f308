package dev.gamagent.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The one home of lettering a generated question's options (image questions' Draft and video questions alike). */
class LetteredOptionsTest {
    @Test
    void theCorrectValueGoesWhereOneDrawOfTheSourceSaysAndKeepsItsLetter() {
        for (long seed = 0; seed < 20; seed++) {
            int at = new Random(seed).nextInt(4);
            LetteredOptions o = LetteredOptions.place("red", List.of("blue", "green", "gray"), new Random(seed));
            assertThat(o.options().keySet()).containsExactly("A", "B", "C", "D");
            assertThat(o.answer()).isEqualTo(String.valueOf((char) ('A' + at)));
            assertThat(o.options().get(o.answer())).isEqualTo("red");
            assertThat(o.options().values()).containsSubsequence("blue", "green", "gray");
        }
    }

    @Test
    void twoOptionsAreLetteredAAndB() {
        LetteredOptions o = LetteredOptions.place("3", List.of("4"), new Random(1));
        assertThat(o.options()).hasSize(2).containsKeys("A", "B").containsValues("3", "4");
    }
}
