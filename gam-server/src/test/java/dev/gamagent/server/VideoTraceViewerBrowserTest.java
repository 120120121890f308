package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.config.Config;
import dev.gamagent.image.internal.FrameStrip;
import dev.gamagent.image.Picture;
import dev.gamagent.server.ServeWebPageBrowserTest.Browser;
import dev.gamagent.testing.DevToolsSession;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.gamagent.server.ServeWebPageBrowserTest.chromium;
import static dev.gamagent.server.ServeWebPageBrowserTest.intOf;
import static dev.gamagent.server.ServeWebPageBrowserTest.openPage;
import static dev.gamagent.server.ServeWebPageBrowserTest.screenshot;
import static dev.gamagent.server.ServeWebPageBrowserTest.startChromium;
import static dev.gamagent.server.ServeWebPageBrowserTest.stop;
import static dev.gamagent.server.ServeWebPageBrowserTest.waitFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 30 item 4 in headless Chromium: the trace viewer shows a video question's frames. A real {@code gam} run on
 * {@code gam serve} (scripted replies whose claims name their frame) of a 3-frame request: the stored image is the frames
 * side by side, and the viewer shows a strip of 3 frames in time order, each labelled, each claim's region drawn on the
 * frame it names, and the frame picked shown large with its claims only.
 */
class VideoTraceViewerBrowserTest {
    @TempDir Path dir;

    static final int[] GREYS = {0x30, 0x80, 0xD0};

    /** Frame f (1..3) of 120×60, filled with grey GREYS[f-1]. */
    static BufferedImage frame(int f) {
        BufferedImage img = new BufferedImage(120, 60, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setColor(new Color(GREYS[f - 1], GREYS[f - 1], GREYS[f - 1]));
        g.fillRect(0, 0, 120, 60);
        g.dispose();
        return img;
    }

    /** scene: B from frame 3; ocr: A from frame 2; relational: A from frame 2 (two regions); critics judge accurate. */
    private static ScriptedBackend panel() {
        return new ScriptedBackend("scripted", new Capabilities(true, false, 0, true, false, 0), r -> {
            String p = r.messages().get(0).text();
            String text = p.contains("<task>critique</task>") ? "CLAIM 1: ACCURATE | REASON: visible | CONFIDENCE: 0.9"
                    : p.contains("<role>scene expert</role>")
                    ? "ANSWER: B\nCLAIM 1: The square is at the right | CONFIDENCE: 0.4 | REGION: 0.6,0.2,0.9,0.8 | FRAME: 3\nCONFIDENCE: 0.4"
                    : p.contains("<role>ocr expert</role>")
                    ? "ANSWER: A\nCLAIM 1: It is at the left | CONFIDENCE: 0.4 | REGION: 0.1,0.2,0.4,0.8 | FRAME: 2\nCONFIDENCE: 0.4"
                    : "ANSWER: A\nCLAIM 1: It starts left | CONFIDENCE: 0.4 | REGION: 0.05,0.1,0.3,0.9 | FRAME: 2\n"
                      + "CLAIM 2: It stays left | CONFIDENCE: 0.4 | REGION: 0.1,0.1,0.35,0.9 | FRAME: 1\nCONFIDENCE: 0.4";
            return ScriptedBackend.result(text, List.of());
        });
    }

    @Test void theViewerShowsTheFramesInTimeOrderWithEachClaimOnItsFrame() throws Exception {
        Path chrome = chromium();
        if (chrome == null) fail("headless Chromium is needed (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        try (ServerFixture f = new ServerFixture(ServerFixture.settings(dir), panel(), Map.of(), List.of(), Config.defaults())) {
            String[] urls = {new Picture("f1", frame(1)).dataUrl(), new Picture("f2", frame(2)).dataUrl(), new Picture("f3", frame(3)).dataUrl()};
            HttpResponse<String> asked = f.post("/v1/chat/completions",
                    ServerFixture.request("gam", "Which way does the square move?\nA. left\nB. right", false, urls));
            assertThat(asked.statusCode()).as(asked.body()).isEqualTo(200);
            String id = ServerFixture.json(asked).at("/gam/trace_id").asText();
            JsonNode trace = ServerFixture.json(f.get("/v1/traces/" + id));
            assertThat(trace.at("/question/images").size()).isEqualTo(3);
            assertThat(trace.at("/rounds/0/agents/0/claims/0/frame").asInt()).isEqualTo(3);

            // the stored image: the 3 frames side by side in equal tiles, in time order
            HttpResponse<byte[]> png = f.client.send(HttpRequest.newBuilder(URI.create(f.base + "/v1/traces/" + id + "/image")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(png.statusCode()).isEqualTo(200);
            BufferedImage strip = ImageIO.read(new ByteArrayInputStream(png.body()));
            int tile = FrameStrip.tileWidth(3);
            assertThat(strip.getWidth()).isEqualTo(3 * tile);
            assertThat(strip.getHeight()).isEqualTo(tile / 2);
            for (int k = 0; k < 3; k++) assertThat(strip.getRGB(k * tile + tile / 2, strip.getHeight() / 2) & 0xff).isEqualTo(GREYS[k]);

            Browser browser = startChromium(chrome);
            try (DevToolsSession page = openPage(browser)) {
                page.call("Page.enable", null);
                page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", f.base + "/#trace=" + id));
                waitFor("the frame strip", () -> intOf(page, "document.querySelectorAll('#trace-body .gv-frame').length") == 3);
                assertThat(page.eval("[...document.querySelectorAll('#trace-body .gv-frame')].map((e) => e.dataset.frame).join(',')").asText())
                        .isEqualTo("1,2,3");
                String labels = page.eval("[...document.querySelectorAll('#trace-body .gv-frame-label')].map((e) => e.textContent).join(' | ')").asText();
                // the last round shown: every claim of round 0 again (scripted replies repeat), so frame 2 holds two regions
                assertThat(labels).isEqualTo("frame 1 · 1 claim | frame 2 · 2 claims | frame 3 · 1 claim");
                // each claim's region on its frame: scene's on frame 3, ocr's and relational's first on frame 2
                assertThat(page.eval("[...document.querySelectorAll('#trace-body .gv-frame')].map((e) =>"
                        + " [...e.querySelectorAll('.gv-frame-region')].map((r) => r.dataset.agent + '#' + r.dataset.claim).sort().join('+')).join(' | ')").asText())
                        .isEqualTo("relational#2 | ocr#1+relational#1 | scene#1");
                // the strip's tiles are the stored image cut in three
                assertThat(page.eval("document.querySelector('#trace-body .gv-frame[data-frame=\"3\"] image').getAttribute('x')").asText())
                        .isEqualTo("-192");
                // the large picture starts on the frame with the most regions (2) and draws only its claims
                assertThat(page.eval("document.querySelector('#trace-body .gv-frame-title').textContent").asText()).startsWith("frame 2 of 3, in time order");
                assertThat(intOf(page, "document.querySelectorAll('#trace-body svg.gv-image g.gv-region').length")).isEqualTo(2);
                assertThat(page.eval("document.querySelector('#trace-body .gv-region-legend').textContent").asText()).contains("of frame 2");
                page.eval("document.querySelector('#trace-body .gv-frame[data-frame=\"3\"]').click(); true");
                assertThat(page.eval("document.querySelector('#trace-body .gv-frame-title').textContent").asText()).startsWith("frame 3 of 3");
                assertThat(page.eval("[...document.querySelectorAll('#trace-body svg.gv-image g.gv-region')].map((g) => g.dataset.agent).join(',')").asText())
                        .isEqualTo("scene");
                assertThat(page.eval("document.querySelector('#trace-body .gv-frame-selected').dataset.frame").asText()).isEqualTo("3");
                // the claims list names each claim's frame
                assertThat(page.eval("document.querySelector('#trace-body .gv-round[data-k=\"0\"] .gv-claim-where').textContent").asText())
                        .startsWith("frame 3, region: x 60–90 %");
                screenshot(page, "viewer-video-frames.png");

                // a recorded trace: frame labels from the frames' names (video frame, time) and DREAM's probe of every frame
                page.eval("window.rec = document.createElement('div'); document.body.append(window.rec); GamViewer.render(window.rec, "
                        + "{question: {text: 'q', images: ['clip.mp4#frame-0 (64x32)', 'clip.mp4#frame-45@1.5s (64x32)']}, method: 'dream+gam',"
                        + " termination: 'consensus', final: {}, rounds: [{k: 0, agents: [{id: 'scene', claims: [{n: 1, text: 'left', confidence: 0.5,"
                        + " region: {x0: 0.1, y0: 0.1, x1: 0.5, y1: 0.5}}]}]}],"
                        + " extra: {branch: 'PerAgent', probes: [{agent: 'scene', scale: 0.5, width: 32, height: 16, frames: 2, pixels: 1024, u: 0.2}]}}); true");
                assertThat(page.eval("[...window.rec.querySelectorAll('.gv-frame-label')].map((e) => e.textContent).join(' | ')").asText())
                        .isEqualTo("frame 1 · video frame 0 | frame 2 · 1.5 s · video frame 45");
                assertThat(page.eval("window.rec.querySelector('.gv-frame-title').textContent").asText())
                        .contains("1 claim region(s) this round name no frame and are drawn on none");
                assertThat(page.eval("window.rec.querySelector('.gv-probes').textContent").asText()).contains("32×16 × 2 frames (1,024 px)");
                page.eval("window.rec.remove(); true");
            } finally {
                stop(browser);
            }
        }
    }
}
