package dev.gamagent.image.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The frame numbers are VLMEvalKit's: every expected list below is what its own functions return
 * (vlmeval/dataset/mvbench.py at e8e78f05, {@code MVBench.get_index}, {@code MVBench_MP4.get_index_by_frame}
 * and {@code get_index_by_fps}, run with Python 3 and NumPy 2.4 on the same arguments).
 */
class FrameSelectionTest {
    @Test void uniformFramesAreTheMiddlesOfEqualSegmentsAsVlmEvalKitTakesThem() {
        // get_index(None, fps, max_frame=299, 8): a 10 s clip at 29.97 fps
        assertThat(FrameSelection.uniform(8).indices(0, 299, 29.97)).containsExactly(18, 55, 93, 130, 168, 205, 242, 280);
        assertThat(FrameSelection.uniform(64).indices(0, 299, 29.97)).startsWith(2, 7, 11, 16, 21, 25, 30, 35)
                .endsWith(273, 278, 282, 287, 292, 296).hasSize(64);
        assertThat(FrameSelection.uniform(4).indices(0, 19, 30)).containsExactly(2, 7, 12, 16);
    }

    @Test void boundsInSecondsBecomeFrameNumbersWithPythonsRoundHalfToEven() {
        // get_index((11.1, 19.6), 29.97, 899, 8): an MVBench STAR clip with start and end
        assertThat(FrameSelection.uniform(8).within(11.1, 19.6).indices(0, 899, 29.97)).containsExactly(348, 380, 412, 443, 475, 507, 538, 570);
        // round(2.5) = 2 and round(22.5) = 22 in Python; the segment middles 4.5, 9.5 ... truncate
        assertThat(FrameSelection.uniform(4).within(0.25, 2.25).indices(0, 29, 10)).containsExactly(4, 9, 14, 19);
        assertThat(FrameSelection.uniform(4).within(1.0, 2.0).indices(0, 29, 10)).containsExactly(11, 13, 16, 19);
    }

    @Test void aFrameFolderCountsFromOneAtThreeFramesPerSecondAsMvBenchReadsIt() {
        // get_index((3.2, 9.5), 3, max_frame=40, 8, first_idx=1): a TVQA folder of 40 frames
        FrameSelection tvqa = FrameSelection.uniform(8).within(3.2, 9.5).folder(3, 1);
        assertThat(tvqa.indices(1, 40, tvqa.folderFps())).containsExactly(11, 13, 15, 18, 20, 22, 25, 27);
        assertThat(FrameSelection.uniform(8).folder(3, 1).indices(1, 10, 3)).containsExactly(1, 2, 3, 4, 5, 7, 8, 9);
    }

    @Test void aShortVideoRepeatsFramesOnlyWhenAsked() {
        assertThat(FrameSelection.uniform(8).keepingRepeats().indices(0, 2, 10)).containsExactly(0, 0, 0, 1, 1, 1, 2, 2);
        assertThat(FrameSelection.uniform(8).indices(0, 2, 10)).containsExactly(0, 1, 2);
    }

    @Test void aFrameRateTakesOneFrameEveryPeriodAsGetIndexByFps() {
        assertThat(FrameSelection.rate(1).indices(0, 299, 29.97)).containsExactly(0, 29, 59, 89, 119, 149, 179, 209, 239, 269);
        assertThat(FrameSelection.rate(2).indices(0, 29, 10)).containsExactly(0, 5, 10, 15, 20, 25);
        assertThat(FrameSelection.rate(2).within(1.0, 2.0).indices(0, 29, 10)).containsExactly(10, 15);
        assertThat(FrameSelection.rate(0.1).indices(0, 29, 10)).as("a clip shorter than one period still shows a frame").containsExactly(0);
    }

    @Test void boundsOutsideTheVideoAreANamedError() {
        assertThatThrownBy(() -> FrameSelection.uniform(8).within(50.0, 60.0).indices(0, 29, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("50–60 s hold no frame").hasMessageContaining("frames 0–29");
        assertThatThrownBy(() -> FrameSelection.uniform(8).within(5.0, 2.0)).hasMessageContaining("end (2.0 s) comes before the start");
        assertThatThrownBy(() -> FrameSelection.uniform(0)).hasMessageContaining("--frames must be at least 1");
        assertThatThrownBy(() -> FrameSelection.rate(-1)).hasMessageContaining("fps must be positive");
    }

    @Test void theKeyNamesEverythingThatChangesTheFrames() {
        assertThat(FrameSelection.uniform(8).key()).isEqualTo("n8");
        assertThat(FrameSelection.uniform(8).within(11.1, 19.6).keepingRepeats().key()).isEqualTo("n8_s11.1_e19.6_r");
        assertThat(FrameSelection.rate(1).key()).isEqualTo("fps1");
        assertThat(FrameSelection.uniform(8).within(1.0, null).toString()).isEqualTo("8 frames between 1 s and the end");
    }
}
