package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.server.ServeWebPageBrowserTest.Browser;
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
 * <p>Arguments: URL OUT.png WIDTH HEIGHT READY [SCROLL]. With {@code -Dgam.shot.shows=FILE} it also writes, as a JSON
 * array, what the picture shows: the page's section headings (h2) wholly in the window and the titles of the charts
 * and figures at least half in it, in page order; bench/screenshots.sh keeps them in the manifest, and
 * ScreenshotManifestTest checks that the README's caption of the picture names each.
 */
public final class PageShot {
    private PageShot() { }

    /**
     * What the window shows, as JSON: every h2 wholly inside it; every chart (an ECharts instance, by its title) and every
     * caption of a page figure (figure.wide, up to its first parenthesis; not the viewer's, which name data) at least half
     * inside it and not hidden; in page order, each once.
     */
    static final String SHOWS = """
            JSON.stringify((() => {
              const h = window.innerHeight, out = [];
              const half = (r) => r.height > 0 && Math.min(r.bottom, h) - Math.max(r.top, 0) >= r.height / 2;
              for (const e of document.querySelectorAll('h2, figure.wide > figcaption, div')) {
                if (e.closest('[hidden], .small-multiple') || !e.getClientRects().length) continue;
                const r = e.getBoundingClientRect();
                let name = null;
                if (e.tagName === 'H2') name = r.top >= -2 && r.bottom <= h + 2 ? e.textContent : null;
                else if (e.tagName === 'FIGCAPTION') name = half(r) ? e.textContent.split(' (')[0] : null;
                else if (window.echarts && echarts.getInstanceByDom(e) && half(r)) {
                  const t = (echarts.getInstanceByDom(e).getOption().title || [])[0];
                  name = t && t.text ? t.text : null;
                }
                if (name && name.trim() && !out.includes(name.trim())) out.push(name.trim());
              }
              return out;
            })())""";

    public static void main(String[] args) throws Exception {
        if (args.length < 5) throw new IllegalArgumentException("usage: PageShot URL OUT.png WIDTH HEIGHT READY-JS [SCROLL-SELECTOR]");
        String url = args[0], ready = args[4], scroll = args.length > 5 ? args[5] : null;
        Path out = Path.of(args[1]);
        int width = Integer.parseInt(args[2]), height = Integer.parseInt(args[3]);
        Path chrome = ServeWebPageBrowserTest.chromium();
        if (chrome == null) throw new IllegalStateException("headless Chromium is needed (apt-get install chromium, or set CHROMIUM)");
        Browser browser = ServeWebPageBrowserTest.startChromium(chrome);
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
            String shows = System.getProperty("gam.shot.shows");
            if (shows != null) Files.writeString(Path.of(shows), page.eval(SHOWS).asText());
        } finally {
            ServeWebPageBrowserTest.stop(browser);
        }
    }
}
