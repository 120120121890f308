package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.server.ServeWebPageBrowserTest.Browser;
import dev.gamagent.testing.DevToolsSession;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
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
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 27 item 2 in headless Chromium: the viewer explains each decision. A real {@code gam} run (scripted replies, the
 * controller's own trace) on {@code gam serve} shows per round the option mixture Σ w·p that decided, the threshold checks
 * in words, the prompts each expert and critic received and labelled scores, with the question named by the request's
 * id and no "wrong" tint without a ground truth; a recorded trace shows the issue's own example ("stop: U_sys 0.006 <
 * θ_term 0.15 — experts still disagree") and the {@code agreement} termination in its colour; {@code dream+gam} asked on
 * the page streams one line per probe before the branch, and its trace says why the branch was chosen. Issue 42 item 2:
 * a {@code gam} debate and a DREAM rollback show who decided, the winning margin, the configuration that decided and what
 * moved each weight (TraceExplainer's explanation beside the trace); item 5: the image grows with the page, a zoomed
 * claim's label keeps its size on screen, every frame of a video is in view.
 */
class TraceViewerDecisionsBrowserTest {
    @TempDir Path dir;

    /** Unsure experts that disagree (scene says A, the others B), critics that judge every claim accurate. */
    private static ScriptedBackend panel() {
        return new ScriptedBackend("scripted", new Capabilities(true, false, 0, true, false, 0), r -> {
            String p = r.messages().get(0).text();
            String text = p.contains("<task>critique</task>") ? "CLAIM 1: ACCURATE | REASON: the colour is visible | CONFIDENCE: 0.94"
                    : p.contains("<role>scene expert</role>") ? "ANSWER: A\nCLAIM 1: It might possibly be red | CONFIDENCE: 0.3 | REGION: 0.1,0.2,0.5,0.6\nCONFIDENCE: 0.3"
                    : "ANSWER: B\nCLAIM 1: It is perhaps blue, I am not sure | CONFIDENCE: 0.3 | REGION: 0.5,0.1,0.9,0.5\nCONFIDENCE: 0.3";
            return ScriptedBackend.result(text, List.of());
        });
    }

    private static String text(DevToolsSession page, String selector) throws Exception {
        return page.eval("(() => { const e = document.querySelector(" + Json.write(Json.MAPPER.getNodeFactory().textNode(selector))
                + "); return e ? e.textContent : '(missing " + selector.replace("'", "") + ")'; })()").asText();
    }

    @Test void theViewerShowsTheMixtureTheThresholdsInWordsThePromptsAndStreamsEachProbe() throws Exception {
        Path chrome = chromium();
        if (chrome == null) fail("headless Chromium is needed (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        Path image = dir.resolve("sign.png");
        Files.write(image, new Picture("sign", ServerFixture.image(160, 100)).png());
        // gam serve records the prompts by default (ServeCommand adds trace.prompts=true to the defaults)
        Config config = Config.defaults().with("trace.prompts", "true");
        try (ServerFixture f = new ServerFixture(ServerFixture.settings(dir), panel(), Map.of(), List.of(), config)) {
            HttpResponse<String> asked = f.post("/v1/chat/completions", ServerFixture.request("gam", "What colour is the sign?\nA. red\nB. blue",
                    false, ServerFixture.dataUrl()));
            assertThat(asked.statusCode()).as(asked.body()).isEqualTo(200);
            String id = ServerFixture.json(asked).at("/gam/trace_id").asText();
            JsonNode trace = ServerFixture.json(f.get("/v1/traces/" + id));
            assertThat(trace.at("/question/id").asText()).as("the trace names the question by the request's id").isEqualTo(id);
            int rounds = trace.path("rounds").size();
            assertThat(rounds).as("a debate ran").isGreaterThan(1);
            JsonNode lastStop = trace.path("rounds").get(rounds - 1).at("/extra/stop");

            Browser browser = startChromium(chrome);
            try (DevToolsSession page = openPage(browser)) {
                page.call("Page.enable", null);
                page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", f.base + "/#trace=" + id));
                waitFor("the gam trace", () -> intOf(page, "document.querySelectorAll('#trace-body .gv-round').length") == rounds);

                // round 0: the check in words with its values and thresholds, and the mixture that decided
                String check0 = text(page, "#trace-body .gv-round[data-k=\"0\"] .gv-check");
                JsonNode t0 = trace.at("/rounds/0/extra/trigger_check");
                assertThat(check0).startsWith("debate: ")
                        .contains(String.format(java.util.Locale.ROOT, "U_sys %.3f > θ_U 0.5", t0.path("U_sys").asDouble()));
                String mix0 = text(page, "#trace-body .gv-round[data-k=\"0\"] .gv-mixture");
                JsonNode m0 = trace.at("/rounds/0/extra/mixture");
                String decided0 = trace.at("/rounds/0/extra/consensus_option").asText();
                assertThat(mix0).contains("option mixture Σ w·p",
                        String.format(java.util.Locale.ROOT, "A %.3f", m0.path("A").asDouble()),
                        String.format(java.util.Locale.ROOT, "B %.3f", m0.path("B").asDouble()),
                        String.format(java.util.Locale.ROOT, "%s %.3f ← this round's choice", decided0, m0.path(decided0).asDouble()));
                // the last round: why the debate stopped, in words, and the same sentence beside the termination
                String last = text(page, "#trace-body .gv-round[data-k=\"" + (rounds - 1) + "\"] .gv-check");
                assertThat(lastStop.path("reason").asText()).isEqualTo(trace.path("termination").asText());
                assertThat(last).startsWith("stop: ").contains("— experts still disagree");
                if (lastStop.path("reason").asText().equals("stagnation")) {
                    assertThat(last).contains(String.format(java.util.Locale.ROOT, "|ΔU_sys| %.3f < ε 0.01", lastStop.path("delta_U_sys").asDouble()));
                }
                assertThat(text(page, "#trace-body .gv-stop-words")).isEqualTo(last);
                assertThat(text(page, "#trace-body .gv-termination-wrap")).contains(trace.path("termination").asText(), " — ");
                // the prompts each expert and critic received, as text
                assertThat(intOf(page, "document.querySelectorAll('#trace-body .gv-round[data-k=\"0\"] details.gv-prompt').length")).isEqualTo(3);
                assertThat(text(page, "#trace-body .gv-round[data-k=\"0\"] details.gv-prompt pre")).contains("<task>answer</task>",
                        "What colour is the sign?", "[image 1: ");
                assertThat(text(page, "#trace-body .gv-round[data-k=\"1\"] .gv-critic-prompts")).contains("prompt of critic fact",
                        "<task>critique</task>");
                // labelled scores: the critic's confidence and the claim's
                assertThat(text(page, "#trace-body .gv-round[data-k=\"1\"] .gv-verdicts")).contains("(critic's confidence 0.94)");
                assertThat(text(page, "#trace-body .gv-region-legend")).contains("(confidence 0.30; x 10–50 %, y 20–60 % of the image)");
                // the question id is the request's, and a question without ground truth has no "wrong" tint
                assertThat(page.eval("[...document.querySelectorAll('#trace-body .gv-meta dt')].find((d) => d.textContent === 'question id')"
                        + ".nextElementSibling.textContent").asText()).isEqualTo(id);
                assertThat(page.eval("getComputedStyle(document.querySelector('#trace-body .gv-options li.gv-chosen')).backgroundColor").asText())
                        .as("the chosen option without a ground truth is not tinted as wrong").isNotEqualTo("rgb(251, 230, 216)");
                // the image zooms: the button, and a click on a claim zooms to its region
                page.eval("document.querySelector('#trace-body .gv-zoom-in').click(); true");
                assertThat(page.eval("document.querySelector('#trace-body svg.gv-image').getAttribute('viewBox').split(' ')[2]").asText())
                        .as("twice as close: half the width in view").isEqualTo("210");
                page.eval("document.querySelector('#trace-body .gv-region-legend li').click(); true");
                assertThat(text(page, "#trace-body .gv-zoom-level")).isNotEqualTo("100 %").isNotEqualTo("200 %");
                screenshot(page, "viewer-decisions.png");

                // a recorded trace: the example, and the agreement termination in its colour and words
                page.eval("window.rec = document.createElement('div'); document.body.append(window.rec); GamViewer.render(window.rec, "
                        + "{question: {text: 'Which sign?', options: {A: 'stop', B: 'go'}}, method: 'gam', termination: 'uncertainty',"
                        + " final: {option: 'B', answer: 'go', confidence: 0.5}, calls: 9, millis: 10, rounds: ["
                        + "{k: 0, U_sys: 0.2, conflict: 0.65, agents: [], extra: {mixture: {A: 0.4, B: 0.6}, consensus_option: 'B',"
                        + "  trigger_check: {U_sys: 0.2, theta_U: 0.5, uncertainty_crossed: false, conflict: 0.65, theta_C: 0.6, conflict_crossed: true,"
                        + "  reads_uncertainty: true, started_by: 'conflict'}}},"
                        + "{k: 1, U_sys: 0.006, conflict: 0.845, agents: [], extra: {mixture: {A: 0.495, B: 0.498}, consensus_option: 'B',"
                        + "  stop: {reason: 'uncertainty', k: 1, U_sys: 0.006, theta_term: 0.15, previous_U_sys: 0.2, delta_U_sys: 0.194, epsilon: 0.01,"
                        + "  K_max: 3, agreed: false, reads_uncertainty: true}}}]}); true");
                assertThat(page.eval("window.rec.querySelector('.gv-round[data-k=\"0\"] .gv-check').textContent").asText())
                        .isEqualTo("debate: C 0.650 > θ_C 0.6");
                assertThat(page.eval("window.rec.querySelector('.gv-round[data-k=\"1\"] .gv-check').textContent").asText())
                        .isEqualTo("stop: U_sys 0.006 < θ_term 0.15 — experts still disagree (C 0.845)");
                assertThat(page.eval("window.rec.querySelector('.gv-round[data-k=\"1\"] .gv-mixture').textContent").asText())
                        .contains("A 0.495", "B 0.498 ← this round's choice");
                page.eval("GamViewer.render(window.rec, {question: {text: 'q'}, method: 'gam', termination: 'agreement', rounds: [], final: {}}); true");
                assertThat(page.eval("window.rec.querySelector('.gv-termination-wrap').textContent").asText())
                        .isEqualTo("agreement — every expert with an opinion chose the same answer");
                assertThat(page.eval("getComputedStyle(window.rec.querySelector('.gv-termination')).backgroundColor").asText())
                        .isEqualTo("rgb(0, 158, 115)");
                page.eval("GamViewer.render(window.rec, {question: {text: 'q'}, method: 'dream+gam', termination: 'consensus', rounds: [], final: {},"
                        + " extra: {branch: 'PerAgent', consensus: true, debate_skipped: true, probes: []}}); true");
                assertThat(page.eval("window.rec.textContent").asText()).contains("so no debate ran (the debate was skipped)");
                page.eval("window.rec.remove(); true");

                // dream+gam asked on the page: one progress line per probe as it finishes, all before the branch
                int root = page.call("DOM.getDocument", null).path("root").path("nodeId").asInt();
                int input = page.call("DOM.querySelector", Json.MAPPER.createObjectNode().put("nodeId", root).put("selector", "#image"))
                        .path("nodeId").asInt();
                var files = Json.MAPPER.createObjectNode().put("nodeId", input);
                files.putArray("files").add(image.toString());
                page.call("DOM.setFileInputFiles", files);
                waitFor("the method list", () -> intOf(page, "document.querySelectorAll('#method option').length") > 2);
                page.eval("document.querySelector('#question').value = 'What colour is the sign?';"
                        + "document.querySelector('#options').value = 'A. red\\nB. blue';"
                        + "document.querySelector('#method').value = 'dream+gam';"
                        + "document.querySelector('#ask-button').click(); true");
                waitFor("the dream+gam answer and its trace", () -> !page(page, "document.querySelector('#answer').hidden")
                        && page(page, "!!document.querySelector('#trace-body .gv-dream')"));
                String dreamId = null;
                for (JsonNode t : ServerFixture.json(f.get("/v1/traces")).path("data")) if (t.path("method").asText().equals("dream+gam")) dreamId = t.path("id").asText();
                assertThat(dreamId).as("the dream+gam trace is stored").isNotNull();
                JsonNode dream = ServerFixture.json(f.get("/v1/traces/" + dreamId));
                int n = dream.at("/extra/probes").size();
                assertThat(n).isEqualTo(9);
                assertThat(intOf(page, "document.querySelectorAll('#progress li.event-probe_answered').length")).as("one line per probe").isEqualTo(n);
                assertThat(page.eval("(() => { const li = [...document.querySelectorAll('#progress li')];"
                        + " const b = li.findIndex((e) => e.classList.contains('event-dream_branch'));"
                        + " return b > 0 && li.slice(b).every((e) => !e.classList.contains('event-probe_answered')); })()").asBoolean())
                        .as("every probe line comes before the branch line").isTrue();
                assertThat(text(page, "#progress li.event-probe_answered")).matches("probe · (scene|ocr|relational) ×[0-9.]+ \\(\\d+×\\d+\\) → [AB]\\. (red|blue) · u [0-9.]+ \\(semantic\\)");
                assertThat(text(page, "#trace-body .gv-branch-reason")).startsWith("Why this branch: ")
                        .endsWith(dream.at("/extra/branch_reason").asText());
                assertThat(text(page, "#trace-body .gv-probe-prompts")).contains("probe prompt of scene", "[image 1 at the probe's scale]");
            } finally {
                stop(browser);
            }
        }
    }

    /**
     * The first expert answers A surely (log-prob 0.99), then B unsurely (0.4) once critiqued; the others say B (0.55). A
     * {@code gam} debate (θ_U 0.1 starts it) moves the weights; DREAM then rolls the first expert back to A.
     */
    private static ScriptedBackend switching() {
        return new ScriptedBackend("scripted", new Capabilities(true, true, 5, false, false, 0), r -> {
            String p = r.messages().get(r.messages().size() - 1).text();
            String text;
            double prob;
            if (p.contains("<task>critique</task>")) { text = "CLAIM 1: INACCURATE | REASON: the sign is blue | CONFIDENCE: 0.9"; prob = 0.9; }
            else if (p.contains("<role>scene expert</role>") && !p.contains("<task>revise</task>")) {
                text = "ANSWER: A\nCLAIM 1: The sign is red | CONFIDENCE: 0.9 | REGION: 0.1,0.2,0.5,0.6\nCONFIDENCE: 0.9"; prob = 0.99;
            } else if (p.contains("<role>scene expert</role>")) { text = "ANSWER: B\nCLAIM 1: Perhaps it is blue | CONFIDENCE: 0.4\nCONFIDENCE: 0.4"; prob = 0.4; }
            else { text = "ANSWER: B\nCLAIM 1: The sign looks blue | CONFIDENCE: 0.6 | REGION: 0.5,0.1,0.9,0.5\nCONFIDENCE: 0.6"; prob = 0.55; }
            return ScriptedBackend.result(text, List.of(new dev.gamagent.backend.TokenLogprob("x", Math.log(prob), List.of())));
        });
    }

    private static String f3(double x) { return String.format(java.util.Locale.ROOT, "%.3f", x); }

    /** Issue 42 item 2 and item 5: a gam debate and a DREAM rollback explained on gam serve's page, readable at 1920 px. */
    @Test void aGamDebateAndADreamRollbackShowTheMarginTheConfigAndDecidedBy() throws Exception {
        Path chrome = chromium();
        if (chrome == null) fail("headless Chromium is needed (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        Config config = Config.defaults().with("gam.theta_u", "0.1");
        try (ServerFixture f = new ServerFixture(ServerFixture.settings(dir), switching(), Map.of(), List.of(), config)) {
            String question = "What colour is the sign?\nA. red\nB. blue";
            HttpResponse<String> asked = f.post("/v1/chat/completions", ServerFixture.request("gam", question, false, ServerFixture.dataUrl()));
            assertThat(asked.statusCode()).as(asked.body()).isEqualTo(200);
            String gamId = ServerFixture.json(asked).at("/gam/trace_id").asText();
            JsonNode gam = ServerFixture.json(f.get("/v1/traces/" + gamId));
            int rounds = gam.path("rounds").size();
            assertThat(rounds).as("a debate ran").isGreaterThan(1);
            assertThat(gam.at("/explanation/consistent").asBoolean()).as(gam.at("/explanation/checks").toString()).isTrue();
            HttpResponse<String> dreamAsked = f.post("/v1/chat/completions", ServerFixture.request("dream+gam", question, false, ServerFixture.dataUrl()));
            assertThat(dreamAsked.statusCode()).as(dreamAsked.body()).isEqualTo(200);
            String dreamId = ServerFixture.json(dreamAsked).at("/gam/trace_id").asText();
            JsonNode dream = ServerFixture.json(f.get("/v1/traces/" + dreamId));
            assertThat(dream.at("/extra/rollbacks").size()).as("the scene expert was rolled back").isPositive();
            assertThat(dream.at("/explanation/consistent").asBoolean()).as(dream.at("/explanation/checks").toString()).isTrue();

            Browser browser = startChromium(chrome);
            try (DevToolsSession page = openPage(browser)) {
                page.call("Page.enable", null);
                page.call("Emulation.setDeviceMetricsOverride", Json.MAPPER.createObjectNode().put("width", 1920).put("height", 1080)
                        .put("deviceScaleFactor", 1).put("mobile", false));
                page.call("Page.navigate", Json.MAPPER.createObjectNode().put("url", f.base + "/#trace=" + gamId));
                waitFor("the gam trace", () -> intOf(page, "document.querySelectorAll('#trace-body .gv-round').length") == rounds);

                // the margin: the last round's Σ w·p of the winner against the best other option
                JsonNode mix = gam.path("rounds").get(rounds - 1).at("/extra/mixture");
                String win = gam.at("/final/option").asText(), other = win.equals("A") ? "B" : "A";
                assertThat(text(page, "#trace-body .gv-explain-margin")).isEqualTo("Winning margin: " + win + " " + f3(mix.path(win).asDouble())
                        + " vs " + other + " " + f3(mix.path(other).asDouble()) + " (Σ w·p): margin " + f3(mix.path(win).asDouble() - mix.path(other).asDouble()));
                // the configuration that decided, as the trace recorded it
                assertThat(text(page, "#trace-body .gv-explain-config")).contains("θ_U = 0.1", "θ_C = 0.6", "θ_term = 0.15", "ε = 0.01",
                        "K_max = 3", "λ = 0.5", "γ = 0.5", "τ = 0.5");
                assertThat(text(page, "#trace-body .gv-explain .gv-decided-by")).isEqualTo("gam");
                assertThat(text(page, "#trace-body .gv-scores .gv-decided-by")).isEqualTo("gam");
                // each agent's p and what moved its weight: the critiques of its claims, its U and its agreement
                assertThat(text(page, "#trace-body .gv-round[data-k=\"1\"] tr[data-agent=\"scene\"] .gv-moved"))
                        .contains("w " + f3(gam.at("/rounds/0/agents/0/weight").asDouble()) + " → " + f3(gam.at("/rounds/1/agents/0/weight").asDouble()),
                                "answer changed A → B");
                assertThat(page.eval("[...document.querySelectorAll('#trace-body .gv-round[data-k=\"1\"] .gv-moved')].some((e) => /\\d inaccurate/.test(e.textContent))").asBoolean())
                        .as("the critiques that called claims inaccurate are named").isTrue();
                assertThat(text(page, "#trace-body .gv-round[data-k=\"0\"] td.gv-dist")).startsWith("A 0.99 · B ");

                // item 5: the image grows with the page; a claim zoomed to keeps its label at its size on screen
                assertThat(page.eval("document.querySelector('#trace-body svg.gv-image').getBoundingClientRect().width").asDouble())
                        .as("the image at 1920 px, in the page's 1100 px column beside the chart").isGreaterThan(560);
                double before = page.eval("document.querySelector('#trace-body .gv-region-label').getBoundingClientRect().height").asDouble();
                page.eval("document.querySelector('#trace-body .gv-region-legend li.gv-claim').focus(); true");
                page.eval("document.querySelector('#trace-body .gv-region-legend li.gv-claim').dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true})); true");
                assertThat(text(page, "#trace-body .gv-zoom-level")).isNotEqualTo("100 %");
                double after = page.eval("document.querySelector('#trace-body .gv-region-label').getBoundingClientRect().height").asDouble();
                assertThat(after).as("the label's height on screen after zooming in").isCloseTo(before, org.assertj.core.api.Assertions.within(1.0));
                assertThat(before).as("a label 14 px high on screen").isBetween(12.0, 16.0);

                // the DREAM rollback: who decided, the mixture after the rollback, the measure the rollback compared
                page.eval("showTrace(" + Json.write(Json.MAPPER.getNodeFactory().textNode(dreamId)) + "); true");
                waitFor("the dream+gam trace", () -> page(page, "!!document.querySelector('#trace-body .gv-after-words')"));
                assertThat(text(page, "#trace-body .gv-dream-decided-by")).isEqualTo("gam");
                assertThat(text(page, "#trace-body .gv-scores .gv-decided-by")).isEqualTo("gam");
                String after0 = text(page, "#trace-body .gv-after-words");
                assertThat(after0).startsWith("Decided by gam: decided by gam's rule Σ w·p over the answers after the rollback").doesNotContain("vote");
                JsonNode ar = dream.at("/explanation/dream/after_rollback/decision");
                assertThat(text(page, "#trace-body .gv-after-mixture")).contains(dream.at("/final/option").asText() + " "
                        + f3(dream.at("/final/confidence").asDouble()) + " ← final");
                assertThat(text(page, "#trace-body .gv-explain-margin")).contains(ar.path("winner").asText() + " " + f3(ar.path("winner_value").asDouble()),
                        "margin " + f3(ar.path("margin").asDouble()));
                assertThat(text(page, "#trace-body .gv-rollbacks li")).contains("u_ANLL", "(1 + ρ)");
                assertThat(text(page, "#trace-body .gv-explain-config")).contains("ρ = 0.5", "θ_U = 0.1");
                assertThat(page.eval("[...document.querySelectorAll('#trace-body .gv-scores dt')].map((d) => d.textContent).join('|')").asText())
                        .contains("confidence (after the rollback)");
                assertThat(text(page, "#trace-body .gv-final-note")).contains("decided after DREAM's rollback");
                assertThat(text(page, "#trace-body .gv-dream")).doesNotContain("the vote decides").doesNotContain("still ran");
                // the probe table: u with the explanation's digits, the confident mark the engine's
                JsonNode p0 = dream.at("/explanation/dream/probes/0");
                assertThat(text(page, "#trace-body .gv-probes tbody tr td.gv-probe-u")).startsWith(p0.path("u_text").asText());
                assertThat(text(page, "#trace-body .gv-probes thead")).contains("u ≤ τ = " + dream.at("/explanation/dream/threshold_text").asText());
                screenshot(page, "viewer-explained-rollback.png");

                // item 5: every frame of an eight-frame video is in view (the strip wraps, it does not scroll)
                page.eval("window.rec = document.createElement('div'); document.body.append(window.rec); GamViewer.render(window.rec, "
                        + "{question: {text: 'What happens?', images: [...Array(8).keys()].map((i) => 'clip.mp4#frame-' + (i * 10) + ' (64x48)')},"
                        + " method: 'gam', termination: 'consensus', final: {answer: 'x'}, rounds: [{k: 0, agents: [{id: 'scene', answer: 'x',"
                        + " uncertainty: 0.1, weight: 1, claims: [{n: 1, text: 'it moves', confidence: 0.8, frame: 8, region: {x0: 0.1, y0: 0.1, x1: 0.5, y1: 0.5}}]}]}]}); true");
                assertThat(intOf(page, "window.rec.querySelectorAll('.gv-frame').length")).isEqualTo(8);
                assertThat(page.eval("(() => { const s = window.rec.querySelector('.gv-frames'); const b = s.getBoundingClientRect();"
                        + " return s.scrollWidth <= s.clientWidth && [...s.querySelectorAll('.gv-frame')].every((f) => { const r = f.getBoundingClientRect();"
                        + " return r.left >= b.left - 0.5 && r.right <= b.right + 0.5; }); })()").asBoolean()).as("all eight frames in view").isTrue();
                page.eval("window.rec.remove(); true");
            } finally {
                stop(browser);
            }
        }
    }
}
