package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.testing.http.DisagreeingExperts;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Received;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.gamagent.cli.AskEndToEndTest.content;
import static dev.gamagent.cli.AskEndToEndTest.letterDistribution;
import static dev.gamagent.cli.AskEndToEndTest.phiGen;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 17's acceptance test: {@code examples/panel.json} — two OpenAI-compatible servers and the built-in model
 * in one panel — run through {@code gam ask}, {@code gam eval} and {@code gam serve} against two real loopback
 * HTTP servers that answer differently (the large one says A sharply, the small one B less surely). Each agent's
 * requests must reach its own server, the trace must say which backend and model answered, and GAM's round-0
 * weights must follow each server's log-probs (recomputed here from what each server sent, docs/design.md §3–5).
 */
class MixedPanelEndToEndTest {
    static final Path EXAMPLE = Path.of("examples/panel.json");
    static final String LARGE_MODEL = "Qwen/Qwen2.5-VL-7B-Instruct", SMALL_MODEL = "Qwen/Qwen2.5-VL-3B-Instruct";
    private static final int WIDTH = AskEndToEndTest.WIDTH;
    private static final double LAMBDA = 0.5, GAMMA = 0.5, TAU = 0.5;
    private static final List<String> LETTERS = List.of("A", "B", "C");
    /** The prompt of the check every named server gets before a run (BackendsCommand.Check). */
    private static final String CHECK = "What color is the square in the image?";

    @TempDir Path dir;
    private OpenAiWireServer large, small;
    private DisagreeingExperts largeVoice, smallVoice;

    @BeforeEach void servers() {
        large = new OpenAiWireServer();
        small = new OpenAiWireServer();
        largeVoice = DisagreeingExperts.speaking(WIDTH, DisagreeingExperts.SCENE);
        smallVoice = DisagreeingExperts.speaking(WIDTH, DisagreeingExperts.OCR);
        large.respondWith(largeVoice);
        small.respondWith(smallVoice);
    }

    @AfterEach void close() {
        large.close();
        small.close();
    }

    private record Run(int code, String out, String err) { }

    private static synchronized Run run(List<String> args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = Main.run(args.toArray(String[]::new));
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /** The example configuration pointed at the two test servers. */
    private List<String> panel(String... more) {
        List<String> a = new ArrayList<>(List.of("--config", EXAMPLE.toString(),
                "--set", "backends.vlm-large.base_urls=" + large.baseUrl(), "--set", "backends.vlm-small.base_urls=" + small.baseUrl(),
                "--set", "backends.vlm-large.retries=0", "--set", "backends.vlm-small.retries=0"));
        a.addAll(List.of(more));
        return a;
    }

    private List<String> ask(String method, Path trace, String... more) throws Exception {
        return askAbout("What color is the triangle?", method, trace, more);
    }

    private List<String> askAbout(String question, String method, Path trace, String... more) throws Exception {
        List<String> a = new ArrayList<>(List.of("ask", "--method", method, "--image", AskEndToEndTest.trianglePng(dir).toString(),
                "--question", question, "--option", "A=red", "--option", "B=blue", "--option", "C=green",
                "--json", "--trace", trace.toString()));
        a.addAll(panel(more));
        return a;
    }

    /** The {@code <role>} of every model request a server got, the pre-run check left out. */
    private static List<String> roles(OpenAiWireServer s) {
        List<String> out = new ArrayList<>();
        Pattern role = Pattern.compile("<role>([^<]*)</role>");
        for (Received r : s.chatRequests()) {
            String p = DisagreeingExperts.promptText(r.json());
            if (p.contains(CHECK)) continue;
            Matcher m = role.matcher(p);
            out.add(m.find() ? m.group(1) : "?");
        }
        return out;
    }

    private static List<String> models(OpenAiWireServer s) {
        return s.chatRequests().stream().map(r -> r.json().path("model").asText()).distinct().toList();
    }

    @Test void askRunsGamWithEachExpertAndCriticOnItsOwnServerAndWeightsFollowEachServersLogprobs() throws Exception {
        Path tracePath = dir.resolve("trace.json");
        // A text question: the built-in relational expert (the third agent) holds no opinion on what a text says, so
        // the two servers' disagreement alone decides whether GAM debates (on a colour question it would side with one).
        Run r = run(askAbout("What word is written on the sign?", "gam", tracePath));
        assertThat(r.code()).as("stdout: " + r.out() + "\nstderr: " + r.err()).isZero();
        large.assertNoViolations();
        small.assertNoViolations();
        assertThat(r.err()).contains("backend 'vlm-large'", "backend 'vlm-small'", "logprobs-topk");

        // each agent's requests reached its own server, under the model its entry names; the built-in model answered the third
        assertThat(roles(large)).contains("scene expert").doesNotContain("ocr expert", "relational expert", "completeness checker");
        assertThat(roles(small)).contains("ocr expert").doesNotContain("scene expert", "relational expert", "fact checker", "logic checker");
        assertThat(models(large)).containsExactly(LARGE_MODEL);
        assertThat(models(small)).containsExactly(SMALL_MODEL);

        JsonNode trace = Json.MAPPER.readTree(Files.readString(tracePath));
        JsonNode r0 = trace.at("/rounds/0");
        JsonNode agents = r0.path("agents");
        assertThat(agents).hasSize(3);
        Map<String, JsonNode> byId = new LinkedHashMap<>();
        agents.forEach(a -> byId.put(a.path("id").asText(), a));
        assertThat(byId.get("scene").path("backend").asText()).isEqualTo("vlm-large");
        assertThat(byId.get("scene").path("model").asText()).isEqualTo(LARGE_MODEL);
        assertThat(byId.get("ocr").path("backend").asText()).isEqualTo("vlm-small");
        assertThat(byId.get("ocr").path("model").asText()).isEqualTo(SMALL_MODEL);
        assertThat(byId.get("relational").path("backend").asText()).isEqualTo("local");
        assertThat(byId.get("relational").path("model").asText()).isEqualTo("gam-perception");
        assertThat(byId.get("scene").path("option").asText()).as("the large server's answer").isEqualTo("A");
        assertThat(byId.get("ocr").path("option").asText()).as("the small server's answer").isEqualTo("B");

        // U and p(option) of the two server agents from what each server sent; the built-in agent's as recorded
        int n = agents.size();
        double[] u = new double[n];
        List<Map<String, Double>> dists = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            JsonNode a = agents.get(j);
            Map<String, Double> d = new LinkedHashMap<>();
            String id = a.path("id").asText();
            if (id.equals("relational")) {
                u[j] = a.path("uncertainty").asDouble();
                a.path("optionDistribution").fields().forEachRemaining(e -> d.put(e.getKey(), e.getValue().asDouble()));
            } else {
                List<TokenLogprob> sent = (id.equals("scene") ? largeVoice : smallVoice).firstAnswer(id + " expert");
                assertThat(sent).as("what the " + id + " expert's server sent").isNotNull();
                u[j] = phiGen(content(sent));
                assertThat(a.path("uncertainty").asDouble()).as("U of " + id + " from its own server's log-probs").isCloseTo(u[j], within(1e-9));
                d.putAll(letterDistribution(sent, a.path("option").asText()));
            }
            assertThat(d.keySet()).containsExactlyElementsOf(LETTERS);
            dists.add(d);
        }
        assertThat(u[0]).as("the sharp large server is surer than the small one").isLessThan(u[1]);
        // s_j = (1 − U_j) + λ·Σ_{i≠j} Sim_ij − γ·N·U_j ; w = softmax(s/τ), Sim = Bhattacharyya over options; a pair with an
        // expert that holds no opinion (the built-in model may find a question outside its role) counts 0 (docs/design.md §5)
        boolean[] opinion = new boolean[n];
        for (int j = 0; j < n; j++) opinion[j] = !r0.at("/extra/no_opinion").has(agents.get(j).path("id").asText());
        assertThat(opinion[0] && opinion[1]).as("both servers' experts hold an opinion").isTrue();
        double[] s = new double[n], w = new double[n];
        for (int j = 0; j < n; j++) {
            double agree = 0;
            for (int i = 0; i < n; i++) {
                if (i == j || !opinion[i] || !opinion[j]) continue;
                for (String l : LETTERS) agree += Math.sqrt(dists.get(i).get(l) * dists.get(j).get(l));
            }
            s[j] = (1 - u[j]) + LAMBDA * agree - GAMMA * n * u[j];
        }
        double z = 0;
        for (int j = 0; j < n; j++) z += w[j] = Math.exp(s[j] / TAU);
        double uSys = 0;
        for (int j = 0; j < n; j++) {
            w[j] /= z;
            assertThat(agents.get(j).path("weight").asDouble()).as("w of " + agents.get(j).path("id")).isCloseTo(w[j], within(1e-9));
            uSys += w[j] * u[j];
        }
        assertThat(r0.path("U_sys").asDouble()).isCloseTo(uSys, within(1e-9));

        // --json counts calls and tokens per backend
        JsonNode o = Json.MAPPER.readTree(r.out().strip());
        assertThat(o.path("backends").has("vlm-large")).isTrue();
        assertThat(o.path("backends").has("vlm-small")).isTrue();
        assertThat(o.path("backends").has("local")).isTrue();
        assertThat(o.at("/backends/vlm-large/calls").asInt()).isEqualTo(roles(large).size());
        assertThat(o.at("/backends/vlm-small/calls").asInt()).isEqualTo(roles(small).size());
        long sum = 0;
        for (JsonNode t : o.path("backends")) sum += t.path("promptTokens").asLong() + t.path("completionTokens").asLong();
        assertThat(sum).as("per-backend tokens add up to the answer's").isEqualTo(o.at("/tokens/prompt").asLong() + o.at("/tokens/completion").asLong());
        // the servers disagree, so GAM debates: each critic ran on its own server too
        assertThat(r0.at("/extra/trigger").asBoolean()).isTrue();
        JsonNode critics = trace.at("/rounds/1/extra/critic_backends");
        assertThat(critics.at("/fact/backend").asText()).isEqualTo("vlm-large");
        assertThat(critics.at("/logic/backend").asText()).isEqualTo("vlm-large");
        assertThat(critics.at("/completeness/backend").asText()).isEqualTo("vlm-small");
        assertThat(critics.at("/completeness/model").asText()).isEqualTo(SMALL_MODEL);
        assertThat(roles(large)).contains("fact checker", "logic checker");
        assertThat(roles(small)).contains("completeness checker");
    }

    @Test void dreamProbesEachAgentOnItsOwnBackend() throws Exception {
        Path tracePath = dir.resolve("dream.json");
        Run r = run(ask("dream+gam", tracePath));
        assertThat(r.code()).as("stdout: " + r.out() + "\nstderr: " + r.err()).isZero();
        large.assertNoViolations();
        small.assertNoViolations();
        List<String> probedOnLarge = probeRoles(large), probedOnSmall = probeRoles(small);
        assertThat(probedOnLarge).isNotEmpty().containsOnly("scene expert");
        assertThat(probedOnSmall).isNotEmpty().containsOnly("ocr expert");
        JsonNode trace = Json.MAPPER.readTree(Files.readString(tracePath));
        Map<String, String> probeBackends = new LinkedHashMap<>();
        for (JsonNode p : trace.at("/extra/probes")) probeBackends.put(p.path("agent").asText(), p.path("backend").asText());
        assertThat(probeBackends).containsEntry("scene", "openai:" + LARGE_MODEL).containsEntry("ocr", "openai:" + SMALL_MODEL)
                .containsEntry("relational", "local:gam-perception");
        JsonNode agents = trace.at("/rounds/0/agents");
        List<String> backends = new ArrayList<>();
        agents.forEach(a -> backends.add(a.path("backend").asText()));
        assertThat(backends).as("the inner debate on the same panel").containsExactly("vlm-large", "vlm-small", "local");
    }

    /** The {@code <role>} of every DREAM probe a server got: since issue 26 a probe is the expert's round-0 request. */
    private static List<String> probeRoles(OpenAiWireServer s) {
        List<String> out = new ArrayList<>();
        Pattern role = Pattern.compile("<role>([^<]*)</role>");
        for (Received r : s.chatRequests()) {
            String p = DisagreeingExperts.promptText(r.json());
            if (!p.contains("<task>answer</task>")) continue;
            Matcher m = role.matcher(p);
            out.add(m.find() ? m.group(1) : "?");
        }
        return out;
    }

    @Test void aMisspeltBackendNameFailsBeforeAnyCallAndListsTheKnownNames() throws Exception {
        Run r = run(ask("gam", dir.resolve("t.json"), "--set", "gam.experts=[{\"role\":\"scene\",\"backend\":\"vlm-lrage\"},\"ocr\"]"));
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("gam.experts[0].backend = 'vlm-lrage'")
                .contains("known backends: default, local, vlm-large, vlm-small");
        assertThat(large.requests()).isEmpty();
        assertThat(small.requests()).isEmpty();
        Run vote = run(ask("gam", dir.resolve("t.json"), "--set", "vote.backends=[\"vlm-large\",\"vlm-smal\",\"local\"]"));
        assertThat(vote.code()).as("a misspelt name in any method's list fails the run").isEqualTo(1);
        assertThat(vote.err()).contains("vote.backends[1] = 'vlm-smal'").contains("vlm-small");
    }

    @Test void aNamedServerThatCannotBeReachedIsReportedByNameBeforeTheRun() throws Exception {
        small.close();
        Run r = run(ask("gam", dir.resolve("t.json")));
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("backend 'vlm-small'").contains("cannot be reached").contains("nothing was run");
        assertThat(roles(large)).as("no question was asked").isEmpty();
    }

    @Test void evalRunsThePanelAndBreaksTokensAndCostDownPerBackend() throws Exception {
        String b64 = Base64.getEncoder().encodeToString(Files.readAllBytes(AskEndToEndTest.trianglePng(dir)));
        Path tsv = dir.resolve("tri.tsv");
        Files.writeString(tsv, "index\timage\tquestion\tA\tB\tC\tanswer\tcategory\n"
                + "0\t" + b64 + "\tWhat color is the triangle?\tred\tblue\tgreen\tA\tcolor\n");
        Path out = dir.resolve("eval");
        List<String> args = new ArrayList<>(List.of("eval", "--data", tsv.toString(), "--methods", "gam,vote", "--out", out.toString()));
        args.addAll(panel("--set", "eval.prices={\"Qwen2.5-VL-7B\":{\"input\":1.0,\"output\":2.0}}"));
        Run r = run(args);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        large.assertNoViolations();
        small.assertNoViolations();
        // vote's agent-1 on the large server, agent-2 on the small one, agent-3 on the built-in model
        List<String> largeAgents = agentsIn(large), smallAgents = agentsIn(small);
        assertThat(largeAgents).contains("agent-1").doesNotContain("agent-2", "agent-3");
        assertThat(smallAgents).contains("agent-2").doesNotContain("agent-1", "agent-3");
        assertThat(roles(large)).contains("scene expert").doesNotContain("ocr expert");

        for (String line : Files.readAllLines(out.resolve("results.jsonl"))) {
            JsonNode rec = Json.MAPPER.readTree(line);
            assertThat(rec.path("outcome").asText()).as(line).isNotEqualTo("error");
            JsonNode used = rec.path("backends");
            assertThat(used.has("vlm-large") && used.has("vlm-small") && used.has("local")).as(rec.path("method") + ": " + used).isTrue();
            assertThat(used.at("/vlm-large/backend").asText()).isEqualTo("openai:" + LARGE_MODEL);
            long sum = 0;
            for (JsonNode t : used) sum += t.path("promptTokens").asLong() + t.path("completionTokens").asLong();
            assertThat(sum).isEqualTo(rec.path("promptTokens").asLong() + rec.path("completionTokens").asLong());
            JsonNode first = rec.at("/trace/rounds/0/agents");
            List<String> backends = new ArrayList<>();
            first.forEach(a -> backends.add(a.path("backend").asText()));
            assertThat(backends).containsExactly("vlm-large", "vlm-small", "local");
        }
        JsonNode summary = Json.MAPPER.readTree(Files.readString(out.resolve("summary.json")));
        JsonNode gam = summary.at("/metrics/gam/backends");
        assertThat(gam.at("/vlm-large/model").asText()).isEqualTo(LARGE_MODEL);
        assertThat(gam.at("/vlm-large/costBasis").asText()).isEqualTo("price table");
        assertThat(gam.at("/vlm-small/costBasis").asText()).startsWith("GPU");
        JsonNode largeUse = gam.path("vlm-large");
        double expected = (largeUse.path("promptTokensPerQuestion").asDouble() * 1.0 + largeUse.path("completionTokensPerQuestion").asDouble() * 2.0) / 1e6;
        assertThat(largeUse.path("costPerQuestion").asDouble()).as("the priced model's tokens × its price").isCloseTo(expected, within(1e-12));
        double parts = 0;
        for (JsonNode b : gam) parts += b.path("costPerQuestion").asDouble();
        assertThat(summary.at("/metrics/gam/costPerQuestion").asDouble()).as("the backends' costs add up").isCloseTo(parts, within(1e-12));
        assertThat(r.out()).contains("per backend (per question):").contains("vlm-large").contains(SMALL_MODEL);
        assertThat(Files.readString(out.resolve("report.html"))).contains("Tokens and cost per backend").contains(LARGE_MODEL);
    }

    private static List<String> agentsIn(OpenAiWireServer s) {
        List<String> out = new ArrayList<>();
        Pattern agent = Pattern.compile("You are (agent-\\d+)");
        for (Received r : s.chatRequests()) {
            Matcher m = agent.matcher(DisagreeingExperts.promptText(r.json()));
            if (m.find()) out.add(m.group(1));
        }
        return out;
    }

    @Test void serveTakesThePanelFromItsConfigurationWhileClientsStillPickOnlyTheMethod() throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        List<String> args = new ArrayList<>(List.of("serve", "--port", "0", "--trace-db", dir.resolve("traces.db").toString()));
        args.addAll(panel());
        CompletableFuture<Integer> code = new CompletableFuture<>();
        Thread serve = new Thread(() -> code.complete(Main.run(args.toArray(String[]::new))), "gam-serve-panel");
        try {
            serve.start();
            Matcher m = null;
            for (int i = 0; i < 600 && (m == null || !m.find()); i++) {
                Thread.sleep(100);
                m = Pattern.compile("gam serve: (http://127\\.0\\.0\\.1:\\d+)/").matcher(out.toString(StandardCharsets.UTF_8));
            }
            assertThat(m.find(0)).as("the serve command printed its address: " + out).isTrue();
            String base = m.group(1);
            HttpClient client = HttpClient.newHttpClient();
            ObjectNode req = Json.MAPPER.createObjectNode().put("model", "gam");
            ArrayNode content = req.putArray("messages").addObject().put("role", "user").putArray("content");
            content.addObject().put("type", "text").put("text", "What color is the triangle?\nA. red\nB. blue\nC. green");
            content.addObject().put("type", "image_url").putObject("image_url").put("url",
                    "data:image/png;base64," + Base64.getEncoder().encodeToString(Files.readAllBytes(AskEndToEndTest.trianglePng(dir))));
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(Json.write(req))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            JsonNode body = Json.MAPPER.readTree(r.body());
            assertThat(body.path("model").asText()).as("the model name is still the method").isEqualTo("gam");
            String traceId = body.at("/gam/trace_id").asText();
            HttpResponse<String> t = client.send(HttpRequest.newBuilder(URI.create(base + "/v1/traces/" + traceId)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(t.statusCode()).as(t.body()).isEqualTo(200);
            JsonNode trace = Json.MAPPER.readTree(t.body());
            JsonNode agents = trace.has("trace") ? trace.at("/trace/rounds/0/agents") : trace.at("/rounds/0/agents");
            List<String> backends = new ArrayList<>();
            agents.forEach(a -> backends.add(a.path("backend").asText() + "/" + a.path("model").asText()));
            assertThat(backends).containsExactly("vlm-large/" + LARGE_MODEL, "vlm-small/" + SMALL_MODEL, "local/gam-perception");
            assertThat(roles(large)).contains("scene expert").doesNotContain("ocr expert");
            assertThat(roles(small)).contains("ocr expert").doesNotContain("scene expert");
        } finally {
            serve.interrupt();
            System.setOut(old);
        }
        assertThat(code.get(30, TimeUnit.SECONDS)).isZero();
        large.assertNoViolations();
        small.assertNoViolations();
    }

    @Test void backendsCheckWithTheConfigChecksEveryEntryAndSaysWhichSignalEachGives() throws Exception {
        large.respondWith(rq -> dev.gamagent.testing.http.Reply.answer("A", List.of(new TokenLogprob("A", Math.log(0.9),
                List.of(new TokenLogprob.Alternative("A", Math.log(0.9)), new TokenLogprob.Alternative("B", Math.log(0.05)))))));
        small.rejectLogprobs();
        List<String> args = new ArrayList<>(List.of("backends", "check", "--json"));
        args.addAll(panel());
        Run r = run(args);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        JsonNode o = Json.MAPPER.readTree(r.out().strip());
        assertThat(o.path("ok").asBoolean()).isTrue();
        assertThat(o.path("backends").has("default")).as("no --backend given: only the entries").isFalse();
        assertThat(o.at("/backends/vlm-large/signal").asText()).isEqualTo("logprobs-topk");
        assertThat(o.at("/backends/vlm-large/describe").asText()).contains(large.baseUrl()).contains(LARGE_MODEL);
        assertThat(o.at("/backends/vlm-small/logprobs").asBoolean()).isFalse();
        assertThat(o.at("/backends/vlm-small/signal").asText()).as("a server refusing log-probs gives text-only uncertainty")
                .isNotEqualTo("logprobs-topk");
        small.close();
        Run down = run(args.subList(0, args.size()));
        assertThat(down.code()).isEqualTo(1);
        JsonNode d = Json.MAPPER.readTree(down.out().strip());
        assertThat(d.path("ok").asBoolean()).isFalse();
        assertThat(d.at("/backends/vlm-small/reachable").asBoolean()).isFalse();
        assertThat(d.at("/backends/vlm-large/ok").asBoolean()).isTrue();
    }
}
