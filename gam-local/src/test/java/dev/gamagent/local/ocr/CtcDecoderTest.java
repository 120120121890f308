package dev.gamagent.local.ocr;

import dev.gamagent.local.ocr.TextLine.CharDistribution;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class CtcDecoderTest {
    // Classes: 0 blank, 1 'a', 2 'b', 3 '中', 4 'c', 5 'd', 6 'e', 7 ' '.
    private final CharDictionary dict = CharDictionary.of(List.of("a", "b", "中", "c", "d", "e"));
    private static final int C = 8;

    private static float[] frames(float[]... rows) {
        float[] out = new float[rows.length * C];
        for (int t = 0; t < rows.length; t++) System.arraycopy(rows[t], 0, out, t * C, C);
        return out;
    }

    /** A frame putting {@code p} on class {@code c} and the rest spread over the others. */
    private static float[] peak(int c, float p) {
        float[] row = new float[C];
        for (int i = 0; i < C; i++) row[i] = (1 - p) / (C - 1);
        row[c] = p;
        return row;
    }

    @Test
    void repeatedFramesMergeAndABlankSeparatesADoubledLetter() {
        float[] p = frames(peak(1, 0.7f), peak(1, 0.9f), peak(0, 0.9f), peak(1, 0.8f), peak(2, 0.6f));
        CtcDecoder.Decoded d = new CtcDecoder(dict, null, 5, 0.1).decode(p, 0, 5, C);
        assertThat(d.text()).isEqualTo("aab");
        // The first 'a' is described by its most confident frame (0.9, not 0.7).
        assertThat(d.chars().get(0).top().get(0).probability()).isCloseTo(0.9, within(1e-6));
    }

    @Test
    void eachCharacterKeepsTopKCandidatesSortedWithTheDecodedOneFirst() {
        float[] row = {0.05f, 0.10f, 0.50f, 0.15f, 0.08f, 0.06f, 0.04f, 0.02f};
        CtcDecoder.Decoded d = new CtcDecoder(dict, null, 5, 0.1).decode(frames(row), 0, 1, C);
        CharDistribution dist = d.chars().get(0);
        assertThat(d.text()).isEqualTo("b");
        assertThat(dist.top()).hasSize(5);
        assertThat(dist.top()).extracting(TextLine.Candidate::character).containsExactly("b", "中", "a", "c", "d");
        assertThat(dist.top().stream().mapToDouble(TextLine.Candidate::probability).sum()).isLessThanOrEqualTo(1.0);
    }

    @Test
    void asciiOnlyDecodingSkipsNonAsciiClassesAndRenormalises() {
        float[] row = {0.1f, 0.0f, 0.3f, 0.5f, 0.1f, 0.0f, 0.0f, 0.0f};
        CtcDecoder ascii = new CtcDecoder(dict, dict.asciiMask(), 5, 0.1);
        CtcDecoder.Decoded d = ascii.decode(frames(row), 0, 1, C);
        assertThat(d.text()).isEqualTo("b");
        // Allowed mass is 0.5 (blank 0.1 + b 0.3 + c 0.1), so b → 0.6 and c → 0.2.
        assertThat(d.chars().get(0).top().get(0).probability()).isCloseTo(0.6, within(1e-6));
        assertThat(d.chars().get(0).top()).extracting(TextLine.Candidate::character).doesNotContain("中");
        assertThat(new CtcDecoder(dict, null, 5, 0.1).decode(frames(row), 0, 1, C).text()).isEqualTo("中");
    }

    @Test
    void aBlankRunBecomesASpaceWhenTheInkGapIsWordSized() {
        float[] p = frames(peak(1, 0.9f), peak(0, 0.95f), peak(0, 0.95f), peak(2, 0.9f));
        CtcDecoder dec = new CtcDecoder(dict, null, 5, 0.1);
        assertThat(dec.decode(p, 0, 4, C, (a, b) -> 0.05).text()).isEqualTo("ab");
        CtcDecoder.Decoded spaced = dec.decode(p, 0, 4, C, (a, b) -> 0.5);
        assertThat(spaced.text()).isEqualTo("a b");
        CharDistribution space = spaced.chars().get(1);
        assertThat(space.top().get(0).character()).isEqualTo(" ");
        assertThat(space.top().stream().mapToDouble(TextLine.Candidate::probability).sum()).isLessThanOrEqualTo(1.0 + 1e-6);
    }

    @Test
    void aLeadingSpaceProbabilityNeedsSomeInkGapToCount() {
        float[] gap = {0.8f, 0.01f, 0.01f, 0.01f, 0.01f, 0.01f, 0.01f, 0.14f};
        float[] p = frames(peak(1, 0.9f), gap, peak(2, 0.9f));
        CtcDecoder dec = new CtcDecoder(dict, null, 5, 0.1);
        assertThat(dec.decode(p, 0, 3, C).text()).isEqualTo("a b");
        assertThat(dec.decode(p, 0, 3, C, (a, b) -> 0.0).text()).isEqualTo("ab");
        assertThat(dec.decode(p, 0, 3, C, (a, b) -> 0.25).text()).isEqualTo("a b");
    }

    @Test
    void leadingAndTrailingSpacesAreTrimmed() {
        float[] p = frames(peak(7, 0.9f), peak(1, 0.9f), peak(7, 0.9f));
        CtcDecoder.Decoded d = new CtcDecoder(dict, null, 5, 0.1).decode(p, 0, 3, C);
        assertThat(d.text()).isEqualTo("a");
        assertThat(d.chars()).hasSize(1);
    }

    @Test
    void aModelWithADifferentAlphabetIsRejectedWithAnExplanation() {
        assertThatThrownBy(() -> new CtcDecoder(dict, null, 5, 0.1).decode(new float[10], 0, 1, 10))
                .hasMessageContaining("keys file does not match");
    }
}
