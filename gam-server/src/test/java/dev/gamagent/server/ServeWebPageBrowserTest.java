package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.DevToolsSession;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * End to end in headless Chromium: upload an image on the web page, ask, wait for the streamed answer,
 * and check that the trace view shows rounds, claim regions and the weight chart. Needs Chromium
 * ({@code /usr/bin/chromium}, or the path in {@code CHROMIUM}); without it the test fails, it does not skip.
 */
public class ServeWebPageBrowserTest {
    @TempDir Path dir;

    public static Path chromium() {
        List<String> candidates = new ArrayList<>();
        String env = System.getenv("CHROMIUM");
        if (env != null && !env.isBlank()) candidates.add(env);
        candidates.addAll(List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"));
        for (String c : candidates) if (Files.isExecutable(Path.of(c))) return Path.of(c);
        return null;
    }

    @Test void askingOnTheWebPageShowsTheAnswerAndTheDebateTrace() throws Exception {
        Path chrome = chromium();
        if (chrome == null) {
            fail("headless Chromium is needed for the web-page test and was not found at /usr/bin/chromium: "
                    + "install it (apt-get install chromium) or set CHROMIUM=/path/to/chrome");
        }
        Path image = dir.resolve("shapes.png");
        Files.write(image, new Picture("shapes", ServerFixture.image(160, 100)).png());
        try (ServerFixture f = new ServerFixture(ServerFixture.settings(dir), ScriptedBackend.text(r -> "B"),
                Map.of("scripted-debate", ScriptedDebateMethod::new), List.of())) {
            Browser browser = startChromium(chrome);
            try {
                try (DevToolsSession page = openPage(browser)) {
                    page.call("Page.enable", null);
                    page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", f.base + "/"));
                    waitFor("the method list to load", () -> intOf(page, "document.querySelectorAll('#method option').length") >= 2);

                    int root = page.call("DOM.getDocument", null).path("root").path("nodeId").asInt();
                    int input = page.call("DOM.querySelector", Json.MAPPER.createObjectNode().put("nodeId", root).put("selector", "#image"))
                            .path("nodeId").asInt();
                    var files = Json.MAPPER.createObjectNode().put("nodeId", input);
                    files.putArray("files").add(image.toString());
                    page.call("DOM.setFileInputFiles", files);
                    page.eval("document.querySelector('#question').value = 'Which colour is the right half?';"
                            + "document.querySelector('#options').value = 'A. red\\nB. blue';"
                            + "document.querySelector('#method').value = 'scripted-debate';"
                            + "document.querySelector('#ask-button').click(); true");

                    waitFor("the answer and the trace view", () -> !page(page, "document.querySelector('#answer').hidden")
                            && intOf(page, "document.querySelectorAll('#trace-body .gv-round').length") >= 3
                            && page(page, "!!echarts.getInstanceByDom(document.querySelector('#trace-body .gv-chart'))"));
                    assertThat(page.eval("document.querySelector('#answer').textContent").asText()).startsWith("B. blue");
                    assertThat(intOf(page, "document.querySelectorAll('#progress li').length")).as("streamed progress events").isGreaterThanOrEqualTo(9);
                    // the chart: one line per expert weight and U_sys, drawn with every round's point
                    assertThat(page.eval("JSON.stringify(echarts.getInstanceByDom(document.querySelector('#trace-body .gv-chart')).getOption()"
                            + ".series.map((s) => s.name + ':' + s.data.length))").asText())
                            .contains("w scene:3", "w ocr:3", "U_sys:3", "agreement with the decision:3");
                    assertThat(intOf(page, "document.querySelectorAll('#trace-body .gv-chart svg path').length")).as("lines drawn").isGreaterThan(4);
                    // overlapping regions: both boxes drawn, each with a white halo, the smaller one on top, labels apart
                    assertThat(intOf(page, "document.querySelectorAll('#trace-body rect.claim-region').length")).isEqualTo(2);
                    assertThat(page.eval("[...document.querySelectorAll('#trace-body g.gv-region')].map((g) => g.dataset.agent).join(',')").asText())
                            .isEqualTo("scene,ocr");
                    assertThat(page.eval("(() => { const t = [...document.querySelectorAll('#trace-body rect.gv-region-tag')]"
                            + ".map((r) => r.getBoundingClientRect()); return t.length === 2 && (t[0].bottom <= t[1].top || t[1].bottom <= t[0].top"
                            + " || t[0].right <= t[1].left || t[1].right <= t[0].left); })()").asBoolean()).as("region labels do not overlap").isTrue();
                    assertThat(page(page, "!!document.querySelector('#trace-body svg.gv-image image')")).as("the stored image is drawn").isTrue();
                    assertThat(page.eval("document.querySelector('#trace-body .gv-termination').textContent").asText()).isEqualTo("consensus");
                    // DREAM probes: a readable table, no raw record fields
                    assertThat(intOf(page, "document.querySelectorAll('#trace-body .gv-probes tbody tr').length")).as("DREAM probes").isEqualTo(2);
                    String probes = page.eval("document.querySelector('#trace-body .gv-probes').textContent").asText();
                    assertThat(probes).contains("×0.5", "160×100", "B. blue", "0.200", "✓").doesNotContain("agentIndex", "null", "{");
                    assertThat(page.eval("document.querySelector('#trace-body .gv-branch').textContent").asText()).contains("PerAgent");
                    // critiques grouped by claim: two claims, three verdicts, each claim once per round
                    assertThat(intOf(page, "document.querySelectorAll('#trace-body .gv-round[data-k=\"1\"] .gv-claim-group').length")).isEqualTo(2);
                    assertThat(intOf(page, "document.querySelectorAll('#trace-body .gv-round[data-k=\"1\"] .gv-verdicts li').length")).isEqualTo(3);
                    assertThat(page.eval("document.querySelector('#trace-body').textContent").asText()).contains("scene").contains("ocr")
                            .contains("0.740").contains("supported").contains("inaccurate");
                    screenshot(page, "serve-trace.png");

                    // a method without weights or U_sys still gets a chart: the panel's agreement and uncertainty per round
                    page.eval("document.querySelector('#method').value = 'debate'; document.querySelector('#ask-button').click(); true");
                    waitFor("the debate trace", () -> page(page, "(() => { const c = document.querySelector('#trace-body .gv-chart');"
                            + " const i = c && echarts.getInstanceByDom(c); return !!i && i.getOption().series.some((s) => s.name === 'mean agent uncertainty'); })()"));
                    assertThat(page.eval("JSON.stringify(echarts.getInstanceByDom(document.querySelector('#trace-body .gv-chart')).getOption()"
                            + ".series.map((s) => s.name + ':' + s.data.length))").asText())
                            .contains("agreement with the decision:3", "mean agent uncertainty:3");

                    // errors in plain words, with the server's detail when it adds something
                    page.eval("window.said = {}; for (const [s, m] of [[401, 'invalid api key'], [413, 'body over 20 MB'], [500, 'boom'], [429, '']]) "
                            + "problem(new Response(JSON.stringify({error: {message: m}}), {status: s})).then((e) => { window.said[s] = e.message; }); true");
                    waitFor("the error sentences", () -> intOf(page, "Object.keys(window.said).length") == 4);
                    assertThat(page.eval("window.said[401]").asText()).startsWith("This server needs an API key").endsWith(": invalid api key");
                    assertThat(page.eval("window.said[413]").asText()).isEqualTo("The image or request is too large for this server: body over 20 MB");
                    assertThat(page.eval("window.said[500]").asText()).isEqualTo("The server failed while answering: boom");
                    assertThat(page.eval("window.said[429]").asText()).isEqualTo("The server is busy with other questions; try again in a moment.");

                    page.eval("document.querySelector('#tab-traces').click(); true");
                    waitFor("the recent-traces list", () -> intOf(page, "document.querySelectorAll('#trace-list tbody tr.clickable').length") == 2);
                    assertThat(page.eval("document.querySelector('#trace-list tbody').textContent").asText()).contains("scripted-debate");
                }
            } finally {
                stop(browser);
            }
        }
    }

    /**
     * The browser tests share one Chromium: each {@link #startChromium} must still be a browser of its own, with
     * nothing stored by an earlier test (cookies, local storage) and the 1280×1800 window of a fresh browser.
     */
    @Test void eachBrowserIsFreshAndTheSameSize() throws Exception {
        Path chrome = chromium();
        if (chrome == null) fail("headless Chromium is needed (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        com.sun.net.httpserver.HttpServer site = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        site.createContext("/", ex -> {
            byte[] body = "<!doctype html><title>blank</title>".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/html");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        site.start();
        String url = "http://127.0.0.1:" + site.getAddress().getPort() + "/";
        try {
            for (int i = 0; i < 2; i++) {
                Browser browser = startChromium(chrome);
                try (DevToolsSession page = openPage(browser)) {
                    page.call("Page.enable", null);
                    page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", url));
                    waitFor("the blank page", () -> page(page, "document.title === 'blank'"));
                    assertThat(page.eval("document.cookie + '|' + localStorage.length").asText())
                            .as("browser %d starts with nothing stored", i).isEqualTo("|0");
                    assertThat(page.eval("outerWidth + 'x' + outerHeight").asText()).isEqualTo(WIDTH + "x" + HEIGHT);
                    page.eval("document.cookie = 'seen=1; max-age=3600'; localStorage.setItem('seen', '1'); true");
                    page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", url + "again"));
                    waitFor("the second page", () -> page(page, "location.pathname === '/again' && document.title === 'blank'"));
                    assertThat(page.eval("document.cookie + '|' + localStorage.getItem('seen')").asText()).isEqualTo("seen=1|1");
                } finally {
                    stop(browser);
                }
            }
        } finally {
            site.stop(0);
        }
    }

    /** The size of the browser window and of every page {@link #openPage} opens. */
    private static final int WIDTH = 1280, HEIGHT = 1800;

    /**
     * One headless Chromium per test JVM: starting one per test or class cost CPU and wall on the 2-core machine, so
     * the browser tests share it and each gets its own {@link Browser}, a fresh browser context (its own
     * cookies, storage, cache and history, as a fresh profile gave). A shutdown hook kills it when the JVM ends.
     */
    private record Shared(Process process, DevToolsSession session, String http) {}

    private static Shared shared;

    /**
     * A test's own browser: a new browser context of the JVM's shared headless Chromium (started on first use, with
     * remote debugging on a free port). {@link #stop} disposes of the context, its pages and everything they stored.
     */
    public static final class Browser {
        private final Shared chromium;
        private final String contextId;
        private final List<DevToolsSession> pages = new ArrayList<>();

        private Browser(Shared chromium, String contextId) {
            this.chromium = chromium;
            this.contextId = contextId;
        }
    }

    /** A fresh browser context in this JVM's headless Chromium, which starts on the first call. */
    public static Browser startChromium(Path chrome) throws Exception {
        synchronized (ServeWebPageBrowserTest.class) {
            if (shared == null || !shared.process.isAlive()) shared = launch(chrome);
            JsonNode context = shared.session.call("Target.createBrowserContext", null);
            return new Browser(shared, context.path("browserContextId").asText());
        }
    }

    private static Shared launch(Path chrome) throws Exception {
        Path profile = Files.createTempDirectory("gam-chromium");
        Process browser = new ProcessBuilder(chrome.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--remote-debugging-port=0",
                "--remote-allow-origins=*", "--window-size=" + WIDTH + "," + HEIGHT, "about:blank")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            kill(browser);
            try (var walk = Files.walk(profile)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (Exception e) {
                // a profile left in the temporary directory is harmless
            }
        }, "chromium-stop"));
        try {
            String ws = devToolsUrl(browser);
            HttpClient client = HttpClient.newHttpClient();
            return new Shared(browser, new DevToolsSession(client, ws), "ws://" + URI.create(ws).getAuthority());
        } catch (Exception e) {
            kill(browser);
            throw e;
        }
    }

    /** A DevTools session on a new 1280×1800 page in the browser's own context. */
    public static DevToolsSession openPage(Browser browser) throws Exception {
        JsonNode target;
        synchronized (ServeWebPageBrowserTest.class) {
            target = browser.chromium.session.call("Target.createTarget", Json.MAPPER.createObjectNode().put("url", "about:blank")
                    .put("browserContextId", browser.contextId).put("width", WIDTH).put("height", HEIGHT));
        }
        String id = target.path("targetId").asText();
        assertThat(id).as("a page target in " + target).isNotEmpty();
        DevToolsSession page = new DevToolsSession(HttpClient.newHttpClient(), browser.chromium.http + "/devtools/page/" + id);
        browser.pages.add(page);
        return page;
    }

    /** Closes the browser's pages and disposes of its context; the shared Chromium keeps running for the next test. */
    public static void stop(Browser browser) throws Exception {
        for (DevToolsSession page : browser.pages) page.close();
        synchronized (ServeWebPageBrowserTest.class) {
            if (!browser.chromium.process.isAlive()) return;
            browser.chromium.session.call("Target.disposeBrowserContext",
                    Json.MAPPER.createObjectNode().put("browserContextId", browser.contextId));
        }
    }

    /** Ends Chromium and its helper processes, waiting for them so that none is left behind. */
    private static void kill(Process browser) {
        browser.descendants().forEach(ProcessHandle::destroy);
        browser.destroy();
        try {
            if (!browser.waitFor(10, TimeUnit.SECONDS)) browser.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            browser.destroyForcibly();
        }
    }

    /** Chromium prints "DevTools listening on ws://..." on stderr once it is ready. */
    private static String devToolsUrl(Process browser) throws Exception {
        CompletableFuture<String> url = new CompletableFuture<>();
        StringBuilder log = new StringBuilder();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(browser.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (log.length() < 4000) log.append(line).append('\n');
                    int at = line.indexOf("ws://");
                    if (line.contains("DevTools listening on") && at >= 0) url.complete(line.substring(at).strip());
                }
            } catch (Exception e) {
                // the browser exited; the timeout below reports it
            }
            url.completeExceptionally(new IllegalStateException("chromium exited without a DevTools URL:\n" + log));
        }, "chromium-stderr");
        reader.setDaemon(true);
        reader.start();
        return url.get(60, TimeUnit.SECONDS);
    }

    public static void waitFor(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) return;
            Thread.sleep(100);
        }
        fail("timed out waiting for " + what);
    }

    public static int intOf(DevToolsSession page, String js) {
        try {
            return page.eval(js).asInt();
        } catch (Exception e) {
            return -1;
        }
    }

    public static boolean page(DevToolsSession page, String js) {
        try {
            return page.eval(js).asBoolean();
        } catch (Exception e) {
            return false;
        }
    }

    public static void screenshot(DevToolsSession page, String name) throws Exception {
        JsonNode shot = page.call("Page.captureScreenshot", Json.MAPPER.createObjectNode().put("format", "png").put("captureBeyondViewport", true));
        Path out = Path.of("target", "screenshots", name);
        Files.createDirectories(out.getParent());
        Files.write(out, Base64.getDecoder().decode(shot.path("data").asText()));
    }
}
