package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.report.AnswerCsv;
import dev.gamagent.server.ServeWebPageBrowserTest.Browser;
import dev.gamagent.testing.DevToolsSession;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.gamagent.cli.ReportPairsAcrossRunsTest.bench;
import static dev.gamagent.cli.ReportPairsAcrossRunsTest.eval;
import static dev.gamagent.cli.ReportPairsAcrossRunsTest.run;
import static dev.gamagent.cli.ReportPairsAcrossRunsTest.ten;
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
 * Issue 42's "compare like with like" and "what researchers export", in headless Chromium on pages `gam report` wrote from
 * `gam eval` runs: two runs over different files pair nothing and say so; two over the same file pair every common
 * question, a count of the pairs table lists its questions, and the CSV beside the page is one row per question.
 */
class ReportPairingBrowserTest {
    @TempDir Path dir;

    private static String text(DevToolsSession page, String js) throws Exception { return page.eval(js).asText(); }

    private void open(DevToolsSession page, Path html) throws Exception {
        page.call("Page.enable", null);
        page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", html.toUri().toString()));
        waitFor("the page's script", () -> page(page, "!!window.gamReport && !!echarts.getInstanceByDom(document.querySelector('#chart-cost'))"));
    }

    @Test void differentFilesPairNothingAndSaySoTheSameFilePairsEveryCommonQuestion() throws Exception {
        Path chrome = chromium();
        if (chrome == null) fail("headless Chromium is needed (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        Path one = bench(dir.resolve("one.tsv"), ten()), two = bench(dir.resolve("two.tsv"), ten());
        Path a = eval(one, dir.resolve("a"), "single", "apple"), b = eval(two, dir.resolve("b"), "single", "sky");
        Path c = eval(one, dir.resolve("c"), "vote", "sky");
        Path apart = dir.resolve("apart.html"), together = dir.resolve("together.html");
        run(new ReportCommand(), a.toString(), b.toString(), "--out", apart.toString());
        run(new ReportCommand(), a.toString(), c.toString(), "--out", together.toString());
        Browser browser = startChromium(chrome);
        try (DevToolsSession page = openPage(browser)) {
            open(page, apart);
            assertThat(text(page, "document.getElementById('pairing-warnings').innerText")).contains("different benchmarks", "one.tsv (a)", "two.tsv (b)");
            assertThat(text(page, "document.getElementById('no-pairs').innerText")).contains("No pair of series was compared");
            assertThat(intOf(page, "document.querySelectorAll('#pairs-table tbody tr').length")).isZero();
            assertThat(intOf(page, "(JSON.parse(document.getElementById('gam-data').textContent).pairs.pairs || []).length")).isZero();
            // one Pareto front per benchmark
            JsonNode cost = Json.MAPPER.readTree(text(page, "JSON.stringify(echarts.getInstanceByDom(document.getElementById('chart-cost')).getOption())"));
            List<String> fronts = new ArrayList<>();
            for (JsonNode s : cost.path("series")) if (s.path("name").asText().startsWith("Pareto front")) fronts.add(s.path("name").asText());
            assertThat(fronts).containsExactly("Pareto front: one.tsv", "Pareto front: two.tsv");
            // side by side: both runs' questions are rows of their own
            assertThat(intOf(page, "document.querySelectorAll('#answers-by-question tbody tr').length")).isEqualTo(20);

            open(page, together);
            assertThat(intOf(page, "document.querySelectorAll('#pairing-warnings').length")).isZero();
            assertThat(intOf(page, "document.querySelectorAll('#pairs-table tbody tr').length")).isEqualTo(1);
            assertThat(text(page, "document.querySelector('#pairs-table tbody tr td:nth-child(2)').innerText")).isEqualTo("10");
            assertThat(intOf(page, "document.querySelectorAll('#answers-by-question tbody tr').length")).as("one row per question").isEqualTo(10);
            // the count "right only for the first" (c / vote: right on the five blue questions) lists those five
            assertThat(text(page, "document.querySelector('#pairs-table a.only').innerText")).isEqualTo("5");
            page.eval("document.querySelector('#pairs-table a.only').click()");
            waitFor("the filtered answer table", () -> intOf(page, "document.querySelectorAll('#answers-by-question tbody tr').length") == 5);
            assertThat(text(page, "document.getElementById('answer-filter-text').innerText")).contains("5 questions right for c / vote and wrong for a / single");
            assertThat(text(page, "Array.from(document.querySelectorAll('#answers-by-question tbody tr')).map(r => r.cells[0].innerText).join(',')"))
                    .isEqualTo("1,3,5,7,9");
            assertThat(text(page, "document.getElementById('answers-csv').getAttribute('href')")).isEqualTo("together-answers.csv");
            assertThat(text(page, "document.getElementById('definitions').innerText")).isEqualTo("Definitions");
        } finally {
            stop(browser);
        }
        // the CSV beside the page: a header and one row per question, every row as wide as the header
        List<List<String>> csv = AnswerCsv.parse(Files.readString(dir.resolve("together-answers.csv"), StandardCharsets.UTF_8));
        assertThat(csv).hasSize(11);
        assertThat(csv.get(0)).startsWith("benchmark", "question", "answer", "a / single: prediction");
        for (List<String> row : csv) assertThat(row).hasSameSizeAs(csv.get(0));
        assertThat(csv.stream().skip(1).map(r -> r.get(1)).toList()).containsExactly("1", "2", "3", "4", "5", "6", "7", "8", "9", "10");
        assertThat(Files.readAllLines(dir.resolve("together-answers.jsonl"))).hasSize(10);
    }
}
