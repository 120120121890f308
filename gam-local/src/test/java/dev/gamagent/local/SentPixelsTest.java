package dev.gamagent.local;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.image.Picture;
import dev.gamagent.image.Region;
import dev.gamagent.local.ocr.OcrEngine;
import dev.gamagent.local.ocr.PpOcrEngine;
import dev.gamagent.local.ocr.PpOcrOptions;
import dev.gamagent.local.ocr.TextLine;
import dev.gamagent.local.vision.ClassicalSceneAnalyzer;
import dev.gamagent.local.vision.CoreSegmenter;
import dev.gamagent.local.vision.Scene;
import dev.gamagent.local.vision.SceneAnalyzer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The built-in model perceives only the pixels a request contains (issue 39): every image its instruments are handed is
 * a whole image of the request, at its size as sent or smaller (a sampled look's scale), never a region it cropped
 * itself nor an enlarged copy. Answers, critiques (with and without the controller's zoomed crops), revisions after
 * peers that name a region, and sampled calls are all checked over the real engines, each wrapped to record what it
 * was given.
 */
class SentPixelsTest {
    /** Every image handed to an instrument, as width × height. */
    static final List<int[]> seen = Collections.synchronizedList(new ArrayList<>());
    static LocalBackend backend;

    record RecordingOcr(OcrEngine inner) implements OcrEngine {
        @Override public List<TextLine> read(BufferedImage image) {
            seen.add(new int[]{image.getWidth(), image.getHeight()});
            return inner.read(image);
        }

        @Override public TextLine readLine(BufferedImage lineImage) { return inner.readLine(lineImage); }

        @Override public void close() { inner.close(); }
    }

    record RecordingAnalyzer(SceneAnalyzer inner) implements SceneAnalyzer {
        @Override public Scene analyze(BufferedImage image) {
            seen.add(new int[]{image.getWidth(), image.getHeight()});
            return inner.analyze(image);
        }

        @Override public Scene analyze(BufferedImage image, int[] denoised) {
            seen.add(new int[]{image.getWidth(), image.getHeight()});
            return inner.analyze(image, denoised);
        }

        @Override public SceneAnalyzer atThreshold(int level) { return new RecordingAnalyzer(inner.atThreshold(level)); }
    }

    @BeforeAll
    static void open() {
        PpOcrOptions v4 = PpOcrOptions.defaults().withCacheSize(0);
        LocalPerception perception = new LocalPerception(new RecordingOcr(PpOcrEngine.create(v4)),
                () -> new RecordingOcr(PpOcrEngine.create(v4.withModels(PpOcrEngine.V3_DET, PpOcrEngine.V3_REC))),
                new RecordingAnalyzer(new ClassicalSceneAnalyzer()), new RecordingAnalyzer(new CoreSegmenter()), 64);
        backend = new LocalBackend(perception);
    }

    @AfterAll
    static void close() { backend.close(); }

    @BeforeEach
    void clear() { seen.clear(); }

    static final String SIGN = "What word is written on the sign?\nA. ocean\nB. open\nC. opcn";

    /**
     * The sign of {@link RealPanelTest#sign()} with one pixel of its own per test, so no test's perception is a cache
     * hit of another's and every test sees its instruments run.
     */
    static Picture sign(int variant) {
        BufferedImage img = RealPanelTest.sign().image();
        img.setRGB(1 + variant, 1, 0xFFEEEEEE - variant);
        return new Picture("sign-" + variant, img);
    }

    /** Sizes the instruments may be handed for these sent images: each whole, at 1 or a sampled look's scale. */
    static List<int[]> allowed(List<Picture> sent) {
        List<int[]> out = new ArrayList<>();
        for (Picture p : sent) {
            for (double s : Calibration.SCALES) {
                Picture q = s == 1.0 ? p : p.scaled(s, LocalPerception.MAX_IMAGE_PIXELS);
                out.add(new int[]{q.width(), q.height()});
            }
        }
        return out;
    }

    static void onlySentPixels(List<Picture> sent) {
        List<int[]> ok = allowed(sent);
        assertThat(seen).as("the instruments ran").isNotEmpty();
        for (int[] s : List.copyOf(seen)) {
            assertThat(ok.stream().anyMatch(a -> a[0] == s[0] && a[1] == s[1]))
                    .as("an instrument was handed a %dx%d image; sent: %s", s[0], s[1],
                            sent.stream().map(p -> p.width() + "x" + p.height()).toList())
                    .isTrue();
        }
    }

    static String chat(String user, List<Picture> images, double temperature, int n) {
        var req = ChatRequest.of(List.of(ChatMessage.user(user, images)));
        if (temperature > 0) req = req.withSampling(temperature, 256, n, 7L);
        var result = backend.chat(req);
        return result.choices().get(0).text();
    }

    @Test
    void answersOfEveryRoleUseOnlyTheImageAsSent() {
        List<Picture> sent = List.of(sign(1));
        chat(SIGN + "\nAnswer with the option's letter from the given choices directly.", sent, 0, 1);
        for (String role : List.of("scene expert", "ocr expert", "relational expert", "object expert", "attribute expert")) {
            chat(PanelTest.tagged(role, "answer", SIGN) + PanelTest.LINES, sent, 0, 1);
        }
        chat(SIGN + "\nAnswer with the option's letter from the given choices directly.", sent, 0.7, 5);
        onlySentPixels(sent);
    }

    @Test
    void aCritiqueAttendsToTheClaimedRegionWithoutEnlargingIt() {
        List<Picture> sent = List.of(sign(2));
        for (String critic : List.of("fact checker", "completeness checker", "logic checker")) {
            String reply = chat(PanelTest.tagged(critic, "critique", SIGN) + CLAIMS, sent, 0, 1);
            assertThat(reply).as(critic).doesNotContain("enlarged").doesNotContain("at 2.0x").doesNotContain("at 2x");
        }
        onlySentPixels(sent);
    }

    @Test
    void aZoomedCropTheControllerSentIsReadAsSent() {
        Picture sign = sign(3);
        Picture crop = sign.crop(new Region(0.35, 0.16, 0.61, 0.29).expand(0.15));
        Picture zoom = crop.scaled(3.0, LocalPerception.MAX_IMAGE_PIXELS);
        List<Picture> sent = List.of(sign, zoom);
        String prompt = PanelTest.tagged("fact checker", "critique", SIGN)
                .replace("</question>", "</question>\nZoomed crops: image 2 = zoom on CLAIM 2.") + CLAIMS;
        String reply = chat(prompt, sent, 0, 1);
        assertThat(reply.split("\n")[1]).as("claim 2 is checked on the crop it was sent").contains("the zoomed crop sent");
        onlySentPixels(sent);
    }

    @Test
    void aRevisionAfterAPeerNamingARegionLooksAgainAtTheImageAsSent() {
        List<Picture> sent = List.of(sign(4));
        String prompt = PanelTest.tagged("ocr expert", "revise", SIGN) + """

                <previous>
                ANSWER: A
                CLAIM 1 [region=0.40,0.47,0.57,0.55]: The sign reads "ocean"
                </previous>
                <peer id="scene" weight="0.60">
                ANSWER: B
                CLAIM 1 [region=0.35,0.16,0.61,0.29]: The sign reads "open"
                </peer>
                """ + PanelTest.LINES;
        chat(prompt, sent, 0, 1);
        onlySentPixels(sent);
    }

    @Test
    void aLookNeverEnlarges() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Look(Sight.Reader.V4, Sight.Segmentation.CLASSICAL, 1.18, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never enlarges");
        for (double s : Calibration.SCALES) assertThat(s).isLessThanOrEqualTo(1.0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> backend.perception().sight(RealPanelTest.sign(), 2.0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never enlarges");
    }

    static final String CLAIMS = """

            <claims>
            CLAIM 1 [expert=agent, confidence=0.90, region=0.40,0.47,0.57,0.55]: The sign reads "ocean"
            CLAIM 2 [expert=scene, confidence=0.60, region=0.35,0.16,0.61,0.29]: The sign reads "open"
            </claims>
            CLAIM n: ACCURATE|PARTIALLY ACCURATE|INACCURATE | REASON: ... | CORRECTION: ... | CONFIDENCE: <0..1>""";
}
