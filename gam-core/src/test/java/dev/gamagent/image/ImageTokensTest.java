package dev.gamagent.image;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.gamagent.image.internal.ImageTokens;

/**
 * Each family's published rule on five sizes, every expected value worked out by hand from the rule (the arithmetic is
 * beside it), so a rule that drifts from its processor fails here. Sources in {@link ImageTokens}'s javadoc.
 */
class ImageTokensTest {
    private static long tokens(String family, int w, int h) { return ImageTokens.estimate(family, w, h); }

    /** smart_resize, factor 28, min_pixels 3,136, max_pixels 12,845,056 (Qwen2.5-VL-7B-Instruct's preprocessor_config.json). */
    @Test void qwenRoundsToMultiplesOf28WithinItsPixelBudget() {
        // 448/28 = 16, 336/28 = 12: 16·12
        assertThat(tokens("qwen", 448, 336)).isEqualTo(192);
        // 70/28 = 2.5 rounds to even, 2: 56×56 = 3,136, not below min_pixels: 2·2 (half-up rounding would give 9)
        assertThat(tokens("qwen", 70, 70)).isEqualTo(4);
        // 768/28 = 27.43 → 27, 576/28 = 20.57 → 21: 27·21
        assertThat(tokens("qwen", 768, 576)).isEqualTo(567);
        // DREAM's 2× copy of it: 1536/28 = 54.86 → 55, 1152/28 = 41.14 → 41: 55·41, four times the 1× image
        assertThat(tokens("qwen", 1536, 1152)).isEqualTo(2255);
        // 8008·5992 = 47,983,936 > max_pixels: β = √(48,000,000 / 12,845,056) = 1.93311;
        // ⌊6000/β/28⌋ = ⌊110.85⌋ = 110, ⌊8000/β/28⌋ = ⌊147.80⌋ = 147: 110·147
        assertThat(tokens("qwen", 8000, 6000)).isEqualTo(16170);
        assertThat(tokens("qwen2.5-vl", 448, 336)).isEqualTo(192);
    }

    /** An image upscaled past max_pixels costs what the budget costs: DREAM's 2× and 4× copies are no dearer. */
    @Test void qwenAboveItsMaxPixelsCostsNoMore() {
        // 1540·1148 > 1,003,520: β = √(1536·1152 / 1,003,520) = 1.32788; ⌊1152/β/28⌋ = ⌊30.98⌋ = 30, ⌊1536/β/28⌋ = ⌊41.31⌋ = 41
        assertThat(tokens("qwen:max_pixels=1003520", 1536, 1152)).isEqualTo(30 * 41);
        // 4×: β = 2.65576, the same 30 and 41
        assertThat(tokens("qwen:max_pixels=1003520", 3072, 2304)).isEqualTo(30 * 41);
        assertThat(tokens("qwen:max_pixels=1003520", 768, 576)).isEqualTo(567);
    }

    /** VLMEvalKit's Qwen2.5-VL wrapper: min_pixels 1,280·28² = 1,003,520, so a small image and its 2× copy cost the same. */
    @Test void qwenBelowItsMinPixelsIsUpscaledToTheFloor() {
        // 150,528 < 1,003,520: β = √(1,003,520 / 150,528) = 2.58199; ⌈336·β/28⌉ = ⌈30.98⌉ = 31, ⌈448·β/28⌉ = ⌈41.31⌉ = 42
        assertThat(tokens("qwen-vlmevalkit", 448, 336)).isEqualTo(31 * 42).isEqualTo(1302);
        // 896·672 = 602,112, still below: β = 1.29099, the same 31 and 42
        assertThat(tokens("qwen-vlmevalkit", 896, 672)).isEqualTo(1302);
        assertThat(tokens("qwen-vlmevalkit", 224, 168)).isEqualTo(1302);
    }

    /** dynamic_preprocess: 448-px tiles, 1..12 of them, the grid nearest the aspect ratio, + a thumbnail; 256 a tile. */
    @Test void internVlTilesByAspectRatioAndAddsAThumbnail() {
        // aspect 1: (1,1) first; (2,2) ties but 448² = 200,704 is not above ½·448²·4: one tile, no thumbnail
        assertThat(tokens("internvl", 448, 448)).isEqualTo(256);
        // aspect 4/3: the 4×3 grid matches exactly (12 tiles) whatever the size; + thumbnail: 13·256
        assertThat(tokens("internvl", 448, 336)).isEqualTo(13 * 256).isEqualTo(3328);
        // aspect 5: 5×1 matches exactly: 5 + 1 = 6 tiles
        assertThat(tokens("internvl", 1000, 200)).isEqualTo(6 * 256);
        // aspect 1 again, but 1024² = 1,048,576 > ½·448²·4 = 401,408 and > ½·448²·9 = 903,168: ties go to 3×3; 9 + 1
        assertThat(tokens("internvl", 1024, 1024)).isEqualTo(10 * 256);
        // aspect 0.3: 1/3 and 2/6 are nearest (0.0333); 300,000 is not above ½·448²·12: 1×3, 3 + 1
        assertThat(tokens("internvl", 300, 1000)).isEqualTo(4 * 256);
        // VLMEvalKit's 6 tiles: 4×3 is out of reach, 3×2 (aspect 1.5) is nearest: 6 + 1
        assertThat(tokens("internvl-vlmevalkit", 448, 336)).isEqualTo(7 * 256);
    }

    /** Gemma 3: every image resized to 896², 256 tokens; pan and scan off. */
    @Test void gemma3CostsTheSameForEverySize() {
        for (int[] s : new int[][]{{448, 336}, {70, 70}, {896, 672}, {4000, 3000}, {1000, 200}}) {
            assertThat(tokens("gemma3", s[0], s[1])).as("%dx%d", s[0], s[1]).isEqualTo(256);
        }
    }

    /** llava-v1.6: best pinpoint, 24×24 features a tile, unpadded to the aspect ratio, a newline a row, + 576 base. */
    @Test void llavaNextCountsTheUnpaddedGridItsNewlinesAndTheBaseImage() {
        // 672×336 keeps all 150,528 px with the least waste: 2×1 tiles, map 24×48; aspect 1.33 < 2: width
        // int(448·24/336) = 32, padding (48−32)/2 = 8 a side: 24×32; 576 + 24·32 + 24
        assertThat(tokens("llava-next", 448, 336)).isEqualTo(576 + 768 + 24);
        // 672×672 (all 250,000 px): map 48×48, no padding: 576 + 48·48 + 48
        assertThat(tokens("llava-next", 500, 500)).isEqualTo(576 + 2304 + 48);
        // 1008×336: map 24×72; aspect 5 > 3: height int(200·72/1000) = 14, padding 5 a side: 14×72; 576 + 1008 + 14
        assertThat(tokens("llava-next", 1000, 200)).isEqualTo(1598);
        // 672×672 keeps 672×504 = 338,688 px (1008×336 keeps 150,528): map 48×48; aspect 1.33 > 1: height
        // int(576·48/768) = 36, padding 6: 36×48; 576 + 1728 + 36
        assertThat(tokens("llava-next", 768, 576)).isEqualTo(2340);
        // 336×1008 keeps all 300,000 px: map 72×24; aspect 0.3 < 0.33: width int(300·72/1000) = 21, padding 1: 72×22;
        // 576 + 1584 + 72
        assertThat(tokens("llava-next", 300, 1000)).isEqualTo(2232);
    }

    /** OpenAI detail: low 85; high fits 2048², shorter side ≤ 768, 170 a 512-px tile + 85 (the guide's own examples first). */
    @Test void openAiDetailTiles() {
        // the guide: 1024² → 768², 4 tiles: 170·4 + 85
        assertThat(tokens("openai", 1024, 1024)).isEqualTo(765);
        // the guide: 2048×4096 → 1024×2048 → 768×1536, 2×3 tiles: 170·6 + 85
        assertThat(tokens("openai", 2048, 4096)).isEqualTo(1105);
        // no resize, one tile: 170 + 85
        assertThat(tokens("openai", 448, 336)).isEqualTo(255);
        // 513 needs two tiles across: 170·2 + 85
        assertThat(tokens("openai", 513, 500)).isEqualTo(425);
        // shorter side 300 stays; ⌈1200/512⌉ = 3 tiles: 170·3 + 85
        assertThat(tokens("openai", 1200, 300)).isEqualTo(595);
        // the guide: low detail costs 85 at any size
        assertThat(tokens("openai-low", 4096, 8192)).isEqualTo(85);
    }

    /** GPT-4.1's 32-px patches, capped at 1,536 (the guide's two examples), times the model's factor. */
    @Test void openAiPatches() {
        assertThat(tokens("openai-patches", 1024, 1024)).isEqualTo(32 * 32);
        // 57·75 = 4,275 > 1,536: shrink 0.603 → 1086×1448; width 33.94 → 33 patches: ×0.97 → 1056×1408: 33·44
        assertThat(tokens("gpt-4.1", 1800, 2400)).isEqualTo(1452);
        assertThat(tokens("gpt-4.1-mini", 1800, 2400)).isEqualTo(Math.round(1452 * 1.62));
    }

    @Test void aFamilyIsNamedWithItsSettingsAndUnknownNamesAreRefused() {
        assertThat(ImageTokens.rule("qwen").spec()).isEqualTo("qwen:min_pixels=3136,max_pixels=12845056");
        assertThat(ImageTokens.rule("internvl:max_num=6").spec()).isEqualTo("internvl:min_num=1,max_num=6");
        assertThatThrownBy(() -> ImageTokens.rule("qwen2-vl")).hasMessageContaining("unknown image-token family 'qwen2-vl'")
                .hasMessageContaining("qwen, ");
        assertThatThrownBy(() -> ImageTokens.rule("qwen:max_pixel=5")).hasMessageContaining("has no setting 'max_pixel'");
        assertThatThrownBy(() -> ImageTokens.rule("qwen:min_pixels=9000000,max_pixels=1003520")).hasMessageContaining("above max_pixels");
        assertThatThrownBy(() -> ImageTokens.rule("openai:detail=auto")).hasMessageContaining("detail must be one of");
    }
}
