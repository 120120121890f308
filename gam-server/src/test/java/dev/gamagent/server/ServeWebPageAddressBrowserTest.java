package dev.gamagent.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.server.ServeWebPageBrowserTest.Browser;
import dev.gamagent.testing.DevToolsSession;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.gamagent.server.ServeWebPageBrowserTest.chromium;
import static dev.gamagent.server.ServeWebPageBrowserTest.intOf;
import static dev.gamagent.server.ServeWebPageBrowserTest.openPage;
import static dev.gamagent.server.ServeWebPageBrowserTest.page;
import static dev.gamagent.server.ServeWebPageBrowserTest.startChromium;
import static dev.gamagent.server.ServeWebPageBrowserTest.stop;
import static dev.gamagent.server.ServeWebPageBrowserTest.waitFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The gam serve page's address names the trace it shows (#trace=ID): read on load, written when a trace is opened
 * (a history entry, so Back returns to the one before), followed on Back and Forward; the recent traces open by keyboard.
 */
class ServeWebPageAddressBrowserTest {
    @TempDir Path dir;

    @Test void theAddressCarriesTheTraceShownAndBackReturnsToThePreviousOne() throws Exception {
        Path chrome = chromium();
        if (chrome == null) fail("headless Chromium is needed (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        try (ServerFixture f = new ServerFixture(ServerFixture.settings(dir), ScriptedBackend.text(r -> "B"),
                Map.of("scripted-debate", ScriptedDebateMethod::new), List.of())) {
            String first = ask(f, "Which colour is the left half?"), second = ask(f, "Which colour is the right half?");
            Browser browser = startChromium(chrome);
            try (DevToolsSession page = openPage(browser)) {
                page.call("Page.enable", null);
                page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", f.base + "/#trace=" + first));
                waitFor("the trace the address names", () -> shown(page, first));
                assertThat(page.eval("document.querySelector('#trace-body .gv-title').textContent").asText()).contains("left half");

                // the recent traces: a row is a Tab stop; Enter opens its trace, moves focus to it and writes the address
                page.eval("document.querySelector('#tab-traces').click(); true");
                waitFor("the recent-traces list", () -> intOf(page, "document.querySelectorAll('#trace-list tbody tr.clickable').length") == 2);
                page.eval("document.querySelector('#trace-list tr[data-id=\"" + second + "\"]').focus(); true");
                int entries = intOf(page, "history.length");
                press(page, "Enter", 13, "\r");
                waitFor("the second trace", () -> shown(page, second));
                assertThat(page.eval("location.hash").asText()).isEqualTo("#trace=" + second);
                assertThat(intOf(page, "history.length")).as("opening a trace is a history entry").isEqualTo(entries + 1);
                assertThat(page.eval("document.activeElement.id").asText()).as("focus moves to the trace").isEqualTo("trace-view");
                press(page, "Escape", 27, null);
                assertThat(page.eval("document.activeElement.dataset.id || ''").asText()).as("Escape returns to its row").isEqualTo(second);

                page.eval("history.back(); true");
                waitFor("Back to the first trace", () -> shown(page, first));
                assertThat(page.eval("location.hash").asText()).isEqualTo("#trace=" + first);
                assertThat(page.eval("document.querySelector('#trace-body .gv-title').textContent").asText()).contains("left half");
                page.eval("history.forward(); true");
                waitFor("Forward to the second trace", () -> shown(page, second));

                // a reload keeps the trace shown
                page.call("Page.reload", null);
                waitFor("the reloaded page's trace", () -> shown(page, second));
            } finally {
                stop(browser);
            }
        }
    }

    /** Asks method scripted-debate a question over the API and returns the id of the trace it stored. */
    static String ask(ServerFixture f, String question) throws Exception {
        var r = f.post("/v1/chat/completions", ServerFixture.request("scripted-debate", question + "\nA. red\nB. blue", false, ServerFixture.dataUrl()));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return ServerFixture.json(r).at("/gam/trace_id").asText();
    }

    /** The trace view shows trace id, drawn. */
    static boolean shown(DevToolsSession page, String id) {
        return page(page, "(() => { const v = document.querySelector('#trace-view'); return !v.hidden && v.dataset.trace === '" + id + "'"
                + " && document.querySelectorAll('#trace-body .gv-round').length > 0; })()");
    }

    static void press(DevToolsSession page, String key, int vk, String text) throws Exception {
        ObjectNode down = Json.MAPPER.createObjectNode().put("type", text == null ? "rawKeyDown" : "keyDown").put("key", key).put("code", key)
                .put("windowsVirtualKeyCode", vk).put("nativeVirtualKeyCode", vk);
        if (text != null) down.put("text", text).put("unmodifiedText", text);
        page.call("Input.dispatchKeyEvent", down);
        page.call("Input.dispatchKeyEvent", Json.MAPPER.createObjectNode().put("type", "keyUp").put("key", key).put("code", key)
                .put("windowsVirtualKeyCode", vk).put("nativeVirtualKeyCode", vk));
    }
}
