package dev.gamagent.util;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The one home of natural name order (frame files, question ids in the report). */
class NaturalOrderTest {
    @Test
    void digitRunsCompareAsNumbersAndTheRestAsText() {
        List<String> ids = new ArrayList<>(List.of("q10", "q2", "b1", "q1", "q002x", "q2a", "a10", "a9"));
        ids.sort(NaturalOrder.COMPARATOR);
        assertThat(ids).containsExactly("a9", "a10", "b1", "q1", "q2", "q2a", "q002x", "q10");
    }

    @Test
    void leadingZerosAloneMakeNoDifferenceAndAPrefixComesFirst() {
        assertThat(NaturalOrder.compare("q01", "q1")).isZero();
        assertThat(NaturalOrder.compare("frame", "frame1")).isNegative();
        assertThat(NaturalOrder.compare("frame007", "frame10")).isNegative();
        assertThat(NaturalOrder.compare("9", "10")).isNegative();
    }
}
