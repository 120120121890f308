package dev.gamagent.local.vision;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The one home of the per-channel median colour (object colours, blob interiors, text surfaces). */
class ChannelMedianTest {
    @Test
    void eachChannelTakesItsOwnLowerMedian() {
        ChannelMedian m = new ChannelMedian();
        for (int rgb : new int[] {0x102030, 0x405060, 0xFF0000, 0x00FF00}) m.add(rgb);
        assertThat(m.count()).isEqualTo(4);
        // red 0x00,0x10,0x40,0xFF → 0x10; green 0x00,0x20,0x50,0xFF → 0x20; blue 0x00,0x00,0x30,0x60 → 0x00
        assertThat(m.rgb()).isEqualTo(0x102000);
    }

    @Test
    void aMinorityOfStrokesDoesNotMoveTheSurfaceColourAndNothingAddedIsBlack() {
        ChannelMedian m = new ChannelMedian();
        for (int i = 0; i < 7; i++) m.add(0xF0E0D0);
        for (int i = 0; i < 3; i++) m.add(0x000000);
        assertThat(m.rgb()).isEqualTo(0xF0E0D0);
        assertThat(new ChannelMedian().rgb()).isZero();
    }
}
