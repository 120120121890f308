package dev.gamagent.eval;

import dev.gamagent.influence.StoppingRule;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.Usage;
import dev.gamagent.cli.EvalCommand;
import dev.gamagent.eval.replay.FullLengthRuns;
import dev.gamagent.eval.replay.Sweep;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 6's acceptance criterion: {@code gam sweep} over one {@code gam.record_full=true} run gives, for every
 * threshold setting, the figures a fresh {@code gam eval} with that setting gives on a deterministic backend.
 * The backend is a test tool (a scripted panel), never a model result.
 */
class SweepReproducesFreshRunsTest {
    @TempDir static Path dir;
    static Path data;
    static List<ResultRecord> recorded;

    /** Per question, per expert role, the (letter or open answer, top-token probability) it gives in rounds 0..3. */
    static final Map<String, Map<String, String[]>> SCRIPT = Map.of(
            // all confident and agreeing from the start: never triggers at θ_U ≥ 0.3
            "q1", Map.of("scene", of("B.97 B.97 B.97 B.97"), "ocr", of("B.96 B.97 B.97 B.98"), "relational", of("B.97 B.97 B.98 B.98")),
            // split and unsure, converges on the right answer over three revisions
            "q2", Map.of("scene", of("A.6 A.7 A.85 A.95"), "ocr", of("B.7 A.6 A.8 A.95"), "relational", of("C.5 B.6 A.7 A.95")),
            // a confident wrong majority in round 0, right from round 1 on
            "q3", Map.of("scene", of("B.8 B.6 C.8 C.9"), "ocr", of("B.7 C.7 C.8 C.92"), "relational", of("C.6 C.7 C.85 C.93")),
            // stays split and unsure: runs to K_max unless ε stops it
            "q4", Map.of("scene", of("A.5 A.52 A.55 A.5"), "ocr", of("D.5 D.55 D.5 D.52"), "relational", of("B.5 B.5 B.52 B.55")),
            // confident disagreement (conflict without much uncertainty), settled in round 1
            "q5", Map.of("scene", of("A.97 A.97 A.98 A.98"), "ocr", of("C.97 A.9 A.97 A.98"), "relational", of("A.96 A.97 A.98 A.98")),
            // agreement that firms up slowly and then plateaus
            "q6", Map.of("scene", of("B.6 B.7 B.75 B.752"), "ocr", of("A.6 B.7 B.75 B.751"), "relational", of("B.55 B.7 B.74 B.752")),
            // an open question: the experts name words, the heaviest one answers, graded by the open-answer matcher
            "q7", Map.of("scene", of("SHOP.5 OPEN.6 OPEN.8 OPEN.9"), "ocr", of("OPEN.6 OPEN.7 OPEN.85 OPEN.95"),
                    "relational", of("CLOSED.5 SHOP.55 OPEN.6 OPEN.9")),
            // every expert fails in round 2 (and, remembering round 1, again in round 3): the round-1 standing carries on
            "q8", Map.of("scene", of("A.5 C.6 FAIL FAIL"), "ocr", of("B.55 C.65 FAIL FAIL"), "relational", of("C.5 C.6 FAIL FAIL")));
    static final Map<String, String> TRUTH = Map.of("q1", "B", "q2", "A", "q3", "C", "q4", "D", "q5", "A", "q6", "B", "q7", "OPEN",
            "q8", "C");

    static final List<Double> TERM = List.of(0.05, 0.1, 0.15, 0.2, 0.3), U = List.of(0.3, 0.5), C = List.of(0.4, 0.6);

    private static String[] of(String s) { return s.split(" "); }

    /** Reads question, role, task and round from the prompt only (docs/CONTRACTS.md), so the replies are a pure function of it. */
    static ChatResult reply(ChatRequest r) {
        String prompt = r.messages().get(r.messages().size() - 1).text();
        String task = tag(prompt, "task"), role = tag(prompt, "role");
        Matcher qm = Pattern.compile("Item (q\\d)").matcher(tag(prompt, "question"));
        if (!qm.find()) throw new IllegalStateException("no item id in prompt: " + prompt);
        String text;
        List<TokenLogprob> lp = new ArrayList<>();
        if (task.equals("critique")) {
            text = "CLAIM 1: PARTIALLY ACCURATE | REASON: the image only partly supports it | CONFIDENCE: 0.6";
        } else {
            int round = 0;
            if (task.equals("revise")) {
                Matcher m = Pattern.compile("\\(round (\\d)\\)").matcher(tag(prompt, "previous"));
                if (!m.find()) throw new IllegalStateException("no round marker in <previous>: " + prompt);
                round = Integer.parseInt(m.group(1)) + 1;
            }
            String step = SCRIPT.get(qm.group(1)).get(role.replace(" expert", ""))[round];
            if (step.equals("FAIL")) throw new BackendException.InvalidRequest("scripted failure of " + role + " in round " + round, 400, null);
            String letter = step.substring(0, step.indexOf('.'));
            double p = Double.parseDouble("0" + step.substring(step.indexOf('.')));
            String rest = "\nCLAIM 1: The answer is " + letter + " (round " + round + ") | CONFIDENCE: " + p + "\nCONFIDENCE: " + p;
            text = "ANSWER: " + letter + rest;
            // the runner-up: the next letter, or for open answers another word
            String other = letter.length() > 1 ? "MAYBE" : String.valueOf((char) ('A' + (letter.charAt(0) - 'A' + 1) % 4));
            lp.add(ScriptedBackend.token("ANSWER", 1.0));
            lp.add(ScriptedBackend.token(":", 1.0));
            lp.add(p >= 1 ? ScriptedBackend.token(" " + letter, 1.0) : ScriptedBackend.token(" " + letter, p, " " + other, 1 - p));
            lp.add(ScriptedBackend.token(rest, 1.0));
        }
        // usage grows with what the agent was shown, so each round's tokens differ
        return new ChatResult(List.of(new Choice(text, lp, "stop")), new Usage(prompt.length() / 4, text.length() / 4, false),
                Duration.ofMillis(1), "scripted");
    }

    static String tag(String text, String tag) {
        Matcher m = Pattern.compile("<" + tag + ">(.*?)</" + tag + ">", Pattern.DOTALL).matcher(text);
        return m.find() ? m.group(1) : "";
    }

    static void eval(Path out, String... sets) {
        List<String> args = new ArrayList<>(List.of("--data", data.toString(), "--methods", "gam", "--out", out.toString(),
                "--no-circular", "--concurrency", "2"));
        // answer-span scoring: U_i comes from the option token's top-k log-probs alone; open answers by token Jaccard
        args.addAll(List.of("--set", "gam.scoring=answer-span", "--set", "gam.embedding=none"));
        for (String s : sets) args.addAll(List.of("--set", s));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = System.out, e = System.err;
        System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            CommandLine cl = new CommandLine(new EvalCommand((spec, config) ->
                    new ScriptedBackend("scripted", new Capabilities(true, true, 5, true, false, 0), SweepReproducesFreshRunsTest::reply)));
            cl.setExecutionExceptionHandler((ex, c, p) -> { ex.printStackTrace(); return 1; });
            code = cl.execute(args.toArray(String[]::new));
        } finally {
            System.setOut(o);
            System.setErr(e);
        }
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
    }

    @BeforeAll static void recordFullDebates() throws Exception {
        BufferedImage img = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB);
        var bytes = new ByteArrayOutputStream();
        ImageIO.write(img, "png", bytes);
        String b64 = Base64.getEncoder().encodeToString(bytes.toByteArray());
        StringBuilder tsv = new StringBuilder("index\timage\tquestion\tA\tB\tC\tD\tanswer\tcategory\n");
        for (String q : new TreeMap<>(TRUTH).keySet()) {
            boolean open = TRUTH.get(q).length() > 1;
            tsv.append(q.substring(1)).append('\t').append(q.equals("q1") ? b64 : "1").append("\tItem ").append(q)
                    .append(open ? ": what does the sign say?\t\t\t\t\t" : ": which shape is shown?\tcircle\tsquare\ttriangle\tstar\t")
                    .append(TRUTH.get(q)).append("\tshapes\n");
        }
        data = Files.writeString(dir.resolve("items.tsv"), tsv.toString());
        eval(dir.resolve("full"), "gam.record_full=true");
        recorded = ResultStore.read(dir.resolve("full")).stream().filter(r -> r.method().equals("gam")).toList();
        assertThat(recorded).hasSize(TRUTH.size()).noneMatch(ResultRecord::isError);
    }

    @Test void everyThresholdSettingInTheGridMatchesAFreshRunWithThatSetting() throws Exception {
        List<Sweep.Result> swept = Sweep.run(recorded, Sweep.grid(TERM, U, C, List.of(0.01), List.of(3)));
        assertThat(swept).hasSize(20);
        Set<Double> roundsSeen = new HashSet<>();
        Set<String> reasonsSeen = new HashSet<>();
        for (Sweep.Result s : swept) {
            StoppingRule st = s.setting();
            String name = "θ_term=" + st.thetaTerm() + " θ_U=" + st.thetaU() + " θ_C=" + st.thetaC();
            Path out = dir.resolve("fresh-" + st.thetaTerm() + "-" + st.thetaU() + "-" + st.thetaC());
            eval(out, "gam.theta_term=" + st.thetaTerm(), "gam.theta_u=" + st.thetaU(), "gam.theta_c=" + st.thetaC());
            JsonNode m = Json.MAPPER.readTree(out.resolve("summary.json").toFile()).path("metrics").path("gam");

            assertThat(s.incomplete()).as(name).isZero();
            assertThat(s.groups()).as(name).isEqualTo(m.path("groups").asInt());
            assertThat(s.accuracy()).as(name + " accuracy").isCloseTo(m.path("accuracy").asDouble(), within(1e-9));
            assertThat(s.meanRounds()).as(name + " mean rounds").isCloseTo(m.path("meanRounds").asDouble(), within(1e-9));
            assertThat(s.triggerRate()).as(name + " trigger rate").isCloseTo(m.path("debateTriggerRate").asDouble(), within(1e-9));
            Map<String, Integer> freshTerms = new TreeMap<>();
            m.path("terminations").fields().forEachRemaining(e -> freshTerms.put(e.getKey(), e.getValue().asInt()));
            assertThat(s.terminations()).as(name + " terminations").isEqualTo(freshTerms);
            assertThat(s.promptTokensPerQuestion()).as(name + " prompt tokens").isEqualTo(m.path("promptTokensPerQuestion").asDouble());
            assertThat(s.completionTokensPerQuestion()).as(name + " completion tokens")
                    .isEqualTo(m.path("completionTokensPerQuestion").asDouble());
            assertThat(s.callsPerQuestion()).as(name + " calls").isCloseTo(m.path("callsPerQuestion").asDouble(), within(1e-9));
            assertExactPerQuestion(s.setting(), out, name);
            roundsSeen.add(s.meanRounds());
            reasonsSeen.addAll(s.terminations().keySet());
        }
        // the grid must exercise different decisions, or the comparison proves little
        assertThat(roundsSeen).as("distinct mean rounds over the grid").hasSizeGreaterThan(3);
        assertThat(reasonsSeen).contains("consensus", "uncertainty");
    }

    @Test void aRecordFullRunReportsTheDefaultRulesDecisionsAndLabelsItsForcedFigures() throws Exception {
        Path fresh = dir.resolve("fresh-defaults");
        eval(fresh);
        JsonNode m = Json.MAPPER.readTree(fresh.resolve("summary.json").toFile()).path("metrics").path("gam");
        JsonNode all = Json.MAPPER.readTree(dir.resolve("full").resolve("summary.json").toFile()).path("metrics");
        JsonNode redecided = all.path("gam"), forced = all.path("gam" + FullLengthRuns.FORCED_SUFFIX);
        for (String f : List.of("groups", "accuracy", "meanRounds", "debateTriggerRate", "terminations", "promptTokensPerQuestion",
                "completionTokensPerQuestion", "callsPerQuestion", "cumulativeTokensPerRound", "flips")) {
            assertThat(redecided.path(f)).as("record_full run, re-decided: " + f).isEqualTo(m.path(f));
        }
        assertThat(forced.path("terminations").fieldNames()).toIterable().containsExactly("max_rounds");
        assertThat(forced.path("meanRounds").asDouble()).isEqualTo(3.0);
        assertThat(redecided.path("meanRounds").asDouble()).isLessThan(3.0);
    }

    /**
     * K_max ∈ {0,1,2,3} (0: no debate, no charged round), ε, and a token budget that bites in the middle of some debates:
     * every setting gives what a fresh run with it gives, question by question, open answers and failed rounds included.
     */
    @Test void kMaxEpsilonAndBudgetSettingsMatchFreshRuns() throws Exception {
        // a budget that ends some debates after round 1 and others before they start: between the smallest and largest
        // usage through round 1 of the recorded debates
        List<Long> throughRound1 = new ArrayList<>();
        for (ResultRecord r : recorded) {
            Sweep.Decision d = Sweep.decide(r, new StoppingRule(1, 1, 0, 0, 1, 0)); // every question stops after round 0
            Sweep.Decision d1 = Sweep.decide(r, new StoppingRule(0, 0, 0, 0, 1, 0)); // every question runs round 1
            throughRound1.add(d1.tokens());
            assertThat(d.round()).isZero();
        }
        throughRound1.sort(null);
        long budget = (throughRound1.get(0) + throughRound1.get(throughRound1.size() - 1)) / 2;
        List<StoppingRule> grid = new ArrayList<>(Sweep.grid(List.of(0.15), List.of(0.3), List.of(0.4), List.of(0.01), List.of(0, 1, 2, 3)));
        grid.add(new StoppingRule(0.3, 0.4, 0.15, 0.05, 3, 0));
        grid.addAll(Sweep.grid(List.of(0.15), List.of(0.3), List.of(0.4), List.of(0.01), List.of(1, 3), List.of(budget)));
        assertThat(grid).hasSize(7);
        Set<String> reasonsSeen = new HashSet<>();
        for (Sweep.Result s : Sweep.run(recorded, grid)) {
            StoppingRule st = s.setting();
            String name = "ε=" + st.epsilon() + " K_max=" + st.maxRounds() + " budget=" + st.tokenBudget();
            Path out = dir.resolve("fresh-k" + st.maxRounds() + "-e" + st.epsilon() + "-b" + st.tokenBudget());
            eval(out, "gam.theta_term=0.15", "gam.theta_u=0.3", "gam.theta_c=0.4", "gam.epsilon=" + st.epsilon(),
                    "gam.max_rounds=" + st.maxRounds(), "gam.token_budget=" + st.tokenBudget());
            JsonNode m = Json.MAPPER.readTree(out.resolve("summary.json").toFile()).path("metrics").path("gam");
            assertThat(s.incomplete()).as(name).isZero();
            assertThat(s.accuracy()).as(name + " accuracy").isCloseTo(m.path("accuracy").asDouble(), within(1e-9));
            assertThat(s.meanRounds()).as(name + " mean rounds").isCloseTo(m.path("meanRounds").asDouble(), within(1e-9));
            assertThat(s.triggerRate()).as(name + " trigger rate").isCloseTo(m.path("debateTriggerRate").asDouble(), within(1e-9));
            assertThat(s.tokensPerQuestion()).as(name + " tokens")
                    .isCloseTo(m.path("promptTokensPerQuestion").asDouble() + m.path("completionTokensPerQuestion").asDouble(), within(1e-9));
            assertExactPerQuestion(st, out, name);
            reasonsSeen.addAll(s.terminations().keySet());
        }
        assertThat(reasonsSeen).contains("consensus", "uncertainty", "stagnation", "max_rounds", "budget");
    }

    /** Issue 26, item 5: a run recorded with an ablation is re-decided with it, question by question as a fresh run with it. */
    @Test void runsRecordedWithAnAblationAreReDecidedAsAFreshRunWithThatAblationDecides() {
        StoppingRule defaults = new StoppingRule(0.5, 0.6, 0.15, 0.01, 3, 0);
        Set<String> reasonsSeen = new HashSet<>();
        for (String ablation : List.of("fixed_rounds", "no_uncertainty", "no_debate")) {
            Path full = dir.resolve("full-" + ablation), fresh = dir.resolve("fresh-" + ablation);
            eval(full, "gam.record_full=true", "gam.ablation." + ablation + "=true");
            eval(fresh, "gam.ablation." + ablation + "=true");
            Map<String, ResultRecord> byId = new TreeMap<>();
            for (ResultRecord r : ResultStore.read(fresh)) if (r.method().equals("gam")) byId.put(r.question().id(), r);
            List<ResultRecord> rec = ResultStore.read(full).stream().filter(r -> r.method().equals("gam")).toList();
            assertThat(Sweep.ablationsOn(rec)).containsExactly(ablation);
            for (ResultRecord r : rec) {
                Sweep.Decision d = Sweep.decide(r, defaults);
                ResultRecord f = byId.get(r.question().id());
                String what = ablation + " question " + r.question().id();
                assertThat(d.incomplete()).as(what + " complete").isFalse();
                assertThat(d.round()).as(what + " rounds").isEqualTo(f.trace().rounds());
                assertThat(d.termination()).as(what + " termination").isEqualTo(f.trace().termination());
                assertThat(d.option()).as(what + " option").isEqualTo(f.grade().option());
                assertThat(d.usage().prompt()).as(what + " prompt tokens").isEqualTo(f.cost().promptTokens());
                assertThat(d.usage().calls()).as(what + " calls").isEqualTo(f.cost().calls());
                reasonsSeen.add(ablation + ":" + d.termination());
            }
        }
        // each ablation's own ending is exercised
        assertThat(reasonsSeen).contains("fixed_rounds:fixed_rounds", "no_uncertainty:agreement", "no_debate:consensus");
    }

    @Test void theFixtureHoldsAnOpenQuestionAndARoundInWhichEveryExpertFailed() {
        ResultRecord open = recorded.stream().filter(r -> r.question().id().equals("7")).findFirst().orElseThrow();
        assertThat(open.grade().option()).isNull();
        assertThat(open.grade().answer()).isEqualTo("OPEN");
        ResultRecord failing = recorded.stream().filter(r -> r.question().id().equals("8")).findFirst().orElseThrow();
        JsonNode round2 = failing.trace().json().path("rounds").get(2);
        assertThat(round2.path("agents")).allSatisfy(a -> assertThat(a.path("error").asText()).contains("scripted failure"));
        // the default rule reads the carried round as stagnation, and the sweep keeps the round-1 answer
        Sweep.Decision d = Sweep.decide(failing, new StoppingRule(0.3, 0.4, 0.15, 0.01, 3, 0));
        assertThat(d.round()).isEqualTo(2);
        assertThat(d.termination()).isEqualTo("stagnation");
        assertThat(d.option()).isEqualTo("C");
    }

    /** Per question: the same stopping round, reason, option and exact prompt/completion tokens and calls. */
    private static void assertExactPerQuestion(StoppingRule st, Path fresh, String name) {
        Map<String, ResultRecord> byId = new TreeMap<>();
        for (ResultRecord r : ResultStore.read(fresh)) byId.put(r.question().id(), r);
        for (ResultRecord rec : recorded) {
            Sweep.Decision d = Sweep.decide(rec, st);
            ResultRecord f = byId.get(rec.question().id());
            String what = name + " question " + rec.question().id();
            assertThat(d.round()).as(what + " rounds").isEqualTo(f.trace().rounds());
            assertThat(d.termination()).as(what + " termination").isEqualTo(f.trace().termination());
            assertThat(d.option()).as(what + " option").isEqualTo(f.grade().option());
            assertThat(d.answer()).as(what + " answer").isEqualTo(f.grade().answer());
            assertThat(d.incomplete()).as(what + " complete").isFalse();
            assertThat(d.usage().prompt()).as(what + " prompt tokens").isEqualTo(f.cost().promptTokens());
            assertThat(d.usage().completion()).as(what + " completion tokens").isEqualTo(f.cost().completionTokens());
            assertThat(d.usage().calls()).as(what + " calls").isEqualTo(f.cost().calls());
        }
    }

    @Test void theSweepCommandPrintsOneCompleteRowPerSettingWithTheRecordedKMax() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream o = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = new CommandLine(new dev.gamagent.cli.SweepCommand()).execute(dir.resolve("full").toString(),
                    "--theta-term", "0.05,0.1,0.15,0.2,0.3", "--theta-u", "0.3,0.5", "--theta-c", "0.4,0.6");
        } finally {
            System.setOut(o);
        }
        assertThat(code).isZero();
        List<String> rows = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.matches("\\s*0\\.\\d+ .*")).toList();
        assertThat(rows).hasSize(20).allMatch(l -> l.matches(".* 3 .* 0$"), "K_max 3 (the recorded run's), nothing incomplete");
    }

    @Test void aSettingNeedingMoreRoundsThanRecordedIsReportedIncomplete() {
        // θ_term 0.0 never stops on uncertainty and ε 0 never on stagnation: K_max = 5 needs rounds 4 and 5
        Sweep.Result r = Sweep.run(recorded, List.of(new StoppingRule(0.3, 0.4, 0.0, 0.0, 5, 0))).get(0);
        long debated = recorded.stream().filter(x -> Sweep.decide(x, r.setting()).round() > 0).count();
        assertThat(debated).isPositive();
        assertThat(r.incomplete()).isEqualTo((int) debated);
        assertThat(r.terminations()).containsKey("recorded_end");
    }
}
