package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.testing.DevToolsSession;
import dev.gamagent.util.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * One screenshot for bench/screenshots.sh: opens URL in headless Chromium with a WIDTH×HEIGHT window, waits until
 * the JavaScript condition READY is true (the page has drawn what the picture shows), optionally scrolls the element
 * SCROLL to the top, and saves the window as a PNG. The same DevTools session the browser tests use, so the pictures
 * are taken the way the tests look at the pages. Not a test.
 *
 * <p>Arguments: URL OUT.png WIDTH HEIGHT READY [SCROLL]
 */
public final class PageShot {
    private PageShot() { }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) throw new IllegalArgumentException("usage: PageShot URL OUT.png WIDTH HEIGHT READY-JS [SCROLL-SELECTOR]");
        String url = args[0], ready = args[4], scroll = args.length > 5 ? args[5] : null;
        Path out = Path.of(args[1]);
        int width = Integer.parseInt(args[2]), height = Integer.parseInt(args[3]);
        Path chrome = ServeWebPageBrowserTest.chromium();
        if (chrome == null) throw new IllegalStateException("headless Chromium is needed (apt-get install chromium, or set CHROMIUM)");
        Path profile = Files.createTempDirectory("gam-shot");
        Process browser = ServeWebPageBrowserTest.startChromium(chrome, profile);
        try (DevToolsSession page = ServeWebPageBrowserTest.openPage(browser)) {
            page.call("Page.enable", null);
            ObjectNode size = Json.MAPPER.createObjectNode().put("width", width).put("height", height).put("deviceScaleFactor", 1).put("mobile", false);
            page.call("Emulation.setDeviceMetricsOverride", size);
            page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", url));
            ServeWebPageBrowserTest.waitFor(ready, () -> ServeWebPageBrowserTest.page(page, ready));
            if (scroll != null) page.eval("document.querySelector(" + Json.write(Json.MAPPER.getNodeFactory().textNode(scroll)) + ").scrollIntoView(); true");
            // let the charts finish their layout after the last change
            page.call("Runtime.evaluate", Json.MAPPER.createObjectNode().put("expression",
                    "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => done(true), 300))))").put("awaitPromise", true));
            JsonNode shot = page.call("Page.captureScreenshot", Json.MAPPER.createObjectNode().put("format", "png"));
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.write(out, Base64.getDecoder().decode(shot.path("data").asText()));
        } finally {
            ServeWebPageBrowserTest.stop(browser);
            try (var walk = Files.walk(profile)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
