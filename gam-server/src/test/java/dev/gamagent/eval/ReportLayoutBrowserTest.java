package dev.gamagent.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.report.HtmlReport;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.server.ServeWebPageBrowserTest.Browser;
import dev.gamagent.testing.DevToolsSession;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.gamagent.server.ServeWebPageBrowserTest.chromium;
import static dev.gamagent.server.ServeWebPageBrowserTest.intOf;
import static dev.gamagent.server.ServeWebPageBrowserTest.openPage;
import static dev.gamagent.server.ServeWebPageBrowserTest.page;
import static dev.gamagent.server.ServeWebPageBrowserTest.screenshot;
import static dev.gamagent.server.ServeWebPageBrowserTest.startChromium;
import static dev.gamagent.server.ServeWebPageBrowserTest.stop;
import static dev.gamagent.server.ServeWebPageBrowserTest.waitFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The report as a reader sees it in a 1280×800 window: no table wider than the page (they wrap, or scroll inside
 * their box), the answer list in question order, following the selection (its page, its row in view, the URL), the
 * debates read from the sidecar folder, no dollars for the built-in model, and the significance of each difference.
 */
class ReportLayoutBrowserTest {
    @TempDir static Path dir;
    static Browser browser;
    static DevToolsSession page;
    static Path html;

    static final List<String> METHODS = List.of("single", "vote", "debate", "gam", "dream+gam");
    static final int QUESTIONS = 60;

    /** The demo's shape: five methods on 60 questions of six categories, on the built-in model (no price). */
    static List<ResultRecord> records() throws Exception {
        List<ResultRecord> rs = new ArrayList<>();
        String[] cats = {"chart", "color", "count", "shape", "spatial", "text"};
        for (int i = 0; i < QUESTIONS; i++) {
            String id = "q" + i, cat = cats[i % cats.length];
            for (String m : METHODS) {
                // single, vote, debate right on 40 (wrong where i % 3 == 0); gam on 56 (wrong on q23, q33, q43, q53); dream+gam on 57
                boolean right = switch (m) {
                    case "gam" -> i % 10 != 3 || i < 20;
                    case "dream+gam" -> i % 10 != 3 || i < 30;
                    default -> i % 3 != 0;
                };
                boolean debate = !m.equals("single") && !m.equals("vote");
                String[] rounds = debate
                        ? new String[]{HtmlReportBrowserTest.round(0, "B", 0.012, "B", "A", "B"), HtmlReportBrowserTest.round(1, right ? "A" : "B", 0.006, right ? "A" : "B", "A", right ? "A" : "B")}
                        : new String[]{HtmlReportBrowserTest.round(0, null, 0.01, right ? "A" : "B")};
                ResultRecord r = HtmlReportBrowserTest.rec(m, id, cat, right, 0.9, debate ? 1 : 0, debate ? "uncertainty" : "single",
                        debate ? 2000 : 400, null, rounds);
                rs.add(Records.from(r).method(m).rotation(0).category(cat).l2Category("l2 " + cat).uncertainty(0.01).tokensEstimated(false)
                        .rule("vlmevalkit-2026:option").error(null).backend("local:gam-perception").backends(null).build());
            }
        }
        return rs;
    }

    @BeforeAll static void openTheReportInA1280By800Window() throws Exception {
        Path chrome = chromium();
        if (chrome == null) fail("headless Chromium is needed (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        List<ResultRecord> rs = records();
        RunSummary s = RunSummary.compute("demo.tsv", METHODS, false, QUESTIONS, List.of(), rs, PriceTable.from(Config.defaults()), 0.5,
                "gam demo");
        html = dir.resolve("report.html");
        HtmlReport.write(html, s, rs, Map.of());
        browser = startChromium(chrome);
        page = openPage(browser);
        page.call("Page.enable", null);
        ObjectNode size = Json.MAPPER.createObjectNode().put("width", 1280).put("height", 800).put("deviceScaleFactor", 1).put("mobile", false);
        page.call("Emulation.setDeviceMetricsOverride", size);
        open(html, "gam%7Cq55");
    }

    /** Loads the page afresh, opened onto one answer as a shared link would open it. */
    static void open(Path file, String answer) throws Exception {
        page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", "about:blank"));
        waitFor("a blank page", () -> page(page, "location.href === 'about:blank'"));
        page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", file.toUri() + "#sample=" + answer));
        waitFor("the report", () -> page(page, "!!window.gamReport && !!document.querySelector('#sample-view')"));
    }

    @AfterAll static void close() throws Exception {
        if (page != null) page.close();
        if (browser != null) stop(browser);
    }

    /** Tables wider than the page, as "selector: width" (empty when all fit); tables inside a scrolling box count by that box. */
    static String tablesWiderThanThePage() throws Exception {
        return page.eval("(() => { const w = document.documentElement.clientWidth; return [...document.querySelectorAll('table')]"
                + ".filter((t) => t.offsetParent !== null && t.getBoundingClientRect().right > w + 0.5)"
                + ".map((t) => (t.id || t.className) + ': ' + Math.round(t.getBoundingClientRect().right) + ' > ' + w).join('; '); })()").asText();
    }

    @Test void noTableIsWiderThanThePageAndTheListAndMethodsTableShowEveryColumn() throws Exception {
        open(html, "gam%7Cq55");
        waitFor("the linked debate", () -> page(page, "!!document.querySelector('#sample-trace .gv-title')"));
        assertThat(intOf(page, "window.innerWidth")).isEqualTo(1280);
        assertThat(tablesWiderThanThePage()).as("tables past the right edge at 1280 px").isEmpty();
        assertThat(page(page, "document.documentElement.scrollWidth <= document.documentElement.clientWidth")).as("no sideways page scroll").isTrue();
        // the methods table and the answer list fit their boxes: nothing hidden behind a scroll bar
        for (String id : List.of("metrics", "pairs-table", "flips", "sample-list")) {
            assertThat(page(page, "(() => { const t = document.getElementById('" + id + "'); return t.scrollWidth <= t.parentElement.clientWidth + 1; })()"))
                    .as(id + " fits its box").isTrue();
        }
        assertThat(page(page, "(() => { const th = [...document.querySelectorAll('#metrics th')].pop(); const b = th.closest('.table-box').getBoundingClientRect();"
                + " return th.textContent.replace(/\\u00ad/g, '').startsWith('Spearman') && th.getBoundingClientRect().right <= b.right + 1; })()"))
                .as("the last column of the methods table is in view").isTrue();
        assertThat(page(page, "(() => { const c = document.querySelector('#sample-list thead th:last-child'); const b = c.closest('.sample-scroll').getBoundingClientRect();"
                + " return c.textContent === 'conf.' && c.getBoundingClientRect().right <= b.right + 1; })()"))
                .as("the list's confidence column is in view").isTrue();
        // the list's headers break between words or at a soft hyphen, never inside a word ("questi / on")
        // a word spans at most one line more than it has soft hyphens (where the page allows it to break)
        assertThat(page.eval("[...document.querySelectorAll('#sample-list th, #metrics th')].flatMap((th) => { const t = th.firstChild;"
                + " if (!t || t.nodeType !== 3) return []; const out = []; const re = /\\S+/g; let m;"
                + " while ((m = re.exec(t.textContent))) { const r = document.createRange(); r.setStart(t, m.index); r.setEnd(t, m.index + m[0].length);"
                + " const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0.5).map((x) => Math.round(x.top))).size;"
                + " if (lines > 1 + m[0].split('\\u00ad').length - 1) out.push(m[0]); } return out; }).join(',')").asText())
                .as("header words broken across lines").isEmpty();
                // the opened debate's own tables (agents, probes) stay inside the page too
        assertThat(intOf(page, "document.querySelectorAll('#sample-trace table').length")).isPositive();
        screenshot(page, "report-1280.png");
    }

    @Test void theAnswerListIsInQuestionOrderAndFollowsTheSelection() throws Exception {
        open(html, "gam%7Cq55");
        waitFor("the linked debate", () -> page(page, "!!document.querySelector('#sample-trace .gv-title')"));
        // the link opened gam's q55, which is on the second page of 200 answers: that page, that row, in view
        assertThat(page.eval("document.querySelector('#sample-list tr.selected').dataset.id + '|' + document.querySelector('#sample-list tr.selected').dataset.series").asText())
                .isEqualTo("q55|gam");
        assertThat(page.eval("document.querySelector('#sample-pages').textContent").asText()).contains("201–300 of 300");
        assertThat(rowInView()).isTrue();
        // question order, natural: q2 before q10; within a question, the methods in the run's order
        String ids = page.eval("[...document.querySelectorAll('#sample-list tbody tr')].slice(0, 12).map((r) => r.dataset.id + ':' + r.dataset.series).join(',')").asText();
        assertThat(ids).startsWith("q40:single,q40:vote,q40:debate,q40:gam,q40:dream+gam,q41:single");
        page.eval("document.getElementById('page-prev').click(); true");
        assertThat(page.eval("[...document.querySelectorAll('#sample-list tbody tr')].map((r) => r.dataset.id).filter((v, i, a) => a.indexOf(v) === i).slice(0, 12).join(',')").asText())
                .isEqualTo("q0,q1,q2,q3,q4,q5,q6,q7,q8,q9,q10,q11");
        // switching to the same question under another method (the buttons above the debate): the list and the URL follow
        page.eval("document.querySelector('.sibling-tabs button[data-series=\"dream+gam\"]').click(); true");
        waitFor("dream+gam's q55", () -> page(page, "document.querySelector('#sample-list tr.selected') !== null"
                + " && document.querySelector('#sample-list tr.selected').dataset.series === 'dream+gam'"));
        assertThat(page.eval("document.querySelector('#sample-list tr.selected').dataset.id").asText()).isEqualTo("q55");
        assertThat(page.eval("document.querySelector('#sample-pages').textContent").asText()).as("back on q55's page").contains("201–300");
        assertThat(rowInView()).isTrue();
        assertThat(page.eval("decodeURIComponent(location.hash)").asText()).isEqualTo("#sample=dream+gam|q55");
        // the keyboard moves the selection down the list (dream+gam q55 → 7 answers on: vote q57), the view keeps it in sight
        for (int i = 0; i < 7; i++) {
            page.eval("document.querySelector('#sample-list tr.selected').dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowDown', bubbles: true})); true");
        }
        assertThat(page.eval("decodeURIComponent(location.hash)").asText()).isEqualTo("#sample=vote|q57");
        assertThat(rowInView()).as("the selected row scrolled into the list's view").isTrue();
    }

    private static boolean rowInView() throws Exception {
        return page(page, "(() => { const r = document.querySelector('#sample-list tr.selected').getBoundingClientRect();"
                + " const box = document.querySelector('.sample-scroll').getBoundingClientRect(); return r.top >= box.top && r.bottom <= box.bottom + 1; })()");
    }

    @Test void theBuiltInModelHasNoDollarAxisAndTheUncertaintyMetricsSayWhyTheyAreHidden() throws Exception {
        assertThat(intOf(page, "document.querySelectorAll('#cost-axis option[value=dollars]').length")).isZero();
        assertThat(page.eval("document.getElementById('cost-note').textContent").asText()).contains("eval.gpu_hour_rate");
        assertThat(page.eval("document.getElementById('no-dollars').textContent").asText()).contains("built-in model");
        // every U is 0.01 here: AUROC and balanced accuracy would be 0.5 by construction
        assertThat(page.eval("[...document.querySelectorAll('#metrics tbody tr:first-child td.hidden-metric')].map((t) => t.textContent + ' ' + t.title).join('|')").asText())
                .contains("– the same U for every answer (0.010)");
        assertThat(page.eval("document.getElementById('uncertainty-notes').textContent").asText()).contains("single", "0.5 by construction");
    }

    @Test void eachDifferenceSaysWhetherItIsSignificantInTheTableAndThePlot() throws Exception {
        // gam vs single: 19 right only for gam, 3 only for single → p = 2·1794/2^22, ×10 pairs (Holm) = 0.0086; debate vs single: identical
        String rows = page.eval("[...document.querySelectorAll('#pairs-table tbody tr')].map((r) => r.className + ':' + r.cells[0].textContent + ':' + r.cells[8].textContent).join('\\n')").asText();
        assertThat(rows).contains("ns:debate vs single:not significant", "sig:gam vs single:significant");
        var chart = Json.MAPPER.readTree(page.eval("JSON.stringify(echarts.getInstanceByDom(document.getElementById('chart-pairs')).getOption())").asText());
        assertThat(chart.at("/yAxis/0/data")).hasSize(10);
        String labels = page.eval("[...document.querySelectorAll('#chart-pairs svg text')].map((t) => t.textContent).join('|')").asText();
        assertThat(labels).contains("n.s. p=1.000").contains("Differences in accuracy");
        // the accuracy plot draws each method's interval
        var cost = Json.MAPPER.readTree(page.eval("JSON.stringify(echarts.getInstanceByDom(document.getElementById('chart-cost')).getOption())").asText());
        assertThat(cost.at("/series/2/name").asText()).isEqualTo("95% intervals");
        assertThat(cost.at("/series/2/data")).hasSize(5);
    }

    @Test void withoutTheSidecarFolderTheDebateSaysWhereItIs() throws Exception {
        Path alone = Files.createDirectories(dir.resolve("copied"));
        Files.copy(html, alone.resolve("report.html"));
        open(alone.resolve("report.html"), "gam%7Cq3");
        waitFor("the missing-sidecar message", () -> page(page, "!!document.getElementById('sidecar-missing')"));
        assertThat(page.eval("document.getElementById('sidecar-missing').textContent").asText()).contains("report-debates/", "beside this page");
    }

    /** Issue 42 item 5: the debate is read with the page's own scroll, not in a box of its own, and says why its answer won. */
    @Test void theDebateScrollsWithThePageAndSaysWhyItsAnswerWon() throws Exception {
        open(html, "gam%7Cq55");
        waitFor("the debate", () -> page(page, "!!document.querySelector('#sample-view .gv-round')"));
        assertThat(page.eval("getComputedStyle(document.getElementById('sample-view')).maxHeight").asText()).isEqualTo("none");
        assertThat(page.eval("(() => { const v = document.getElementById('sample-view'); return v.scrollHeight <= v.clientHeight + 1; })()")
                .asBoolean()).as("the debate does not scroll inside its own box").isTrue();
        assertThat(page.eval("document.querySelector('#sample-view .gv-explain').textContent").asText()).contains("Why this answer", "Decided by");
    }
}
