package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.report.HtmlReport;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.report.ReportRun;
import dev.gamagent.eval.report.RunPairing;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.stats.IntervalMethod;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.server.ServeWebPageBrowserTest.Browser;
import dev.gamagent.testing.DevToolsSession;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
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

/** {@code gam report}'s page draws the same plots over several runs, each method a series "run / method". */
class ComparisonPageBrowserTest {
    @TempDir Path dir;

    @Test void everyPlotAndTheSampleListCoverBothRuns() throws Exception {
        Path chrome = chromium();
        if (chrome == null) fail("headless Chromium is needed (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        List<ResultRecord> rs = HtmlReportBrowserTest.records();
        RunSummary s = RunSummary.compute("bench.tsv", List.of("single", "gam", "dream+gam"), false, 4, List.of(), rs,
                PriceTable.from(Config.defaults()), 0.5, null);
        Path html = dir.resolve("comparison.html");
        List<ReportRun> runs = List.of(new ReportRun("base", s, rs), new ReportRun("tuned", s, rs));
        // both runs asked the same questions: the same content hash for each id
        Map<String, String> hashes = new LinkedHashMap<>();
        for (ResultRecord r : rs) hashes.put(r.question().group() == null ? r.question().id() : r.question().group(), "h-" + r.question().id());
        List<RunPairing.Run> compared = runs.stream().map(r -> new RunPairing.Run(r.name(), "bench.tsv", hashes,
                RunSummary.itemsByMethod(s.methods(), rs))).toList();
        HtmlReport.writeComparison(html, runs, RunPairing.of(compared, IntervalMethod.WILSON));
        Browser browser = startChromium(chrome);
        try (DevToolsSession page = openPage(browser)) {
            page.call("Page.enable", null);
            page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", html.toUri().toString()));
            waitFor("the charts", () -> page(page, "!!window.gamReport && !!echarts.getInstanceByDom(document.querySelector('#chart-categories'))"));
            JsonNode cost = Json.MAPPER.readTree(page.eval("JSON.stringify(echarts.getInstanceByDom(document.getElementById('chart-cost')).getOption())").asText());
            assertThat(cost.at("/series/1/data")).hasSize(6);
            assertThat(cost.at("/series/1/data/3/name").asText()).isEqualTo("tuned / single");
            JsonNode heat = Json.MAPPER.readTree(page.eval("JSON.stringify(echarts.getInstanceByDom(document.getElementById('chart-categories')).getOption())").asText());
            assertThat(heat.at("/yAxis/0/data")).hasSize(6);
            assertThat(intOf(page, "document.querySelectorAll('#chart-reliability .small-multiple').length")).isEqualTo(6);
            assertThat(intOf(page, "document.querySelectorAll('#sample-list tbody tr').length")).isEqualTo(24);
            assertThat(intOf(page, "document.querySelectorAll('#filter-series option').length")).as("any + six series").isEqualTo(7);
            screenshot(page, "comparison.png");
        } finally {
            stop(browser);
        }
    }
}
