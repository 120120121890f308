package dev.gamagent.eval;

import dev.gamagent.config.Config;
import dev.gamagent.eval.report.HtmlReport;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.server.ServeWebPageBrowserTest;
import dev.gamagent.testing.DevToolsSession;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** The report's per-category tables: one row per category with its full name, one column per method, sortable in a browser. */
class CategoryTablesTest {
    @TempDir Path dir;

    /** Twenty MMBench-like categories; in category k, single answers k of 20 right and gam 20 - k. */
    static RunSummary twentyCategories() {
        List<ResultRecord> rs = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            String cat = String.format("Category number %02d with a long name", k);
            for (int i = 0; i < 20; i++) {
                for (String m : List.of("single", "gam")) {
                    boolean right = m.equals("single") ? i < k : i < 20 - k;
                    rs.add(Records.record(k + "-" + i, m).group(k + "-" + i).category(cat).l2Category("-")
                            .outcome(right ? "correct" : "wrong").predicted("A").groundTruth("A").answer("a")
                            .option("A").confidence(0.5).uncertainty(0.5).termination("single").promptTokens(10)
                            .completionTokens(1).calls(1).millis(5).rule("vlmevalkit-2026:method").backend("local")
                            .build());
                }
            }
        }
        return RunSummary.compute("bench.tsv", List.of("single", "gam"), false, 400, List.of(), rs, PriceTable.from(Config.defaults()), 0.5, null);
    }

    @Test void everyCategoryIsARowWithItsFullNameAndTheGradingIsStated() {
        String html = HtmlReport.render(twentyCategories());
        assertThat(html).contains("<table class=sortable>", "<th>category</th><th>questions</th><th>single</th><th>gam</th>",
                "<td data-v=\"Category number 07 with a long name\">Category number 07 with a long name</td><td data-v=\"20\">20</td>",
                "Multiple-choice grading: vlmevalkit-2026 (VLMEvalKit can_infer");
    }

    @Test void clickingAMethodsHeaderSortsTheCategoriesByItsAccuracy() throws Exception {
        Path chromium = ServeWebPageBrowserTest.chromium();
        if (chromium == null) fail("this test needs headless Chromium (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        String html = HtmlReport.render(twentyCategories());
        // click the "single" header of the first category table twice: ascending, then descending
        String click = "<script>var th = document.querySelector('table.sortable th:nth-child(3)'); th.click(); th.click();</script>";
        Path page = Files.writeString(dir.resolve("report.html"), html.replace("</body>", click + "</body>"));
        // the JVM's shared headless Chromium (a fresh browser context), not a Chromium of its own with --dump-dom
        ServeWebPageBrowserTest.Browser browser = ServeWebPageBrowserTest.startChromium(chromium);
        String dom;
        try {
            DevToolsSession tab = ServeWebPageBrowserTest.openPage(browser);
            tab.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", page.toUri().toString()));
            String url = Json.write(page.toUri().toString());
            ServeWebPageBrowserTest.waitFor("the report page to load",
                    () -> ServeWebPageBrowserTest.page(tab, "document.URL === " + url + " && document.readyState === 'complete'"));
            dom = tab.eval("document.documentElement.outerHTML").asText();
        } finally {
            ServeWebPageBrowserTest.stop(browser);
        }
        String table = dom.substring(dom.indexOf("<table class=\"sortable\">"));
        table = table.substring(0, table.indexOf("</table>"));
        Matcher m = Pattern.compile("<td data-v=\"(Category number \\d\\d)").matcher(table);
        List<String> order = new ArrayList<>();
        while (m.find()) order.add(m.group(1));
        // single is right k/20 times in category k: descending puts 19 first and 00 last
        assertThat(order).hasSize(20);
        assertThat(order.get(0)).isEqualTo("Category number 19");
        assertThat(order.get(19)).isEqualTo("Category number 00");
    }
}
