package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.report.HtmlReport;
import dev.gamagent.eval.report.MethodPaletteTest;
import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.report.ReportRun;
import dev.gamagent.eval.report.RunPairing;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.stats.IntervalMethod;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.server.ServeWebPageBrowserTest.Browser;
import dev.gamagent.testing.DevToolsSession;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.gamagent.server.ServeWebPageBrowserTest.chromium;
import static dev.gamagent.server.ServeWebPageBrowserTest.openPage;
import static dev.gamagent.server.ServeWebPageBrowserTest.page;
import static dev.gamagent.server.ServeWebPageBrowserTest.startChromium;
import static dev.gamagent.server.ServeWebPageBrowserTest.stop;
import static dev.gamagent.server.ServeWebPageBrowserTest.waitFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A method keeps its colour (web/colors.js) on a run's report, on a comparison of two runs and on gam serve's page, and
 * the report's per-round plots add up at 1280 px (issue 42, items 3 and 4).
 */
class MethodColoursBrowserTest {
    @TempDir Path dir;

    static final List<String> METHODS = List.of("single", "vote", "debate", "gam", "dream+gam");

    /** A round: k, U_sys, and two agents e1, e2 with weights and 100 + 10 tokens each. */
    private static String round(int k, double uSys, String option, double w1) {
        return "{\"k\":" + k + ",\"U_sys\":" + uSys + ",\"agents\":["
                + "{\"id\":\"e1\",\"answer\":\"x\",\"option\":\"" + option + "\",\"weight\":" + w1 + ",\"tokens\":{\"prompt\":100,\"completion\":10}},"
                + "{\"id\":\"e2\",\"answer\":\"x\",\"option\":\"" + option + "\",\"weight\":" + (1 - w1) + ",\"tokens\":{\"prompt\":100,\"completion\":10}}],"
                + "\"extra\":{\"decision\":{\"option\":\"" + option + "\",\"answer\":\"x\"}}}";
    }

    /**
     * The demo's shape on 12 questions: single and vote never debate; debate always runs two rounds; gam debates q0–q2 only
     * (U_sys 0.03 → 0.004 on those, 0.01 on the rest); dream+gam as gam after a probe round of 3 probes, one reused as round 0.
     */
    static List<ResultRecord> records() throws Exception {
        List<ResultRecord> rs = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            for (String m : METHODS) {
                boolean debated = m.equals("debate") || (m.endsWith("gam") && i < 3);
                List<String> rounds = new ArrayList<>();
                rounds.add(round(0, debated ? 0.03 : 0.01, "A", 0.5));
                if (debated) rounds.add(round(1, 0.004, "A", 0.7));
                if (m.equals("debate")) rounds.add(round(2, 0.002, "A", 0.6));
                long tokens = 220L * rounds.size();
                String extra = "";
                if (m.startsWith("dream+")) {
                    // three probes of 55 tokens; the one reused as e1's round-0 answer is that round's, so the probe round costs 110
                    extra = ",\"extra\":{\"branch\":\"PerAgent\",\"probes\":[{\"agent\":\"e1\",\"reused\":true,\"tokens\":{\"prompt\":100,\"completion\":10}},"
                            + "{\"agent\":\"e1\",\"tokens\":{\"prompt\":45,\"completion\":10}},{\"agent\":\"e2\",\"tokens\":{\"prompt\":45,\"completion\":10}}]}";
                    tokens += 110;
                }
                JsonNode trace = Json.MAPPER.readTree("{\"question\":{\"id\":\"q" + i + "\",\"options\":{\"A\":\"red\",\"B\":\"blue\"}},\"rounds\":["
                        + String.join(",", rounds) + "]" + extra + "}");
                boolean single = m.equals("single") || m.equals("vote");
                rs.add(Records.record("q" + i, m).group("q" + i).category(i == 11 && m.equals("single") ? "text" : i % 2 == 0 ? "color" : "shape").l2Category("l2")
                        .outcome(i % 4 == 3 ? "wrong" : "correct").predicted("A").groundTruth(i % 4 == 3 ? "B" : "A").answer("red").option("A")
                        .confidence(0.8).uncertainty(0.2).rounds(rounds.size() - 1)
                        .termination(single ? "single" : debated ? "uncertainty" : "consensus").promptTokens(tokens - 10L * rounds.size() * 2)
                        .completionTokens(10L * rounds.size() * 2).calls(3).millis(100).rule("method").backend("local:gam-perception").trace(trace).build());
            }
        }
        return rs;
    }

    private static JsonNode option(DevToolsSession page, String chart) throws Exception {
        return Json.MAPPER.readTree(page.eval("JSON.stringify(echarts.getInstanceByDom(document.getElementById('" + chart + "')).getOption())").asText());
    }

    private static void open(DevToolsSession page, Path html) throws Exception {
        page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", html.toUri().toString()));
        waitFor("the report's charts", () -> page(page, "!!window.gamReport && !!echarts.getInstanceByDom(document.getElementById('chart-cost'))"));
    }

    @Test void aMethodKeepsItsColourOnTheReportTheComparisonAndTheServerPage() throws Exception {
        Path chrome = chromium();
        if (chrome == null) fail("headless Chromium is needed (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        Map<String, String> palette = MethodPaletteTest.methodColours();
        List<ResultRecord> rs = records();
        RunSummary s = RunSummary.compute("demo.tsv", METHODS, false, 12, List.of(), rs, PriceTable.from(Config.defaults()), 0.5, "gam demo");
        Path report = dir.resolve("report.html");
        HtmlReport.write(report, s, rs, Map.of());
        Path comparison = dir.resolve("comparison.html");
        List<ReportRun> runs = List.of(new ReportRun("base", s, rs), new ReportRun("tuned", s, rs));
        // both runs asked the same questions: the same content hash for each question
        Map<String, String> hashes = new LinkedHashMap<>();
        for (ResultRecord r : rs) hashes.put(r.question().group() == null ? r.question().id() : r.question().group(), "h-" + r.question().id());
        List<RunPairing.Run> compared = runs.stream().map(r -> new RunPairing.Run(r.name(), "demo.tsv", hashes,
                RunSummary.itemsByMethod(s.methods(), rs))).toList();
        HtmlReport.writeComparison(comparison, runs, RunPairing.of(compared, IntervalMethod.WILSON));
        // a run that never debated: its debate plots give way to a one-line reason
        List<ResultRecord> calm = rs.stream().filter(r -> r.method().equals("single") || r.method().equals("vote")).toList();
        Path quiet = dir.resolve("quiet.html");
        HtmlReport.write(quiet, RunSummary.compute("demo.tsv", List.of("single", "vote"), false, 12, List.of(), calm,
                PriceTable.from(Config.defaults()), 0.5, null), calm, Map.of());

        Browser browser = startChromium(chrome);
        try (DevToolsSession page = openPage(browser)) {
            page.call("Page.enable", null);
            ObjectNode size = Json.MAPPER.createObjectNode().put("width", 1280).put("height", 800).put("deviceScaleFactor", 1).put("mobile", false);
            page.call("Emulation.setDeviceMetricsOverride", size);

            open(page, report);
            JsonNode cost = option(page, "chart-cost");
            for (JsonNode point : cost.at("/series/1/data")) {
                String method = point.path("name").asText();
                assertThat(point.at("/itemStyle/color").asText()).as("%s on the report", method).isEqualToIgnoringCase(palette.get(method));
            }
            // the token curves end at the table's tokens per question; DREAM's reused probe counted once
            JsonNode tokens = option(page, "chart-tokens");
            for (JsonNode line : tokens.path("series")) {
                if (!line.path("type").asText().equals("line")) continue;
                JsonNode m = Json.MAPPER.valueToTree(s.metrics().get(line.path("name").asText()));
                JsonNode data = line.path("data");
                assertThat(data.get(data.size() - 1).asDouble()).as("%s ends at the table's figure", line.path("name").asText())
                        .isCloseTo(m.path("promptTokensPerQuestion").asDouble() + m.path("completionTokensPerQuestion").asDouble(), within(1e-9));
            }
            // U_sys over gam's three debated questions: 0.03 → 0.004 with n = 3, not a mean over all twelve in round 0
            JsonNode usys = option(page, "chart-usys");
            JsonNode gam = null;
            for (JsonNode line : usys.path("series")) if (line.path("name").asText().startsWith("gam · debated")) gam = line;
            assertThat(gam).isNotNull();
            assertThat(gam.at("/data/0/value").asDouble()).isCloseTo(0.03, within(1e-12));
            assertThat(gam.at("/data/0/n").asInt()).isEqualTo(3);
            assertThat(gam.at("/data/1/value").asDouble()).isCloseTo(0.004, within(1e-12));
            // no label of the U_sys plot sits on its y axis at 1280 px
            assertThat(page(page, "(() => { const c = echarts.getInstanceByDom(document.getElementById('chart-usys'));"
                    + " const g = c.getModel().getComponent('grid').coordinateSystem.getRect(); const box = document.getElementById('chart-usys').getBoundingClientRect();"
                    + " const labels = [...document.querySelectorAll('#chart-usys svg text')].filter((t) => /n=\\d/.test(t.textContent));"
                    + " return labels.length > 0 && labels.every((t) => t.getBoundingClientRect().left >= box.left + g.x + 1); })()"))
                    .as("U_sys labels clear of the axis").isTrue();
            // the weights legend wraps rather than paginating
            assertThat(option(page, "chart-weights").at("/legend/0/type").asText()).isEqualTo("plain");
            // the flips count only debated questions: gam 3, debate 12
            assertThat(page.eval("document.querySelector('#flips').textContent").asText()).contains("gam39", "debate120");
            assertThat(option(page, "chart-terminations").path("series").toString()).contains("no debate").doesNotContain("\"name\":\"single\"");
            // an empty heat-map cell is not a pale 0 %
            JsonNode heat = option(page, "chart-categories");
            assertThat(heat.at("/series/1/data")).as("the four methods without a 'text' question").hasSize(4);
            assertThat(heat.at("/series/1/itemStyle/color").asText()).isNotEqualTo(heat.at("/visualMap/0/inRange/color/0").asText());

            open(page, comparison);
            JsonNode both = option(page, "chart-cost").at("/series/1/data");
            Map<String, String> symbols = new LinkedHashMap<>();
            for (JsonNode point : both) {
                String name = point.path("name").asText();
                String method = name.substring(name.indexOf(" / ") + 3);
                assertThat(point.at("/itemStyle/color").asText()).as("%s in the comparison", name).isEqualToIgnoringCase(palette.get(method));
                symbols.put(name, point.path("symbol").asText());
            }
            assertThat(symbols.get("base / gam")).as("runs differ by marker").isNotEqualTo(symbols.get("tuned / gam"));

            open(page, quiet);
            assertThat(page.eval("document.getElementById('chart-usys-omitted').textContent").asText()).contains("no question was debated");
            assertThat(page(page, "document.getElementById('chart-usys').hidden")).isTrue();
        } finally {
            stop(browser);
        }

        // gam serve's page: the recent-traces list shows each method in its colour
        try (ServerFixture f = new ServerFixture(ServerFixture.settings(dir), ScriptedBackend.text(r -> "ANSWER: B\nCONFIDENCE: 0.9"), Map.of(), List.of())) {
            for (String m : List.of("gam", "debate")) {
                var body = Json.MAPPER.createObjectNode().put("model", m);
                var content = body.putArray("messages").addObject().put("role", "user").putArray("content");
                content.addObject().put("type", "text").put("text", "Which colour is the right half? A. red B. blue");
                content.addObject().put("type", "image_url").putObject("image_url")
                        .put("url", new dev.gamagent.image.Picture("shapes", ServerFixture.image(160, 100)).dataUrl());
                var reply = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(f.base + "/v1/chat/completions"))
                        .header("Content-Type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
            }
            Browser server = startChromium(chrome);
            try (DevToolsSession page = openPage(server)) {
                page.call("Page.enable", null);
                page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", f.base + "/"));
                waitFor("the page", () -> page(page, "!!window.GamColors && !!document.querySelector('#tab-traces')"));
                page.eval("document.querySelector('#tab-traces').click(); true");
                waitFor("the recent traces", () -> page(page, "document.querySelectorAll('#trace-list .method-swatch').length >= 2"));
                for (String m : List.of("gam", "debate")) {
                    String rgb = page.eval("getComputedStyle(document.querySelector('#trace-list .method-swatch[data-method=\"" + m + "\"]')).backgroundColor").asText();
                    assertThat(rgb).as("%s on gam serve's page", m).isEqualTo(rgbOf(palette.get(m)));
                }
            } finally {
                stop(server);
            }
        }
    }

    private static String rgbOf(String hex) {
        return "rgb(" + Integer.parseInt(hex.substring(1, 3), 16) + ", " + Integer.parseInt(hex.substring(3, 5), 16) + ", "
                + Integer.parseInt(hex.substring(5, 7), 16) + ")";
    }
}
