package dev.gamagent.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.load.SkippedRow;
import dev.gamagent.eval.report.HtmlReport;
import dev.gamagent.eval.report.MethodMetrics;
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

import java.nio.file.Path;
import java.util.ArrayList;
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

/**
 * The report in headless Chromium, checked for what it draws (ECharts' options and the SVG it rendered), not
 * only that it opens: labelled points and the Pareto front, reliability small multiples with counts and ECE,
 * distributions, flips, DREAM branches, the category heat map, and the sample list opening a debate.
 */
class HtmlReportBrowserTest {
    @TempDir static Path dir;
    static Browser browser;
    static DevToolsSession page;
    static RunSummary summary;

    static final String XSS = "<img src=x onerror=\"document.title='pwned'\">";

    /** A round with a recorded decision and agents answering the given options. */
    static String round(int k, String decision, double uSys, String... options) {
        StringBuilder sb = new StringBuilder("{\"k\":" + k + ",\"U_sys\":" + uSys + ",\"agents\":[");
        for (int i = 0; i < options.length; i++) {
            if (i > 0) sb.append(',');
            sb.append("{\"id\":\"e").append(i + 1).append("\",\"answer\":\"x\",\"option\":\"").append(options[i])
                    .append(i == 0 ? "\",\"backend\":\"default\",\"model\":\"gam-perception" : "\",\"backend\":\"vllm\",\"model\":\"Qwen2.5-VL-7B")
                    .append("\",\"uncertainty\":0.3,\"weight\":").append(1.0 / options.length)
                    .append(",\"claims\":[{\"n\":1,\"text\":\"claim ").append(i + 1)
                    .append("\",\"confidence\":0.8,\"region\":{\"x0\":0.1,\"y0\":0.1,\"x1\":0.6,\"y1\":0.6}}]}");
        }
        sb.append("]");
        if (decision != null) sb.append(",\"extra\":{\"decision\":{\"option\":\"").append(decision).append("\",\"answer\":\"x\"}}");
        return sb.append('}').toString();
    }

    static ResultRecord rec(String method, String id, String category, boolean right, double conf, int rounds, String termination,
                            long tokens, String extra, String... roundsJson) throws Exception {
        String option = right ? "A" : "B";
        JsonNode trace = Json.MAPPER.readTree("{\"question\":{\"id\":\"" + id + "\",\"text\":"
                + Json.MAPPER.writeValueAsString("Question " + id + ": which colour? " + XSS) + ",\"options\":{\"A\":\"red\",\"B\":\"blue\"},"
                + "\"images\":[\"q.png (200x100)\"],\"category\":\"" + category + "\"},\"method\":\"" + method + "\",\"rounds\":["
                + String.join(",", roundsJson) + "],\"termination\":\"" + termination + "\",\"final\":{\"answer\":\"x\",\"option\":\""
                + option + "\",\"confidence\":" + conf + "},\"calls\":3,\"millis\":100,\"tokens\":{\"prompt\":" + tokens + ",\"completion\":10}"
                + (extra == null ? "" : ",\"extra\":" + extra) + "}");
        return Records.record(id, method).group(id).category(category).outcome(right ? "correct" : "wrong")
                .predicted(option).groundTruth("A").answer(right ? "red" : "blue").option(option).confidence(conf)
                .uncertainty(1 - conf).rounds(rounds).termination(termination).promptTokens(tokens)
                .completionTokens(10).calls(3).millis(100).rule("method").backend("scripted").trace(trace).build();
    }

    static List<ResultRecord> records() throws Exception { // also used by ComparisonPageBrowserTest
        List<ResultRecord> rs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String cat = i % 2 == 0 ? "color" : "shape";
            rs.add(rec("single", "q" + i, cat, i < 2, 0.55 + 0.1 * i, 0, "single", 100, null, round(0, null, 0.4, i < 2 ? "A" : "B")));
            // gam: q0 wrong→right, q1 right→right, q2 right→wrong, q3 wrong→wrong
            boolean right = i == 0 || i == 1;
            String first = i == 0 || i == 3 ? "B" : "A";
            rs.add(rec("gam", "q" + i, cat, right, 0.9, 1, i == 3 ? "max_rounds" : "uncertainty", 400, null,
                    round(0, first, 0.6, first, first), round(1, right ? "A" : "B", 0.1, right ? "A" : "B", right ? "A" : "B")));
            String branch = i < 3 ? "PerAgent" : "Consensus";
            String probes = "{\"branch\":\"" + branch + "\",\"threshold\":0.2,\"probes\":[{\"agent\":\"agent-1\",\"agentIndex\":0,\"scale\":0.5,"
                    + "\"width\":100,\"height\":50,\"answer\":\"red\",\"option\":\"A\",\"u\":0.1,\"confident\":true,\"error\":null}]}";
            rs.add(rec("dream+gam", "q" + i, cat, i != 2, 0.8, branch.equals("Consensus") ? 0 : 1, "consensus", 900, probes,
                    branch.equals("Consensus") ? new String[0] : new String[] {round(0, "A", 0.2, "A", "A")}));
        }
        return rs;
    }

    @BeforeAll static void openTheReport() throws Exception {
        Path chrome = chromium();
        if (chrome == null) fail("headless Chromium is needed (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        List<ResultRecord> rs = records();
        summary = RunSummary.compute("bench.tsv", List.of("single", "gam", "dream+gam"), false, 4, List.of(new SkippedRow("7", "bad <base64>")),
                rs, PriceTable.from(Config.defaults()), 0.5, "gam eval --data bench.tsv --methods single,gam,dream+gam --out run");
        Path html = dir.resolve("report.html");
        // q2's image travels with the page, so its trace draws the claim regions on it
        String q2 = new dev.gamagent.image.Picture("q2", new java.awt.image.BufferedImage(200, 100, java.awt.image.BufferedImage.TYPE_INT_RGB)).dataUrl();
        HtmlReport.write(html, summary, rs, Map.of("q2", q2));
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

    static JsonNode option(String id) throws Exception {
        return Json.MAPPER.readTree(page.eval("JSON.stringify(echarts.getInstanceByDom(document.getElementById('" + id + "')).getOption())").asText());
    }

    static String svgText(String selector) throws Exception {
        return page.eval("[...document.querySelectorAll('" + selector + " svg text')].map((t) => t.textContent).join('|')").asText();
    }

    @Test void theReportNeedsNoNetworkAndShowsModelTextAsText() throws Exception {
        // the only scripts with a source are the debates' sidecar parts, read from the folder beside the page
        assertThat(intOf(page, "[...document.querySelectorAll('script[src], link[href], img[src]')].filter((e) => !(e.src || e.href).startsWith('file:')).length")).isZero();
        assertThat(page.eval("document.body.textContent").asText()).contains("Evaluation of bench.tsv").contains("bad <base64>");
        page.eval("document.querySelector('#sample-list tbody tr').click(); true");
        waitFor("a sample's debate", () -> page(page, "!!document.querySelector('#sample-trace .gv-title')"));
        assertThat(page.eval("document.querySelector('#sample-trace .gv-title').textContent").asText()).contains(XSS);
        assertThat(intOf(page, "document.querySelectorAll('#sample-trace img').length")).as("model text never becomes HTML").isZero();
        assertThat(page.eval("document.title").asText()).doesNotContain("pwned");
    }

    @Test void accuracyVsCostLabelsEveryMethodDrawsTheParetoFrontAndStartsItsAxesAtZero() throws Exception {
        JsonNode o = option("chart-cost");
        assertThat(o.at("/xAxis/0/min").asDouble()).isZero();
        assertThat(o.at("/yAxis/0/min").asDouble()).isZero();
        assertThat(o.at("/yAxis/0/max").asDouble()).isEqualTo(1.0);
        JsonNode points = o.at("/series/1/data");
        List<String> names = new ArrayList<>();
        points.forEach(p -> names.add(p.path("name").asText()));
        assertThat(names).containsExactly("single", "gam", "dream+gam");
        assertThat(o.at("/series/1/label/show").asBoolean()).isTrue();
        // single (110 tokens, 50 %) and gam (410, 50 %): gam is not better, so the front is single then dream+gam (910, 75 %)
        assertThat(o.at("/series/0/name").asText()).isEqualTo("Pareto front");
        assertThat(o.at("/series/0/data").toString()).isEqualTo("[[110,0.5],[910,0.75]]");
        assertThat(svgText("#chart-cost")).contains("single 50%", "gam 50%", "dream+gam 75%", "Pareto front");
        // switching the cost axis redraws in dollars
        page.eval("(() => { const s = document.getElementById('cost-axis'); s.value = 'seconds'; s.dispatchEvent(new Event('change')); })(); true");
        assertThat(option("chart-cost").at("/xAxis/0/name").asText()).isEqualTo("wall time per question (s)");
    }

    @Test void reliabilityDiagramsAreSmallMultiplesWithCountsAndTheEceInTheTitle() throws Exception {
        assertThat(intOf(page, "document.querySelectorAll('#chart-reliability .small-multiple').length")).isEqualTo(3);
        String text = page.eval("[...document.querySelectorAll('#chart-reliability .small-multiple')].map((d) => "
                + "[...d.querySelectorAll('svg text')].map((t) => t.textContent).join(' ')).join('\\n')").asText();
        MethodMetrics single = summary.metrics().get("single");
        assertThat(text).contains(String.format(java.util.Locale.ROOT, "single — ECE %.3f", single.ece()));
        long counted = single.reliability().stream().filter(b -> b.count() > 0).count();
        assertThat(text.lines().findFirst().orElseThrow().split("n=")).hasSize((int) counted + 1);
        assertThat(text).contains("gam — ECE", "dream+gam — ECE", "n=4");
    }

    @Test void roundsTerminationsFlipsBranchesAndCategoriesAreDrawn() throws Exception {
        JsonNode rounds = option("chart-rounds");
        assertThat(rounds.at("/yAxis/0/data").toString()).isEqualTo("[\"single\",\"gam\",\"dream+gam\"]");
        assertThat(rounds.at("/series/0/name").asText()).isEqualTo("0 rounds");
        assertThat(rounds.at("/series/0/data").toString()).isEqualTo("[1,0,0.25]");

        JsonNode terms = option("chart-terminations");
        // stop reasons in words; "single" (what single records for an answer without debate) reads "no debate"
        assertThat(svgText("#chart-terminations")).contains("round limit K_max", "U_sys below θ_term", "consensus", "no debate", "dream+gam")
                .doesNotContain("max_rounds");

        JsonNode flips = option("chart-flips");
        // over the debated questions only: dream+gam's answers all stopped in round 0, so it is named apart, not drawn as r→r
        assertThat(flips.at("/yAxis/0/data").toString()).isEqualTo("[\"gam (n=4)\"]");
        assertThat(flips.at("/title/0/subtext").asText()).contains("no question debated: dream+gam");
        Map<String, String> bySeries = new LinkedHashMap<>();
        flips.path("series").forEach(s -> bySeries.put(s.path("name").asText(), s.path("data").toString()));
        assertThat(bySeries).containsEntry("w→r", "[1]").containsEntry("r→w", "[1]").containsEntry("r→r", "[1]").containsEntry("w→w", "[1]");
        assertThat(terms.path("series").size()).as("single, uncertainty, max_rounds, consensus").isEqualTo(4);

        JsonNode dream = option("chart-dream");
        assertThat(dream.at("/xAxis/0/data").toString()).isEqualTo("[\"Consensus\",\"PerAgent\"]");
        // shares 1/4 and 3/4; accuracy on PerAgent 2/3 (q2 is wrong), on Consensus 1/1: bars with their n, no line across branches
        assertThat(dream.at("/series/0/data/0/value").asDouble()).isEqualTo(0.25);
        assertThat(dream.at("/series/0/data/1/value").asDouble()).isEqualTo(0.75);
        assertThat(dream.at("/series/1/type").asText()).isEqualTo("bar");
        assertThat(dream.at("/series/1/data/0/value").asDouble()).isEqualTo(1.0);
        assertThat(dream.at("/series/1/data/0/n").asInt()).isEqualTo(1);
        assertThat(dream.at("/series/1/data/1/value").asDouble()).isCloseTo(2.0 / 3, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(dream.at("/series/1/data/1/n").asInt()).isEqualTo(3);
        assertThat(svgText("#chart-dream")).contains("67% n=3", "100% n=1");

        JsonNode heat = option("chart-categories");
        assertThat(heat.at("/xAxis/0/data").toString()).isEqualTo("[\"color\",\"shape\"]");
        assertThat(heat.at("/series/0/data").size()).isEqualTo(6);
        assertThat(svgText("#chart-categories")).contains("100% · 2", "0% · 2");
    }

    @Test void theSampleListFiltersAndOpensOneDebateWithItsRounds() throws Exception {
        page.eval("(() => { const s = document.getElementById('filter-flip'); s.value = 'r→w'; s.dispatchEvent(new Event('change')); })(); true");
        assertThat(intOf(page, "document.querySelectorAll('#sample-list tbody tr').length")).isEqualTo(1); // gam q2 (dream+gam q2 was not debated)
        page.eval("(() => { const m = document.getElementById('filter-series'); m.value = 'gam'; m.dispatchEvent(new Event('change')); })(); true");
        assertThat(intOf(page, "document.querySelectorAll('#sample-list tbody tr').length")).isEqualTo(1);
        page.eval("document.querySelector('#sample-list tbody tr').click(); true");
        waitFor("gam q2's debate", () -> page(page, "document.querySelectorAll('#sample-trace .gv-round').length === 2"));
        assertThat(page.eval("document.querySelector('#sample-trace .gv-side').textContent").asText()).contains("r→w", "wrong", "uncertainty");
        assertThat(intOf(page, "document.querySelectorAll('#sample-trace tr.gv-changed').length")).as("answers changed in round 1").isEqualTo(2);
        assertThat(page.eval("[...document.querySelectorAll('#sample-trace .gv-round:first-of-type td.gv-model')].map(t => t.textContent).join('|')").asText())
                .as("a panel of two models names each agent's").isEqualTo("gam-perception|Qwen2.5-VL-7B (vllm)");
        assertThat(page.eval("document.querySelector('#sample-trace svg.gv-image image').getAttribute('href')").asText()).startsWith("data:image/png");
        assertThat(intOf(page, "document.querySelectorAll('#sample-trace rect.claim-region').length")).isEqualTo(2);
        assertThat(intOf(page, "document.querySelectorAll('.sibling-tabs .sibling').length")).as("the same question's other methods").isEqualTo(3);
        screenshot(page, "report-trace.png");
        for (String f : List.of("filter-flip", "filter-series")) {
            page.eval("(() => { const x = document.getElementById('" + f + "'); x.value = ''; x.dispatchEvent(new Event('change')); })(); true");
        }
        assertThat(intOf(page, "document.querySelectorAll('#sample-list tbody tr').length")).isEqualTo(12);
    }
}
