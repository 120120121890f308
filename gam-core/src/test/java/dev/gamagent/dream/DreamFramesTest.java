package dev.gamagent.dream;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.MethodFixtures.Reply;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/** DREAM on a video question: the probe sends every frame at its scale and counts their pixels (docs/video.md). */
class DreamFramesTest {
    /** A 3-frame clip of 200×100 frames; frame f is filled with grey level 60·f, so a picture names its frame by its pixels. */
    static Question clip() {
        List<Picture> frames = new ArrayList<>();
        for (int f = 1; f <= 3; f++) {
            BufferedImage img = new BufferedImage(200, 100, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = img.createGraphics();
            g.setColor(new Color(60 * f, 60 * f, 60 * f));
            g.fillRect(0, 0, 200, 100);
            g.dispose();
            frames.add(new Picture("clip.mp4#frame-" + (10 * f), img));
        }
        Map<String, String> opts = new LinkedHashMap<>();
        opts.put("A", "left");
        opts.put("B", "right");
        return Question.of("v1", frames, "Which way does the square move?", opts);
    }

    static int frameOf(Picture p) { return Math.round((p.image().getRGB(p.width() / 2, p.height() / 2) & 0xff) / 60f); }

    static String size(Picture p) { return p.width() + "x" + p.height(); }

    @SuppressWarnings("unchecked")
    static List<Probe> probes(Answer a) { return (List<Probe>) a.trace().extra().get("probes"); }

    @Test void everyFrameOfTheRequestIsSentAtTheProbesScaleAndCounted() {
        ScriptedBackend b = backend(caps(true, false, 0),
                u -> Reply.of("ANSWER: B\nCLAIM 1: the square is at the right | CONFIDENCE: 0.9 | FRAME: 3\nCONFIDENCE: 0.9", 0.9));
        Answer a = MethodRegistry.create("dream+gam").run(clip(), context(b));
        List<Probe> probes = probes(a);
        assertThat(probes).hasSize(9); // 3 experts × scales 0.5, 1, 2
        for (Probe p : probes) {
            int w = (int) Math.round(200 * p.scale()), h = (int) Math.round(100 * p.scale());
            assertThat(p.frames()).as("frames of %s ×%s", p.agent(), p.scale()).isEqualTo(3);
            assertThat(p.width()).isEqualTo(w);
            assertThat(p.pixels()).as("pixels of %s ×%s", p.agent(), p.scale()).isEqualTo(3L * w * h);
        }
        // the probe requests (sent before anything else): each carries the 3 frames in time order, all at one scale
        List<ChatRequest> sent;
        synchronized (b.requests) { sent = List.copyOf(b.requests.subList(0, 9)); }
        List<String> scalesSeen = new ArrayList<>();
        for (ChatRequest r : sent) {
            List<Picture> pics = images(r);
            assertThat(pics).extracting(DreamFramesTest::frameOf).containsExactly(1, 2, 3);
            assertThat(pics).extracting(DreamFramesTest::size).containsOnly(size(pics.get(0)));
            scalesSeen.add(size(pics.get(0)));
        }
        assertThat(scalesSeen).containsOnly("100x50", "200x100", "400x200");
        // the trace says so: frames and pixels per probe
        var json = Json.MAPPER.valueToTree(a.trace());
        assertThat(json.path("extra").path("probes").get(0).path("frames").asInt()).isEqualTo(3);
        assertThat(json.path("extra").path("probes").get(0).path("pixels").asLong()).isEqualTo(3L * 100 * 50);
    }

    @Test void thePixelCapActsOnEachFrameAndRepeatedSizesAreProbedOnce() {
        // a cap of 20,000 pixels per image: ×2 (400×200) is capped to 200×100, the size ×1 already probed
        ScriptedBackend b = backend(caps(true, false, 20_000), u -> Reply.of("ANSWER: B\nCONFIDENCE: 0.9", 0.9));
        Answer a = MethodRegistry.create("dream+gam").run(clip(), context(b));
        List<Probe> probes = probes(a);
        assertThat(probes).hasSize(6);
        assertThat(probes).allSatisfy(p -> {
            assertThat(p.frames()).isEqualTo(3);
            assertThat(p.pixels()).isEqualTo(3L * p.width() * p.height()).isLessThanOrEqualTo(3L * 20_000);
        });
    }
}
