package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.testing.http.AnthropicWireServer;
import dev.gamagent.testing.http.DisagreeingExperts;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Received;
import dev.gamagent.testing.http.Reply;
import dev.gamagent.testing.http.WireServer;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 18's acceptance test: {@code gam ask --method gam} with {@code gam.uncertainty_fallback=sampling} against real
 * HTTP servers that give no log-probs. Each expert answers as usual (greedy) and its answer is then drawn 3 times (one
 * request with n = 3 on the OpenAI wire, three calls on Anthropic's, which has no n); the trace says
 * {@code signal: sampling} and lists the samples, and each U is recomputed here from them:
 * p(k) = (c_k + 1/K)/(n + 1), U = (1 − p(answer))·K/(K − 1).
 */
class SamplingFallbackOverTheWireTest {
    private static final Pattern ROLE = Pattern.compile("<role>([^<]*)</role>"), TASK = Pattern.compile("<task>([^<]*)</task>");
    /** What each expert's sampled first answers say, in order; its greedy request (temperature 0) gets the first letter. */
    private static final Map<String, List<String>> SAMPLES = Map.of(
            "scene expert", List.of("A", "A", "A"), "ocr expert", List.of("B", "B", "A"), "relational expert", List.of("C", "A", "B"));
    private static final List<String> LETTERS = List.of("A", "B", "C");

    @TempDir Path dir;

    /**
     * A test tool, never a result: a panel without log-probs. First answers follow {@link #SAMPLES} (each sampled request
     * takes the role's next letters), revisions all say A, critiques come from {@link DisagreeingExperts}.
     */
    private static Function<Received, Reply> panel() {
        DisagreeingExperts critics = new DisagreeingExperts(AskEndToEndTest.WIDTH);
        Map<String, AtomicInteger> drawn = new ConcurrentHashMap<>();
        return r -> {
            String prompt = DisagreeingExperts.promptText(r.json());
            String role = group(ROLE, prompt), task = group(TASK, prompt);
            boolean json = r.json().has("response_format");
            if (task.equals("answer") || task.equals("revise")) {
                List<String> script = task.equals("revise") ? List.of("A") : SAMPLES.getOrDefault(role, List.of("A"));
                boolean sampled = r.json().path("temperature").asDouble(0) > 0;
                int n = r.json().path("n").asInt(1);
                List<Reply.Generated> out = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    int at = sampled ? drawn.computeIfAbsent(role + task, x -> new AtomicInteger()).getAndIncrement() : 0;
                    String letter = script.get(at % script.size());
                    String text = json ? "{\"answer\": \"" + letter + "\", \"claims\": [{\"text\": \"The triangle is red\", \"confidence\": 0.9, "
                            + "\"evidence\": \"its colour\", \"region\": [0.1, 0.1, 0.9, 0.9]}]}"
                            : "ANSWER: " + letter + "\nCLAIM 1: The triangle is red | CONFIDENCE: 0.9 | EVIDENCE: its colour";
                    out.add(new Reply.Generated(text, List.of()));
                }
                return Reply.choices(out.toArray(Reply.Generated[]::new)).withoutLogprobs();
            }
            Reply other = critics.apply(r);
            return other instanceof Reply.Answer a ? a.withoutLogprobs() : other;
        };
    }

    private static String group(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? m.group(1).strip().toLowerCase(java.util.Locale.ROOT) : "";
    }

    private record Run(int code, String out, String err) { }

    /** Main.run with stdout and stderr captured (the semantic-fallback notice goes to stderr). */
    private static synchronized Run run(String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            return new Run(Main.run(args), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    private Run askRun(WireServer server, String backend, Path trace, String fallback) throws Exception {
        List<String> args = new ArrayList<>(List.of("ask", "--method", "gam", "--backend", backend, "--base-url", server.baseUrl(),
                "--model", "vlm", "--image", AskEndToEndTest.trianglePng(dir).toString(), "--question", "What color is the triangle?",
                "--option", "A=red", "--option", "B=blue", "--option", "C=green", "--json", "--trace", trace.toString(),
                "--retries", "0", "--set", "gam.uncertainty_fallback=" + fallback));
        if (backend.equals("anthropic")) args.addAll(List.of("--api-key-env", "PATH")); // any set variable: the test server checks presence
        Run r = run(args.toArray(String[]::new));
        assertThat(r.code()).as("exit code; stdout: " + r.out() + "; stderr: " + r.err()).isZero();
        return r;
    }

    private JsonNode ask(WireServer server, String backend, Path trace) throws Exception {
        Run r = askRun(server, backend, trace, "sampling");
        assertThat(r.err()).doesNotContain("fell back to 'semantic'");
        return Json.MAPPER.readTree(r.out().strip());
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) n++;
        return n;
    }

    @Test void withTheSemanticFallbackAskSaysSoOnceWithTheSamplingOptionAndItsCost() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(panel());
            Run r = askRun(server, "openai", dir.resolve("semantic.json"), "semantic");
            JsonNode trace = Json.MAPPER.readTree(Files.readString(dir.resolve("semantic.json")));
            assertThat(trace.path("rounds").get(0).path("agents").get(0).path("signal").asText()).isEqualTo("semantic");
            assertThat(count(r.err(), "fell back to 'semantic'")).as(r.err()).isEqualTo(1);
            assertThat(r.err()).contains("--set gam.uncertainty_fallback=sampling").contains("3x the completion tokens");
        }
    }

    @Test void anEvalRunSaysItOnceAndItsSummaryReportsTheSignalMixPerMethod() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(panel());
            String b64 = java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(AskEndToEndTest.trianglePng(dir)));
            Path tsv = dir.resolve("tri.tsv");
            Files.writeString(tsv, "index\timage\tquestion\tA\tB\tC\tanswer\tcategory\n"
                    + "0\t" + b64 + "\tWhat color is the triangle?\tred\tblue\tgreen\tA\tcolor\n"
                    + "1\t0\tWhich colour fills the shape?\tred\tblue\tgreen\tA\tcolor\n"
                    + "2\t0\tWhat is the colour of the triangle?\tred\tblue\tgreen\tA\tcolor\n");
            Path out = dir.resolve("eval");
            Run r = run("eval", "--data", tsv.toString(), "--methods", "gam", "--out", out.toString(), "--backend", "openai",
                    "--base-url", server.baseUrl(), "--model", "vlm", "--retries", "0", "--concurrency", "2");
            assertThat(r.code()).as(r.out() + r.err()).isZero();
            assertThat(count(r.err(), "fell back to 'semantic'")).as("once per run, not per question: " + r.err()).isEqualTo(1);
            JsonNode signals = Json.MAPPER.readTree(Files.readString(out.resolve("summary.json"))).path("signals").path("gam");
            assertThat(signals.path("semantic").asLong()).as(signals.toString()).isGreaterThanOrEqualTo(9); // 3 experts × 3 questions
            assertThat(r.out()).contains("signals gam: semantic");
            assertThat(Files.readString(out.resolve("report.html"))).contains("Uncertainty signals").contains("semantic");
        }
    }

    /** U of the greedy answer (the script's first letter) under the smoothed frequencies of its samples (docs/GAM.md). */
    private static double expectedU(List<String> samples) {
        int k = LETTERS.size();
        String answer = samples.get(0);
        double p = (samples.stream().filter(answer::equals).count() + 1.0 / k) / (samples.size() + 1);
        return (1 - p) * k / (k - 1);
    }

    private static void assertRound0IsSampled(JsonNode trace) {
        JsonNode r0 = trace.path("rounds").get(0);
        JsonNode samples = r0.path("extra").path("samples");
        for (JsonNode a : r0.path("agents")) {
            String id = a.path("id").asText();
            List<String> expected = SAMPLES.get(id + " expert");
            assertThat(a.path("signal").asText()).as(id).isEqualTo("sampling");
            assertThat(samples.path(id)).as("samples of " + id).hasSize(3);
            List<String> got = new ArrayList<>();
            samples.path(id).forEach(s -> got.add(s.asText()));
            assertThat(got).as(id).isEqualTo(expected);
            assertThat(a.path("uncertainty").asDouble()).as("U of " + id).isCloseTo(expectedU(expected), within(1e-9));
        }
        assertThat(r0.path("agents")).hasSize(3);
    }

    /** The requests of expert turns (first answers and revisions), not critiques. */
    private static List<Received> expertRequests(WireServer server) {
        return server.chatRequests().stream().filter(r -> {
            String t = group(TASK, DisagreeingExperts.promptText(r.json()));
            return t.equals("answer") || t.equals("revise");
        }).toList();
    }

    /** Expert turns over every round of a trace. */
    private static int turns(JsonNode trace) {
        int n = 0;
        for (JsonNode round : trace.path("rounds")) n += round.path("agents").size();
        return n;
    }

    @Test void overTheOpenAiWireEachExpertAnswerIsOneRequestForThreeSamplesAndTheTraceSaysSampling() throws Exception {
        try (OpenAiWireServer server = new OpenAiWireServer()) {
            server.respondWith(panel());
            Path tracePath = dir.resolve("openai.json");
            JsonNode o = ask(server, "openai", tracePath);
            server.assertNoViolations();
            JsonNode trace = Json.MAPPER.readTree(Files.readString(tracePath));
            assertRound0IsSampled(trace);
            assertThat(o.path("option").asText()).isEqualTo("A");
            assertThat(o.path("signal").asText()).isEqualTo("sampling");

            List<Received> experts = expertRequests(server);
            List<Received> sampled = experts.stream().filter(r -> r.json().path("temperature").asDouble() > 0).toList();
            // every expert turn of every round: its greedy request, then one request for n = 3 samples at temperature 1
            int turns = turns(trace);
            assertThat(sampled).hasSize(turns);
            assertThat(experts).hasSize(2 * turns);
            for (Received r : sampled) {
                assertThat(r.json().path("n").asInt()).isEqualTo(3);
                assertThat(r.json().path("temperature").asDouble()).isEqualTo(1.0);
                assertThat(r.json().has("logprobs")).isFalse();
            }
            // tokens: every HTTP request's usage is counted (321 prompt tokens each)
            assertThat(o.path("tokens").path("prompt").asLong()).isEqualTo(321L * server.chatRequests().size());
        }
    }

    @Test void overAnthropicsWireWhichHasNoNEachSampleIsItsOwnCall() throws Exception {
        try (AnthropicWireServer server = new AnthropicWireServer()) {
            server.respondWith(panel());
            Path tracePath = dir.resolve("anthropic.json");
            JsonNode o = ask(server, "anthropic", tracePath);
            server.assertNoViolations();
            JsonNode trace = Json.MAPPER.readTree(Files.readString(tracePath));
            assertRound0IsSampled(trace);
            // no n on this wire: the greedy call and 3 sample calls per expert turn
            assertThat(expertRequests(server)).hasSize(4 * turns(trace));
            assertThat(o.path("tokens").path("prompt").asLong()).isEqualTo(321L * server.chatRequests().size());
        }
    }
}
