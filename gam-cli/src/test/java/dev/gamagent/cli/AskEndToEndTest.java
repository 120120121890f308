package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.testing.TriangleImage;
import dev.gamagent.testing.http.AnthropicWireServer;
import dev.gamagent.testing.http.DisagreeingExperts;
import dev.gamagent.testing.http.GeminiWireServer;
import dev.gamagent.testing.http.OllamaWireServer;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.WireServer;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import javax.imageio.ImageIO;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 3's acceptance test: {@code gam ask} end to end through {@link Main#run} against real HTTP wire
 * servers whose replies carry top-k log-probs. The round-0 uncertainties, option distributions and
 * influence weights in the trace are recomputed here, independently of the production code, from the
 * log-probs the server sent (docs/design.md §3–5). Also: the other wire formats, dream+gam, debate, log-prob
 * refusal, answer-span scoring, and {@code gam eval} over the same server.
 */
class AskEndToEndTest {
    static final int WIDTH = TriangleImage.WIDTH;
    private static final double LAMBDA = 0.5, GAMMA = 0.5, TAU = 0.5, ALPHA = 0.5, BETA = 0.5;
    private static final List<String> LETTERS = List.of("A", "B", "C");

    @TempDir Path dir;

    /** A red triangle on white, written as a real PNG file. */
    static Path trianglePng(Path dir) throws Exception {
        Path p = dir.resolve("triangle.png");
        ImageIO.write(TriangleImage.draw(), "png", p.toFile());
        return p;
    }

    private record Run(int code, String out) { }

    /** Main.run with stdout captured (ask prints its JSON on System.out). */
    private static synchronized Run run(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            int code = Main.run(args);
            return new Run(code, buf.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(old);
        }
    }

    private Run ask(WireServer server, String backend, String method, Path trace, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("ask", "--method", method, "--backend", backend, "--base-url", server.baseUrl(),
                "--image", trianglePng(dir).toString(), "--question", "What color is the triangle?", "--option", "A=red",
                "--option", "B=blue", "--option", "C=green", "--json", "--trace", trace.toString(), "--retries", "0"));
        args.addAll(List.of(more));
        return run(args.toArray(String[]::new));
    }

    private static JsonNode answerJson(Run r) throws Exception {
        assertThat(r.code()).as("exit code; stdout: " + r.out()).isZero();
        JsonNode o = Json.MAPPER.readTree(r.out().strip());
        for (String f : List.of("answer", "option", "confidence", "uncertainty", "rounds", "termination", "tokens", "method")) {
            assertThat(o.has(f)).as("field '" + f + "' in " + o).isTrue();
        }
        assertThat(o.path("tokens").path("prompt").isIntegralNumber()).isTrue();
        assertThat(o.path("tokens").path("completion").isIntegralNumber()).isTrue();
        return o;
    }

    @Test void gamThroughAnOpenAiServerReportsRound0WeightsEqualToTheClosedFormOfTheGame() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            DisagreeingExperts panel = new DisagreeingExperts(WIDTH);
            server.respondWith(panel);
            Path tracePath = dir.resolve("t.json");
            JsonNode o = answerJson(ask(server, "openai", "gam", tracePath));
            server.assertNoViolations();

            assertThat(o.path("method").asText()).isEqualTo("gam");
            assertThat(o.path("option").asText()).isEqualTo("A");
            assertThat(o.path("answer").asText()).isEqualTo("red");
            assertThat(o.path("rounds").asInt()).isGreaterThanOrEqualTo(1);
            assertThat(o.path("tokens").path("prompt").asLong()).isEqualTo(321L * server.chatRequests().size());
            assertThat(panel.tasks()).containsKeys("answer", "critique", "revise");

            JsonNode trace = Json.MAPPER.readTree(Files.readString(tracePath));
            JsonNode r0 = trace.path("rounds").get(0);
            assertThat(r0.path("k").asInt()).isZero();
            JsonNode agents = r0.path("agents");
            assertThat(agents).hasSize(3);
            int n = agents.size();
            double[] u = new double[n];
            List<Map<String, Double>> dists = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                JsonNode a = agents.get(j);
                List<TokenLogprob> sent = panel.firstAnswer(a.path("role").asText() + " expert");
                assertThat(sent).as("the server's first reply to " + a.path("role")).isNotNull();
                u[j] = a.path("uncertainty").asDouble();
                assertThat(a.path("signal").asText()).isEqualTo("logprobs-topk");
                assertThat(u[j]).as("U of " + a.path("id") + " = Φ_gen of the content tokens the server sent")
                        .isCloseTo(phiGen(content(sent)), within(1e-9));
                Map<String, Double> d = new LinkedHashMap<>();
                a.path("optionDistribution").fields().forEachRemaining(e -> d.put(e.getKey(), e.getValue().asDouble()));
                Map<String, Double> expected = letterDistribution(sent, a.path("option").asText());
                for (String l : LETTERS) assertThat(d.get(l)).as(a.path("id") + " p(" + l + ")").isCloseTo(expected.get(l), within(1e-9));
                dists.add(d);
            }
            assertThat(agents.get(0).path("option").asText()).isNotEqualTo(agents.get(1).path("option").asText());
            List<String> regionFields = new ArrayList<>();
            agents.get(0).at("/claims/0/region").fieldNames().forEachRemaining(regionFields::add);
            assertThat(regionFields).as("a claim's region in the trace").containsExactly("x0", "y0", "x1", "y1");

            // s_j = (1 − U_j) + λ·Σ_{i≠j} Sim_ij − γ·N·U_j ; w = softmax(s/τ) (docs/design.md §5), Sim = Bhattacharyya (§4)
            double[][] sim = new double[n][n];
            for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) {
                double b = 0;
                for (String l : LETTERS) b += Math.sqrt(dists.get(i).get(l) * dists.get(j).get(l));
                sim[i][j] = b;
            }
            double[] s = new double[n];
            for (int j = 0; j < n; j++) {
                double agree = 0;
                for (int i = 0; i < n; i++) if (i != j) agree += sim[i][j];
                s[j] = (1 - u[j]) + LAMBDA * agree - GAMMA * n * u[j];
            }
            double z = 0;
            double[] w = new double[n];
            for (int j = 0; j < n; j++) z += w[j] = Math.exp(s[j] / TAU);
            double uSys = 0, num = 0, den = 0;
            for (int j = 0; j < n; j++) {
                w[j] /= z;
                assertThat(agents.get(j).path("weight").asDouble()).as("w of " + agents.get(j).path("id")).isCloseTo(w[j], within(1e-9));
                uSys += w[j] * u[j];
            }
            for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) {
                num += w[i] * w[j] * (1 - sim[i][j]);
                den += w[i] * w[j];
            }
            assertThat(r0.path("U_sys").asDouble()).isCloseTo(uSys, within(1e-9));
            assertThat(r0.path("conflict").asDouble()).isCloseTo(num / den, within(1e-9));
            assertThat(r0.path("extra").path("trigger").asBoolean()).as("the disagreement starts a debate").isTrue();

            JsonNode r1 = trace.path("rounds").get(1);
            assertThat(r1.path("k").asInt()).isEqualTo(1);
            assertThat(r1.path("critiques").size()).as("critics assessed disputed claims").isGreaterThan(0);
            for (JsonNode a : r1.path("agents")) assertThat(a.path("option").asText()).as("revised answers").isEqualTo("A");
            assertThat(trace.path("termination").asText()).isEqualTo(o.path("termination").asText()).isEqualTo("uncertainty");
            assertThat(trace.path("final").path("option").asText()).isEqualTo("A");
        }
    }

    @Test void answerSpanScoringThroughTheServerScoresOnlyTheAnswerLetterToken() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            DisagreeingExperts panel = new DisagreeingExperts(WIDTH);
            server.respondWith(panel);
            Path tracePath = dir.resolve("span.json");
            answerJson(ask(server, "openai", "gam", tracePath, "--set", "gam.scoring=answer-span"));
            JsonNode trace = Json.MAPPER.readTree(Files.readString(tracePath));
            assertThat(trace.at("/extra/scoring").asText()).isEqualTo("answer-span");
            for (JsonNode a : trace.at("/rounds/0/agents")) {
                List<TokenLogprob> sent = panel.firstAnswer(a.path("role").asText() + " expert");
                List<TokenLogprob> letter = sent.stream().filter(t -> t.token().equals(a.path("option").asText())).toList();
                assertThat(letter).hasSize(1);
                assertThat(a.path("uncertainty").asDouble()).as("U of " + a.path("id")).isCloseTo(phiGen(letter), within(1e-9));
            }
        }
    }

    @Test void withZoomTheCriticsReceiveACropOfEachDisputedClaimsRegionAsARealImage() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(new DisagreeingExperts(WIDTH));
            answerJson(ask(server, "openai", "gam", dir.resolve("zoom.json"), "--set", "gam.zoom=true"));
            server.assertNoViolations();
            List<JsonNode> critics = server.chatRequests().stream().map(r -> r.json())
                    .filter(j -> DisagreeingExperts.promptText(j).contains("<task>critique</task>")).toList();
            assertThat(critics).hasSize(3);
            for (JsonNode j : critics) {
                long images = 0;
                for (JsonNode part : j.at("/messages/0/content")) if (part.has("image_url")) images++;
                assertThat(images).as("the picture plus one crop per disputed claim with a region").isEqualTo(4);
                assertThat(DisagreeingExperts.promptText(j)).contains("image 2 = zoom on CLAIM 1");
            }
        }
    }

    @Test void gamThroughOllamasNativeApiAnswersAndWritesTheTrace() throws Exception {
        try (OllamaWireServer server = new OllamaWireServer()) {
            DisagreeingExperts panel = new DisagreeingExperts(WIDTH);
            server.respondWith(panel);
            Path tracePath = dir.resolve("ollama.json");
            JsonNode o = answerJson(ask(server, "ollama", "gam", tracePath));
            server.assertNoViolations();
            assertThat(o.path("method").asText()).isEqualTo("gam");
            assertThat(o.path("option").asText()).isEqualTo("A");
            JsonNode trace = Json.MAPPER.readTree(Files.readString(tracePath));
            JsonNode a0 = trace.path("rounds").get(0).path("agents").get(0);
            assertThat(a0.path("signal").asText()).isEqualTo("logprobs-topk");
            assertThat(a0.path("uncertainty").asDouble())
                    .isCloseTo(phiGen(content(panel.firstAnswer(a0.path("role").asText() + " expert"))), within(1e-9));
            assertThat(panel.tasks()).containsKeys("critique", "revise");
        }
    }

    @Test void dreamPlusGamThroughAnOpenAiServerRecordsTheProbeBranchInTheTrace() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            DisagreeingExperts panel = new DisagreeingExperts(WIDTH);
            server.respondWith(panel);
            Path tracePath = dir.resolve("dream.json");
            JsonNode o = answerJson(ask(server, "openai", "dream+gam", tracePath));
            server.assertNoViolations();
            assertThat(o.path("method").asText()).isEqualTo("dream+gam");
            assertThat(o.path("option").asText()).isEqualTo("A");
            JsonNode trace = Json.MAPPER.readTree(Files.readString(tracePath));
            JsonNode extra = trace.path("extra");
            // the probes are the experts' round-0 requests (issue 26), which this server answers by role at every scale: the
            // scene and relational experts say A sharply (the confident set), the OCR expert B less sharply at no confident
            // scale, so DREAM's tree gives MixRes over the confident scales, and round 0 is asked again with every scale
            assertThat(extra.path("branch").asText()).isEqualTo("MixRes");
            assertThat(extra.path("consensus").asBoolean()).isFalse();
            assertThat(extra.path("assignment").toString()).isEqualTo("[[0.5,1.0,2.0],[0.5,1.0,2.0],[0.5,1.0,2.0]]");
            List<Integer> probeWidths = server.chatRequests().stream()
                    .filter(r -> DisagreeingExperts.promptText(r.json()).contains("<task>answer</task>"))
                    .map(r -> DisagreeingExperts.imageWidth(r.json())).toList();
            assertThat(probeWidths).as("nine probes at three widths, then round 0 with the images at every scale (first: 0.5x)")
                    .hasSize(12).containsOnly(WIDTH / 2, WIDTH, 2 * WIDTH);
            assertThat(extra.path("probes")).hasSize(9).allSatisfy(p -> {
                assertThat(p.path("request").asText()).isEqualTo("round-0");
                assertThat(p.path("reused").asBoolean()).isFalse();
            });
            assertThat(extra.path("inner_method").asText()).isEqualTo("gam");
            assertThat(trace.path("rounds").size()).isGreaterThan(0);
            assertThat(panel.tasks().get("answer")).isEqualTo(12);
        }
    }

    @Test void debateThroughAnOpenAiServerAnswersWithValidJsonAndATrace() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(new DisagreeingExperts(WIDTH));
            Path tracePath = dir.resolve("debate.json");
            JsonNode o = answerJson(ask(server, "openai", "debate", tracePath));
            server.assertNoViolations();
            assertThat(o.path("method").asText()).isEqualTo("debate");
            assertThat(o.path("option").asText()).isEqualTo("A");
            JsonNode trace = Json.MAPPER.readTree(Files.readString(tracePath));
            assertThat(trace.path("method").asText()).isEqualTo("debate");
            assertThat(trace.path("rounds").size()).isGreaterThan(0);
        }
    }

    @ParameterizedTest(name = "{0} through {1}")
    @CsvSource({"gam, gemini", "gam, anthropic", "dream+gam, gemini", "dream+gam, anthropic", "dream+gam, ollama"})
    void gamAndDreamAnswerThroughTheOtherWireFormats(String method, String backend) throws Exception {
        try (WireServer server = switch (backend) {
            case "gemini" -> new GeminiWireServer();
            case "anthropic" -> new AnthropicWireServer();
            default -> new OllamaWireServer();
        }) {
            server.respondWith(new DisagreeingExperts(WIDTH));
            Path tracePath = dir.resolve(backend + ".json");
            // hosted APIs list no model to pick and need a key header: name the model, and take the key from a variable
            // every test environment has (its value is only sent to the local wire server)
            String[] model = backend.equals("ollama") ? new String[0]
                    : new String[] {"--model", backend.equals("gemini") ? "gemini-2.5-flash" : "claude-sonnet-4-5", "--api-key-env", "PATH"};
            JsonNode o = answerJson(ask(server, backend, method, tracePath, model));
            server.assertNoViolations();
            assertThat(o.path("method").asText()).isEqualTo(method);
            assertThat(o.path("option").asText()).isEqualTo("A");
            JsonNode trace = Json.MAPPER.readTree(Files.readString(tracePath));
            String signal = trace.at("/rounds/0/agents/0/signal").asText();
            assertThat(signal).isEqualTo(backend.equals("anthropic") ? "semantic" : "logprobs-topk");
            if (method.startsWith("dream+")) assertThat(trace.at("/extra/branch").asText()).isNotBlank();
        }
    }

    @Test void gamFallsBackToSemanticUncertaintyWhenTheServerRefusesLogprobsAndNarrowsTopKWhenItCapsIt() throws Exception {
        try (OpenAiWireServer refusing = new OpenAiWireServer().rejectLogprobs()) {
            refusing.respondWith(new DisagreeingExperts(WIDTH));
            Path t = dir.resolve("refusing.json");
            JsonNode o = answerJson(ask(refusing, "openai", "gam", t));
            assertThat(o.path("option").asText()).isEqualTo("A");
            assertThat(o.path("signal").asText()).isEqualTo("semantic");
        }
        try (OpenAiWireServer capped = new OpenAiWireServer().maxTopLogprobs(2)) {
            DisagreeingExperts panel = new DisagreeingExperts(WIDTH);
            capped.respondWith(panel);
            Path t = dir.resolve("capped.json");
            JsonNode o = answerJson(ask(capped, "openai", "gam", t));
            assertThat(o.path("option").asText()).isEqualTo("A");
            assertThat(o.path("signal").asText()).isEqualTo("logprobs-topk");
            assertThat(capped.chatRequests().get(capped.chatRequests().size() - 1).json().path("top_logprobs").asInt()).isEqualTo(2);
        }
    }

    @Test void evalOverAnOpenAiServerScoresGamDreamAndDebateAndResumesWithoutNewCalls() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(new DisagreeingExperts(WIDTH));
            String b64 = java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(trianglePng(dir)));
            Path tsv = dir.resolve("tri.tsv");
            Files.writeString(tsv, "index\timage\tquestion\tA\tB\tC\tanswer\tcategory\n"
                    + "0\t" + b64 + "\tWhat color is the triangle?\tred\tblue\tgreen\tA\tcolor\n"
                    + "1\t0\tWhich colour fills the shape?\tred\tblue\tgreen\tA\tcolor\n");
            Path out = dir.resolve("eval");
            String[] args = {"eval", "--data", tsv.toString(), "--methods", "gam,dream+gam,debate", "--out", out.toString(),
                    "--backend", "openai", "--base-url", server.baseUrl(), "--retries", "0"};
            Run first = run(args);
            assertThat(first.code()).as(first.out()).isZero();
            server.assertNoViolations();
            List<String> lines = Files.readAllLines(out.resolve("results.jsonl"));
            assertThat(lines).hasSize(6);
            List<String> methods = new ArrayList<>();
            for (String l : lines) {
                JsonNode r = Json.MAPPER.readTree(l);
                methods.add(r.path("method").asText());
                assertThat(r.path("option").asText()).as(l).isEqualTo("A");
                assertThat(r.path("outcome").asText()).as(r.path("method") + " on " + r.path("questionId")).isEqualTo("correct");
                assertThat(r.path("trace").path("method").asText()).isEqualTo(r.path("method").asText());
            }
            assertThat(methods).containsExactlyInAnyOrder("gam", "gam", "dream+gam", "dream+gam", "debate", "debate");
            assertThat(Files.readString(out.resolve("summary.json"))).contains("dream+gam").contains("debate");
            assertThat(out.resolve("report.html")).exists();
            int calls = server.chatRequests().size();
            Run again = run(args);
            assertThat(again.code()).as(again.out()).isZero();
            assertThat(server.chatRequests()).as("a rerun redoes nothing").hasSize(calls);
            assertThat(Files.readAllLines(out.resolve("results.jsonl"))).hasSize(6);
        }
    }

    // ---- the formulas, written again from docs/design.md, independent of the production code ----

    /** Φ_gen (docs/design.md §3): mean over tokens of α·Ĥ_t + β·(1 − Δ_t), Ĥ over (top-k, residual) / ln(k+1). */
    /** The tokens gam's default {@code content} scoring reads: those overlapping the answer, claim and evidence text. */
    static List<TokenLogprob> content(List<TokenLogprob> sent) {
        List<TokenLogprob> c = dev.gamagent.uncertainty.ContentSpans.select(sent, dev.gamagent.gam.ClaimParser::contentSpans);
        assertThat(c).as("content tokens of the reply").isNotEmpty().hasSizeLessThan(sent.size());
        return c;
    }

    static double phiGen(List<TokenLogprob> tokens) {
        double sum = 0;
        for (TokenLogprob t : tokens) {
            int k = t.top().size();
            double[] p = new double[k];
            double mass = 0;
            for (int j = 0; j < k; j++) mass += p[j] = Math.exp(t.top().get(j).logprob());
            double r = Math.max(0, 1 - mass);
            double h = r > 0 ? -r * Math.log(r) : 0;
            for (double x : p) if (x > 0) h -= x * Math.log(x);
            double[] sorted = p.clone();
            java.util.Arrays.sort(sorted);
            double gap = sorted[k - 1] - sorted[k - 2];
            sum += ALPHA * h / Math.log(k + 1) + BETA * (1 - gap);
        }
        return sum / tokens.size();
    }

    /** p over A..C from the answer-letter token's alternatives, restricted to option letters and renormalised (§4). */
    static Map<String, Double> letterDistribution(List<TokenLogprob> tokens, String chosen) {
        TokenLogprob letter = tokens.stream().filter(t -> t.token().equals(chosen) && t.top().size() > 1
                && t.top().stream().anyMatch(a -> a.token().equals("B"))).findFirst().orElseThrow();
        Map<String, Double> p = new LinkedHashMap<>();
        double z = 0;
        for (String l : LETTERS) {
            double v = letter.top().stream().filter(a -> a.token().equals(l)).mapToDouble(a -> Math.exp(a.logprob())).sum();
            p.put(l, v);
            z += v;
        }
        for (String l : LETTERS) p.put(l, p.get(l) / z);
        return p;
    }
}
