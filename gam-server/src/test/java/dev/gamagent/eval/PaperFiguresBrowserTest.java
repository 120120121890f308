package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.gamagent.server.ServeWebPageBrowserTest.chromium;
import static dev.gamagent.server.ServeWebPageBrowserTest.openPage;
import static dev.gamagent.server.ServeWebPageBrowserTest.page;
import static dev.gamagent.server.ServeWebPageBrowserTest.startChromium;
import static dev.gamagent.server.ServeWebPageBrowserTest.stop;
import static dev.gamagent.server.ServeWebPageBrowserTest.waitFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Issue 23: report.html marks the paper's figures ({@code gam reproduce}'s {@code paper_figures}) on the accuracy plot, beside
 * our point for the same method, labelled with the figure and the paper's model (and that it is not the model run here).
 */
class PaperFiguresBrowserTest {
    @TempDir static Path dir;
    static Browser browser;
    static DevToolsSession page;

    @BeforeAll static void openTheReport() throws Exception {
        Path chrome = chromium();
        if (chrome == null) fail("headless Chromium is needed (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        List<ResultRecord> rs = HtmlReportBrowserTest.records();
        RunSummary summary = RunSummary.compute("MMBench_DEV_EN_V11.tsv", List.of("single", "gam", "dream+gam"), false, 4, List.of(),
                rs, PriceTable.from(Config.defaults()), 0.5, "gam reproduce gam-agent-main --out run");
        Path html = dir.resolve("report.html");
        ObjectNode pf = (ObjectNode) Json.MAPPER.readTree("{\"recipe\":\"gam-agent-main\",\"column\":\"MMBench_V11_Test\","
                + "\"paper_model\":\"InternVL3-14B\",\"paper_is_model_run\":false,\"rows\":["
                + "{\"row\":\"GAM-Agent\",\"method\":\"gam\",\"paper\":\"90.15\"},{\"row\":\"Base model\",\"method\":\"single\",\"paper\":\"83.54\"},"
                + "{\"row\":\"DMPL\",\"method\":\"dmpl\"}]}");
        HtmlReport.write(html, summary, rs, Map.of(), pf);
        browser = startChromium(chrome);
        page = openPage(browser);
        page.call("Page.enable", null);
        page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", html.toUri().toString()));
        waitFor("the report's charts", () -> page(page, "!!window.gamReport && !!echarts.getInstanceByDom(document.querySelector('#chart-cost'))"));
    }

    @AfterAll static void close() throws Exception {
        if (page != null) page.close();
        if (browser != null) stop(browser);
    }

    @Test void theAccuracyPlotMarksThePapersFiguresAtOurMethodsCost() throws Exception {
        JsonNode o = Json.MAPPER.readTree(page.eval("JSON.stringify(echarts.getInstanceByDom(document.getElementById('chart-cost')).getOption())").asText());
        JsonNode paper = null;
        for (JsonNode s : o.path("series")) if (s.path("name").asText().startsWith("paper")) paper = s;
        assertThat(paper).as(o.path("series").toString()).isNotNull();
        assertThat(paper.path("name").asText()).isEqualTo("paper (InternVL3-14B, NOT the model run here)");
        assertThat(paper.path("symbol").asText()).isEqualTo("diamond");
        // one mark per row the paper reports for a method of the run, at that method's cost (single 110, gam 410 tokens)
        assertThat(paper.path("data").size()).isEqualTo(2);
        assertThat(paper.at("/data/0/value/0").asDouble()).isEqualTo(410);
        assertThat(paper.at("/data/0/value/1").asDouble()).isCloseTo(0.9015, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(paper.at("/data/1/value/0").asDouble()).isEqualTo(110);
        assertThat(paper.at("/data/1/value/1").asDouble()).isCloseTo(0.8354, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(page.eval("[...document.querySelectorAll('#chart-cost svg text')].map((t) => t.textContent).join('|')").asText()).contains("paper 90.15%", "paper 83.54%", "gam 50%");
    }
}
