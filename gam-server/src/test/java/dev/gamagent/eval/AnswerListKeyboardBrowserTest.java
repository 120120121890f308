package dev.gamagent.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.report.HtmlReport;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.server.ServeWebPageBrowserTest.Browser;
import dev.gamagent.testing.DevToolsSession;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.gamagent.eval.HtmlReportBrowserTest.rec;
import static dev.gamagent.eval.HtmlReportBrowserTest.round;
import static dev.gamagent.server.ServeWebPageBrowserTest.chromium;
import static dev.gamagent.server.ServeWebPageBrowserTest.intOf;
import static dev.gamagent.server.ServeWebPageBrowserTest.openPage;
import static dev.gamagent.server.ServeWebPageBrowserTest.page;
import static dev.gamagent.server.ServeWebPageBrowserTest.startChromium;
import static dev.gamagent.server.ServeWebPageBrowserTest.stop;
import static dev.gamagent.server.ServeWebPageBrowserTest.waitFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The report's answer list driven by real key presses in headless Chromium (issue 42, item 5): from the list to a
 * debate and back in a few keys with focus kept, an address that follows every selection and filter (Back returns to
 * the previous answer, filters survive a reload), DREAM's rollbacks counted and filtered, sortable headers by keyboard.
 */
class AnswerListKeyboardBrowserTest {
    @TempDir static Path dir;
    static Browser browser;
    static DevToolsSession page;
    static String url;

    /** DREAM's rollback as its trace records it: the restored agents, and the inner method's answer before it. */
    static String dream(int restored, String innerOption) {
        StringBuilder rb = new StringBuilder("[");
        for (int i = 0; i < restored; i++) {
            if (i > 0) rb.append(',');
            rb.append("{\"agent\":\"e").append(i + 1).append("\",\"finalRound\":1,\"finalAnswer\":\"blue\",\"finalU\":0.6,"
                    + "\"restoredRound\":0,\"restoredAnswer\":\"red\",\"restoredU\":0.1}");
        }
        return "{\"branch\":\"PerAgent\",\"rollback_uncertainty\":\"trace\",\"rollbacks\":" + rb + "],"
                + "\"inner_final\":{\"answer\":\"x\",\"option\":\"" + innerOption + "\",\"confidence\":0.5},\"decided_by\":\"gam\"}";
    }

    /**
     * 130 questions answered by single and dream+gam (260 answers: two pages of the list). dream+gam on q0 rolled back
     * one agent and changed its answer (B → A), on q1 two agents and kept A, on q2 ran its rollback and restored none;
     * on the others a consensus skipped the debate (no rollback step).
     */
    static List<ResultRecord> records() throws Exception {
        List<ResultRecord> rs = new ArrayList<>();
        for (int i = 0; i < 130; i++) {
            String cat = i % 2 == 0 ? "color" : "shape";
            rs.add(rec("single", "q" + i, cat, i % 4 != 0, 0.6, 0, "single", 100, null, round(0, null, 0.4, i % 4 != 0 ? "A" : "B")));
            String extra = switch (i) {
                case 0 -> dream(1, "B");
                case 1 -> dream(2, "A");
                case 2 -> dream(0, "B");
                default -> "{\"branch\":\"Consensus\"}";
            };
            rs.add(rec("dream+gam", "q" + i, cat, i != 2, 0.8, i < 3 ? 1 : 0, i < 3 ? "uncertainty" : "consensus", 900, extra,
                    i < 3 ? new String[] {round(0, "B", 0.6, "B", "A"), round(1, i != 2 ? "A" : "B", 0.1, "A", "A")} : new String[0]));
        }
        return rs;
    }

    @BeforeAll static void openTheReport() throws Exception {
        Path chrome = chromium();
        if (chrome == null) fail("headless Chromium is needed (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        List<ResultRecord> rs = records();
        RunSummary summary = RunSummary.compute("bench.tsv", List.of("single", "dream+gam"), false, 130, List.of(), rs,
                PriceTable.from(Config.defaults()), 0.5, "gam eval --data bench.tsv --methods single,dream+gam --out run");
        Path html = dir.resolve("report.html");
        HtmlReport.write(html, summary, rs, Map.of());
        url = html.toUri().toString();
        browser = startChromium(chrome);
        page = openPage(browser);
        page.call("Page.enable", null);
    }

    @AfterAll static void close() throws Exception {
        if (page != null) page.close();
        if (browser != null) stop(browser);
    }

    /** Each test starts from a fresh load of the page at the given address. */
    static void open(String hash) throws Exception {
        page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", "about:blank"));
        waitFor("a blank page", () -> page(page, "location.href === 'about:blank'"));
        page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", url + hash));
        waitFor("the report's answer list", () -> page(page, "!!window.gamReport && document.querySelectorAll('#sample-list tbody tr').length > 0"));
    }

    @BeforeEach void start() throws Exception { open(""); }

    /** One key press as the keyboard sends it (keyDown then keyUp), to whatever has focus. */
    static void press(String key) throws Exception {
        record Key(String code, int vk, String text) { }
        Key k = switch (key) {
            case "Tab" -> new Key("Tab", 9, null);
            case "Enter" -> new Key("Enter", 13, "\r");
            case "Escape" -> new Key("Escape", 27, null);
            case " " -> new Key("Space", 32, " ");
            case "ArrowDown" -> new Key("ArrowDown", 40, null);
            case "ArrowUp" -> new Key("ArrowUp", 38, null);
            default -> throw new IllegalArgumentException("no key " + key);
        };
        ObjectNode down = Json.MAPPER.createObjectNode().put("type", k.text() == null ? "rawKeyDown" : "keyDown").put("key", key)
                .put("code", k.code()).put("windowsVirtualKeyCode", k.vk()).put("nativeVirtualKeyCode", k.vk());
        if (k.text() != null) down.put("text", k.text()).put("unmodifiedText", k.text());
        page.call("Input.dispatchKeyEvent", down);
        page.call("Input.dispatchKeyEvent", Json.MAPPER.createObjectNode().put("type", "keyUp").put("key", key)
                .put("code", k.code()).put("windowsVirtualKeyCode", k.vk()).put("nativeVirtualKeyCode", k.vk()));
    }

    static String focused() throws Exception {
        return page.eval("(() => { const a = document.activeElement; if (!a) return ''; const r = a.closest('#sample-list tbody tr');"
                + " if (r) return 'row ' + r.dataset.series + '|' + r.dataset.id; if (a.closest('#sample-view')) return 'debate';"
                + " return a.id || a.tagName; })()").asText();
    }

    static String hash() throws Exception { return page.eval("decodeURIComponent(location.hash)").asText(); }

    static String debateTitle() throws Exception {
        return page.eval("(document.querySelector('#sample-trace .gv-title') || {}).textContent || ''").asText();
    }

    @Test void fromTheListToADebateAndBackInThreeKeysWithFocusKept() throws Exception {
        page.eval("document.getElementById('filter-text').focus(); true");
        int keys = 0;
        press("Tab");
        keys++;
        assertThat(focused()).as("one Tab from the search box reaches the list (one row is its Tab stop)").isEqualTo("row single|q0");
        press("Enter");
        keys++;
        waitFor("q0's debate", () -> {
            try { return debateTitle().contains("Question q0"); } catch (Exception e) { return false; }
        });
        assertThat(focused()).as("Enter opens the debate and moves focus into it").isEqualTo("debate");
        assertThat(hash()).isEqualTo("#sample=single|q0");
        press("Escape");
        keys++;
        assertThat(focused()).as("Escape returns focus to the answer it came from").isEqualTo("row single|q0");
        assertThat(keys).isLessThanOrEqualTo(5);

        // Tab alone also gets there: past the list's pager to the debate's first control (the back button), not 200 rows
        int tabs = 0;
        while (!focused().equals("debate") && tabs < 10) {
            press("Tab");
            tabs++;
        }
        assertThat(tabs).as("Tabs from a row of the list to the debate").isLessThanOrEqualTo(3);
        assertThat(page.eval("document.activeElement.id").asText()).isEqualTo("back-to-list");
        press("Enter");
        assertThat(focused()).as("the back button returns focus to the answer").isEqualTo("row single|q0");
    }

    @Test void arrowsSelectTheNextAnswerAndBackReturnsToThePreviousOne() throws Exception {
        page.eval("document.querySelector('#sample-list tbody tr').focus(); true");
        press("Enter");
        waitFor("q0's debate", () -> page(page, "(document.querySelector('#sample-trace .gv-title') || {}).textContent?.includes('Question q0') === true"));
        press("Escape");
        int before = intOf(page, "history.length");
        press("ArrowDown");
        press("ArrowDown");
        assertThat(focused()).as("arrows keep focus in the list").isEqualTo("row single|q1");
        assertThat(hash()).isEqualTo("#sample=single|q1");
        assertThat(intOf(page, "history.length")).as("each selection is a history entry").isEqualTo(before + 2);
        waitFor("q1's debate", () -> page(page, "(document.querySelector('#sample-trace .gv-title') || {}).textContent?.includes('Question q1') === true"));

        page.eval("history.back(); true");
        waitFor("Back to dream+gam on q0", () -> page(page, "document.querySelector('#sample-list tr.selected')?.dataset.series === 'dream+gam'"
                + " && document.querySelector('#sample-list tr.selected').dataset.id === 'q0'"));
        assertThat(hash()).isEqualTo("#sample=dream+gam|q0");
        waitFor("its debate", () -> page(page, "document.querySelectorAll('#sample-trace .gv-round').length === 2"
                + " && document.querySelector('#sample-trace .gv-title').textContent.includes('Question q0')"));
        assertThat(focused()).as("focus follows Back within the list").isEqualTo("row dream+gam|q0");
        page.eval("history.back(); true");
        waitFor("Back to single on q0", () -> page(page, "document.querySelector('#sample-list tr.selected')?.dataset.series === 'single'"));
        page.eval("history.forward(); true");
        waitFor("Forward to dream+gam on q0", () -> page(page, "document.querySelector('#sample-list tr.selected')?.dataset.series === 'dream+gam'"));
    }

    @Test void filtersAreInTheAddressWithoutNewHistoryEntriesAndSurviveAReload() throws Exception {
        int before = intOf(page, "history.length");
        page.eval("(() => { const s = document.getElementById('filter-outcome'); s.value = 'wrong'; s.dispatchEvent(new Event('change')); })(); true");
        page.eval("(() => { const s = document.getElementById('filter-text'); s.value = 'q1'; s.dispatchEvent(new Event('input')); })(); true");
        assertThat(hash()).isEqualTo("#outcome=wrong&q=q1");
        assertThat(intOf(page, "history.length")).as("filters replace the address, they add no history entry").isEqualTo(before);
        String count = page.eval("document.getElementById('sample-count').textContent").asText();
        String first = page.eval("document.querySelector('#sample-list tbody tr').dataset.id").asText();
        assertThat(first).as("single is wrong on every fourth question").isEqualTo("q12");
        page.eval("document.querySelector('#sample-list tbody tr').click(); true");
        assertThat(hash()).isEqualTo("#sample=single|q12&outcome=wrong&q=q1");

        page.call("Page.reload", null);
        waitFor("the reloaded list", () -> page(page, "!!window.gamReport && document.querySelectorAll('#sample-list tbody tr').length > 0"));
        assertThat(page.eval("document.getElementById('filter-outcome').value").asText()).isEqualTo("wrong");
        assertThat(page.eval("document.getElementById('filter-text').value").asText()).isEqualTo("q1");
        assertThat(page.eval("document.getElementById('sample-count').textContent").asText()).isEqualTo(count);
        assertThat(page.eval("document.querySelector('#sample-list tr.selected').dataset.id").asText()).isEqualTo("q12");

        // an edited address is followed too: the filter goes, the selection changes
        page.eval("location.hash = '#sample=' + encodeURIComponent('dream+gam|q2'); true");
        waitFor("the edited address", () -> page(page, "document.querySelector('#sample-list tr.selected')?.dataset.id === 'q2'"));
        assertThat(page.eval("document.getElementById('filter-outcome').value").asText()).isEmpty();
    }

    @Test void dreamsRollbacksAreCountedAndFiltered() throws Exception {
        assertThat(page.eval("document.getElementById('sample-count').textContent").asText())
                .isEqualTo("260 of 260 answers · DREAM rolled back 2 of them (3 agent answers restored; 1 final answer changed)");
        List<String> options = new ArrayList<>();
        Json.MAPPER.readTree(page.eval("JSON.stringify([...document.querySelectorAll('#filter-rollback option')].map((o) => o.value))").asText())
                .forEach(o -> options.add(o.asText()));
        assertThat(options).containsExactly("", "rolled back (any)", "none", "rolled back, answer changed", "rolled back, same answer");
        page.eval("(() => { const s = document.getElementById('filter-rollback'); s.value = 'rolled back (any)'; s.dispatchEvent(new Event('change')); })(); true");
        assertThat(page.eval("[...document.querySelectorAll('#sample-list tbody tr')].map((r) => r.dataset.id + ' '"
                + " + r.querySelector('.gv-rollback').textContent).join(', ')").asText()).isEqualTo("q0 ↺1, q1 ↺2");
        assertThat(hash()).isEqualTo("#rollback=rolled back (any)");
        page.eval("(() => { const s = document.getElementById('filter-rollback'); s.value = 'rolled back, answer changed'; s.dispatchEvent(new Event('change')); })(); true");
        assertThat(intOf(page, "document.querySelectorAll('#sample-list tbody tr').length")).isEqualTo(1);
        assertThat(page.eval("document.getElementById('sample-count').textContent").asText())
                .isEqualTo("1 of 260 answers · DREAM rolled back 1 of them (1 agent answer restored; 1 final answer changed)");
        page.eval("(() => { const s = document.getElementById('filter-rollback'); s.value = 'none'; s.dispatchEvent(new Event('change')); })(); true");
        assertThat(page.eval("[...document.querySelectorAll('#sample-list tbody tr')].map((r) => r.dataset.series + '|' + r.dataset.id).join(',')").asText())
                .as("DREAM ran its rollback and restored nothing").isEqualTo("dream+gam|q2");
    }

    @Test void sortableHeadersAreTabStopsAndSortOnEnterAndSpace() throws Exception {
        assertThat(intOf(page, "document.querySelectorAll('table.sortable th').length")).isGreaterThan(2);
        assertThat(page(page, "[...document.querySelectorAll('table.sortable th')].every((th) => th.tabIndex === 0)")).isTrue();
        page.eval("document.querySelector('table.sortable th:nth-child(3)').focus(); true");
        press("Enter");
        assertThat(page.eval("document.querySelector('table.sortable th:nth-child(3)').getAttribute('aria-sort')").asText()).isEqualTo("ascending");
        int scrolled = intOf(page, "window.scrollY");
        String asc = page.eval("[...document.querySelector('table.sortable').tBodies[0].rows].map((r) => r.cells[0].textContent).join(',')").asText();
        press(" ");
        assertThat(page.eval("document.querySelector('table.sortable th:nth-child(3)').getAttribute('aria-sort')").asText()).isEqualTo("descending");
        String desc = page.eval("[...document.querySelector('table.sortable').tBodies[0].rows].map((r) => r.cells[0].textContent).join(',')").asText();
        assertThat(desc).isNotEqualTo(asc);
        assertThat(intOf(page, "window.scrollY")).as("Space sorts, it does not scroll the page").isEqualTo(scrolled);
    }
}
