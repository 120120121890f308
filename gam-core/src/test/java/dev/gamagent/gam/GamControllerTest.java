package dev.gamagent.gam;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.MethodFailure;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.BackendResolver;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.config.Config;
import dev.gamagent.engine.AgentScales;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class GamControllerTest {
    private static final ExecutorService EXEC = Executors.newFixedThreadPool(6);
    private static final Capabilities TEXT_ONLY = new Capabilities(true, false, 0, true, false, 0);
    private static final Capabilities WITH_LOGPROBS = new Capabilities(true, true, 5, true, false, 0);

    @AfterAll static void stop() { EXEC.shutdownNow(); }

    // ---- scripted panel ----

    /** What one agent says: role label ("ocr expert"), task ("answer", "revise", "critique") and round (0..). */
    @FunctionalInterface
    interface Script { String reply(String role, String task, int round); }

    /** A function of the request that routes to a {@link Script} by the prompt's role and task lines. */
    static Function<ChatRequest, String> panel(Script script) {
        Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
        return r -> {
            String text = prompt(r);
            String role = tag(text, "role"), task = tag(text, "task");
            int n = counts.computeIfAbsent(role + "/" + task, x -> new AtomicInteger()).getAndIncrement();
            int round = task.equals("revise") ? n + 1 : task.equals("critique") ? n + 1 : n;
            return script.reply(role, task, round);
        };
    }

    static String prompt(ChatRequest r) { return r.messages().get(r.messages().size() - 1).text(); }

    static String tag(String text, String tag) {
        Matcher m = Pattern.compile("<" + tag + ">(.*?)</" + tag + ">").matcher(text);
        return m.find() ? m.group(1) : "";
    }

    static String confident(String letter) {
        return "ANSWER: " + letter + "\nCLAIM 1: The triangle has colour " + letter + " | CONFIDENCE: 0.9 | EVIDENCE: its fill"
                + " | REGION: 0.1,0.1,0.4,0.4\nCONFIDENCE: 0.95";
    }

    static String unsure(String letter) {
        return "ANSWER: " + letter + "\nCLAIM 1: It might possibly be this one but I am not sure | CONFIDENCE: 0.2\nCONFIDENCE: 0.2";
    }

    static String middling(String letter) {
        return "ANSWER: " + letter + "\nCLAIM 1: The triangle has colour " + letter + " | CONFIDENCE: 0.5\nCONFIDENCE: 0";
    }

    static final String CRITIQUE = "CLAIM 1: INACCURATE | REASON: the fill is blue | CORRECTION: blue | CONFIDENCE: 0.8";

    static Question mcq() {
        Map<String, String> opts = new LinkedHashMap<>();
        opts.put("A", "red");
        opts.put("B", "blue");
        opts.put("C", "green");
        opts.put("D", "yellow");
        return Question.of("q1", List.of(new Picture("img.png", new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB))),
                "What color is the triangle?", opts);
    }

    static Question open() {
        return Question.of("q2", List.of(new Picture("img.png", new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB))),
                "What word is written on the sign?", Map.of());
    }

    static Config config(String... kv) {
        Config c = Config.defaults();
        for (int i = 0; i < kv.length; i += 2) c = c.with(kv[i], kv[i + 1]);
        return c;
    }

    static Answer run(Backend b, Config c, Question q) { return run(b, null, c, q, null); }

    static Answer run(Backend b, BackendResolver resolver, Config c, Question q, List<String> events) {
        return run(b, resolver, c, q, events, AgentScales.NONE);
    }

    /** A run inside DREAM: {@code scales} is its assignment of image scales (and its note) on the run context. */
    static Answer run(Backend b, BackendResolver resolver, Config c, Question q, List<String> events, AgentScales scales) {
        RunContext ctx = new RunContext(b, resolver, c, EXEC, events == null ? null : e -> events.add(e.type() + " " + e.data()), java.util.Map.of(AgentScales.class, scales));
        return MethodRegistry.create("gam").run(q, ctx);
    }

    static ScriptedBackend lines(Script s) {
        var f = panel(s);
        return new ScriptedBackend("lines", TEXT_ONLY, r -> ScriptedBackend.result(f.apply(r), List.of()));
    }

    // ---- termination reasons and the trigger ----

    @Test void confidentAgreementEndsWithoutDebateAsConsensus() {
        ScriptedBackend b = lines((role, task, k) -> confident("B"));
        Answer a = run(b, config(), mcq());
        assertThat(a.termination()).isEqualTo(Termination.CONSENSUS);
        assertThat(a.rounds()).isZero();
        assertThat(a.option()).isEqualTo("B");
        assertThat(a.answer()).isEqualTo("blue");
        assertThat(b.requests).hasSize(3);
        assertThat(a.calls()).isEqualTo(3);
        Trace.Round r0 = a.trace().rounds().get(0);
        assertThat(r0.agents()).extracting(Trace.AgentTurn::id).containsExactly("scene", "ocr", "relational");
        double u = r0.agents().get(0).uncertainty();
        // identical smoothed distributions: confidence = 1 − U·3/4 and U_sys = U
        assertThat(a.confidence()).isCloseTo(1 - u * 0.75, within(1e-9));
        assertThat(a.uncertainty()).isCloseTo(u, within(1e-9));
        assertThat(r0.conflict()).isCloseTo(0.0, within(1e-9));
        assertThat(r0.extra()).containsEntry("trigger", false);
    }

    @Test void conflictingAnswersTriggerADebateThatEndsWhenUncertaintyFalls() {
        ScriptedBackend b = lines((role, task, k) -> switch (task) {
            case "critique" -> CRITIQUE;
            case "answer" -> confident(role.startsWith("scene") ? "A" : role.startsWith("ocr") ? "B" : "C");
            default -> confident("B");
        });
        Answer a = run(b, config(), mcq());
        Trace.Round r0 = a.trace().rounds().get(0);
        assertThat(r0.uSys()).isLessThan(0.5);
        assertThat(r0.conflict()).isGreaterThan(0.6);
        assertThat(r0.extra()).containsEntry("trigger", true);
        assertThat(a.termination()).isEqualTo(Termination.UNCERTAINTY);
        assertThat(a.rounds()).isEqualTo(1);
        assertThat(a.option()).isEqualTo("B");
        assertThat(b.requests).hasSize(9); // 3 experts + 3 critics + 3 revisions
        Trace.Round r1 = a.trace().rounds().get(1);
        assertThat(r1.critiques()).hasSize(3).allSatisfy(c -> assertThat(c.assessment()).isEqualTo("inaccurate"));
        assertThat(r1.critiques()).extracting(Trace.Critique::critic).containsExactlyInAnyOrder("fact", "completeness", "logic");
        assertThat(r1.uSys()).isLessThan(0.15);
    }

    @Test void highUncertaintyTriggersADebateThatStopsWhenNothingChanges() {
        ScriptedBackend b = lines((role, task, k) -> task.equals("critique") ? CRITIQUE : unsure("B"));
        Answer a = run(b, config(), mcq());
        assertThat(a.trace().rounds().get(0).uSys()).isGreaterThan(0.5);
        assertThat(a.termination()).isEqualTo(Termination.STAGNATION);
        assertThat(a.rounds()).isEqualTo(1);
    }

    @Test void aDebateThatKeepsMovingStopsAtTheRoundLimit() {
        ScriptedBackend b = lines((role, task, k) -> task.equals("critique") ? CRITIQUE : k % 2 == 0 ? unsure("B") : middling("B"));
        Answer a = run(b, config("gam.max_rounds", "2"), mcq());
        assertThat(a.termination()).isEqualTo(Termination.MAX_ROUNDS);
        assertThat(a.rounds()).isEqualTo(2);
        assertThat(a.trace().rounds()).hasSize(3);
    }

    @Test void aSpentTokenBudgetStopsTheDebate() {
        Script s = (role, task, k) -> task.equals("critique") ? CRITIQUE : k == 0 ? unsure("B") : middling("B");
        long round0 = run(lines(s), config("gam.max_rounds", "1"), mcq()).trace().rounds().get(0).agents().stream()
                .mapToLong(t -> t.tokens().total()).sum();
        Answer a = run(lines(s), config("gam.token_budget", String.valueOf(round0 + 1)), mcq());
        assertThat(a.termination()).isEqualTo(Termination.BUDGET);
        assertThat(a.rounds()).isEqualTo(1);
        Answer none = run(lines(s), config("gam.token_budget", "1"), mcq());
        assertThat(none.termination()).isEqualTo(Termination.BUDGET);
        assertThat(none.rounds()).isZero();
    }

    // ---- degraded operation ----

    @Test void anExpertWhoseBackendFailsDropsOutOfTheRoundAndTheOthersDecide() {
        ScriptedBackend ok = lines((role, task, k) -> confident("B"));
        Backend broken = new ScriptedBackend("broken", TEXT_ONLY, r -> {
            throw new BackendException.ServerUnavailable("http://127.0.0.1:1/v1 answered 503 after 4 retries", 503, null);
        });
        Config c = config("gam.agents", "[{\"role\":\"scene\"},{\"role\":\"ocr\",\"backend\":\"broken\"},{\"role\":\"relational\"},"
                + "{\"role\":\"fact\"}]");
        Answer a = run(ok, name -> name.equals("broken") ? broken : ok, c, mcq(), null);
        assertThat(a.option()).isEqualTo("B");
        Trace.AgentTurn ocr = a.trace().rounds().get(0).agents().get(1);
        assertThat(ocr.id()).isEqualTo("ocr");
        assertThat(ocr.error()).contains("ServerUnavailable").contains("503");
        assertThat(ocr.weight()).isNull();
        double sum = a.trace().rounds().get(0).agents().stream().filter(t -> t.weight() != null).mapToDouble(Trace.AgentTurn::weight).sum();
        assertThat(sum).isCloseTo(1.0, within(1e-9));
    }

    @Test void whenNoExpertAnswersTheQuestionFailsWithThePartialTrace() {
        Backend broken = new ScriptedBackend("broken", TEXT_ONLY, r -> {
            throw new BackendException.Timeout("no answer within 120 s", null);
        });
        assertThatThrownBy(() -> run(broken, config(), mcq()))
                .isInstanceOfSatisfying(MethodFailure.class, f -> {
                    assertThat(f.getMessage()).contains("no expert answered").contains("q1");
                    assertThat(f.partialTrace().rounds()).singleElement()
                            .satisfies(r -> assertThat(r.agents()).allSatisfy(t -> assertThat(t.error()).contains("Timeout")));
                });
    }

    @Test void aRoundInWhichEveryExpertFailsKeepsThePreviousConsensus() {
        AtomicInteger calls = new AtomicInteger();
        var f = panel((role, task, k) -> task.equals("critique") ? CRITIQUE : unsure("B"));
        Backend b = new ScriptedBackend("flaky", TEXT_ONLY, r -> {
            if (tag(prompt(r), "task").equals("revise")) throw new BackendException.ConnectionFailed("connection reset", null);
            calls.incrementAndGet();
            return ScriptedBackend.result(f.apply(r), List.of());
        });
        Answer a = run(b, config(), mcq());
        assertThat(a.option()).isEqualTo("B");
        assertThat(a.termination()).isEqualTo(Termination.STAGNATION);
        assertThat(a.trace().rounds().get(1).agents()).allSatisfy(t -> assertThat(t.error()).contains("ConnectionFailed"));
    }

    // ---- parsing paths and uncertainty signals ----

    @Test void aStructuredOutputBackendIsAskedForJsonAndItsJsonIsParsed() {
        String json = "{\"answer\":\"B\",\"claims\":[{\"text\":\"blue fill\",\"confidence\":0.9,\"evidence\":\"pixels\","
                + "\"region\":[0,0,1,1]}],\"confidence\":0.9}";
        ScriptedBackend b = ScriptedBackend.text(r -> json);
        Answer a = run(b, config(), mcq());
        assertThat(b.requests).allSatisfy(r -> {
            assertThat(r.responseSchema()).isNotNull();
            assertThat(r.schemaName()).isEqualTo("gam_expert");
            assertThat(prompt(r)).contains("JSON").contains("\"answer\"");
        });
        assertThat(a.trace().rounds().get(0).agents()).allSatisfy(t -> {
            assertThat(t.parse()).isEqualTo("json");
            assertThat(t.claims()).hasSize(1);
        });
    }

    @Test void aPlainBackendIsAskedForTheLineFormatAndProseAndGarbageAreHandled() {
        ScriptedBackend b = lines((role, task, k) -> switch (role) {
            case "scene expert" -> confident("B");
            case "ocr expert" -> "I think the triangle is blue, so B.";
            default -> "%%%";
        });
        Answer a = run(b, config("gam.ablation.no_debate", "true"), mcq());
        assertThat(b.requests).allSatisfy(r -> {
            assertThat(r.responseSchema()).isNull();
            assertThat(prompt(r)).contains("ANSWER: <the option letter>").contains("CLAIM 1:");
        });
        var agents = a.trace().rounds().get(0).agents();
        assertThat(agents).extracting(Trace.AgentTurn::parse).containsExactly("lines", "prose", "none");
        assertThat(agents.get(2).claims()).isEmpty();
        assertThat(agents.get(2).uncertainty()).isEqualTo(1.0);
        assertThat(agents.get(2).optionDistribution().values()).allSatisfy(v -> assertThat(v).isCloseTo(0.25, within(1e-12)));
        assertThat(agents.get(1).signal()).isEqualTo("semantic");
        assertThat(a.option()).isEqualTo("B");
    }

    @Test void anExpertThatIsNotApplicableGetsFullUncertaintyWithTheFixedSignal() {
        ScriptedBackend b = lines((role, task, k) -> role.equals("ocr expert")
                ? "ANSWER: NOT APPLICABLE\nCLAIM 1: There is no text in the image | CONFIDENCE: 0.95\nCONFIDENCE: 0.95" : confident("B"));
        Answer a = run(b, config(), mcq());
        Trace.AgentTurn ocr = a.trace().rounds().get(0).agents().get(1);
        assertThat(ocr.uncertainty()).isEqualTo(1.0);
        assertThat(ocr.signal()).isEqualTo("fixed");
        assertThat(ocr.option()).isNull();
        assertThat(ocr.weight()).isLessThan(a.trace().rounds().get(0).agents().get(0).weight());
        assertThat(a.option()).isEqualTo("B");
    }

    @Test void whenEveryExpertIsNotApplicableThereIsNoAnswerAndNoConfidence() {
        ScriptedBackend b = lines((role, task, k) -> task.equals("critique") ? CRITIQUE : "ANSWER: NOT APPLICABLE\nCONFIDENCE: 0.9");
        Answer a = run(b, config(), mcq());
        Trace.Round r0 = a.trace().rounds().get(0);
        assertThat(r0.uSys()).isEqualTo(1.0);
        assertThat(r0.agents()).allSatisfy(t -> assertThat(t.weight()).isCloseTo(1.0 / 3, within(1e-12)));
        assertThat(a.option()).isNull();
        assertThat(a.confidence()).isZero();
        assertThat(a.uncertainty()).isEqualTo(1.0);
        assertThat(a.termination()).isEqualTo(Termination.STAGNATION);
    }

    @Test void topKLogprobsGiveTheOptionDistributionAndAnswerSpanScoring() {
        Function<ChatRequest, String> f = panel((role, task, k) -> "ANSWER: B\nCONFIDENCE: 0.9");
        Backend b = new ScriptedBackend("lp", WITH_LOGPROBS, r -> {
            String text = f.apply(r);
            List<TokenLogprob> ts = new ArrayList<>();
            ts.add(ScriptedBackend.token("ANSWER", 0.5, "Answer", 0.5));
            ts.add(ScriptedBackend.token(":", 0.5, " is", 0.5));
            ts.add(ScriptedBackend.token(" B", 0.8, " A", 0.2));
            ts.add(ScriptedBackend.token("\nCONFIDENCE: 0.9", 0.5, "\n", 0.5));
            return ScriptedBackend.result(text, ts);
        });
        Answer a = run(b, config("gam.scoring", "answer-span"), mcq());
        Trace.AgentTurn t = a.trace().rounds().get(0).agents().get(0);
        assertThat(t.signal()).isEqualTo("logprobs-topk");
        // only the " B" token is scored: p = (0.8, 0.2), Ĥ = H/ln3, Δ = 0.6
        double h = -(0.8 * Math.log(0.8) + 0.2 * Math.log(0.2)) / Math.log(3);
        assertThat(t.uncertainty()).isCloseTo(0.5 * h + 0.5 * 0.4, within(1e-9));
        assertThat(t.optionDistribution()).containsEntry("B", 0.8).containsEntry("C", 0.0);
        assertThat(t.optionDistribution().get("A")).isCloseTo(0.2, within(1e-12));
        Answer all = run(b, config("gam.scoring", "all"), mcq());
        assertThat(all.trace().rounds().get(0).agents().get(0).uncertainty()).isGreaterThan(t.uncertainty());
        assertThat(all.trace().extra()).containsEntry("scoring", "all");
    }

    @Test void answerSpanScoringScoresTheOptionTextWhenTheExpertAnsweredWithTheTextNotTheLetter() {
        Function<ChatRequest, String> f = panel((role, task, k) -> "ANSWER: red\nCLAIM 1: The triangle is red | CONFIDENCE: 0.9");
        Backend b = new ScriptedBackend("lp", WITH_LOGPROBS, r -> {
            String text = f.apply(r);
            List<TokenLogprob> ts = new ArrayList<>();
            ts.add(ScriptedBackend.token("ANSWER", 0.5, "Answer", 0.5));
            ts.add(ScriptedBackend.token(":", 0.5, " is", 0.5));
            ts.add(ScriptedBackend.token(" red", 0.9, " blue", 0.1));
            ts.add(ScriptedBackend.token("\nCLAIM 1: The tri", 0.5, "\n", 0.5));
            ts.add(ScriptedBackend.token("angle is red | CONFIDENCE: 0.9", 0.5, "angles", 0.5));
            return ScriptedBackend.result(text, ts);
        });
        Trace.AgentTurn t = run(b, config("gam.scoring", "answer-span"), mcq()).trace().rounds().get(0).agents().get(0);
        assertThat(t.option()).isEqualTo("A");
        // the " red" token is the answer span: p = (0.9, 0.1), Ĥ = H/ln3, Δ = 0.8 (not the letter "a" inside "triangle")
        double h = -(0.9 * Math.log(0.9) + 0.1 * Math.log(0.1)) / Math.log(3);
        assertThat(t.uncertainty()).isCloseTo(0.5 * h + 0.5 * 0.2, within(1e-9));
        assertThat(Experts.spanAnswer("B. blue", "B")).isEqualTo("B");
        assertThat(Experts.spanAnswer("(B)", "B")).isEqualTo("B");
        assertThat(Experts.spanAnswer("Blue", "B")).isEqualTo("Blue");
        assertThat(Experts.spanAnswer("red", "A")).isEqualTo("red");
    }

    // ---- what every agent sees ----

    @Test void everyPromptCarriesWhatItsAgentMustSee() {
        ScriptedBackend b = lines((role, task, k) -> switch (task) {
            case "critique" -> CRITIQUE;
            case "answer" -> confident(role.startsWith("scene") ? "A" : role.startsWith("ocr") ? "B" : "C");
            default -> confident("B");
        });
        Config c = config("gam.zoom", "true");
        run(b, null, c, mcq(), null, new AgentScales(List.of(), "Note: the probes disagreed."));
        List<ChatRequest> reqs = new ArrayList<>(b.requests);
        String question = "<question>\nWhat color is the triangle?\nA. red\nB. blue\nC. green\nD. yellow\n</question>";
        for (ChatRequest r : reqs) {
            String p = prompt(r);
            assertThat(p).contains(question).contains("Note: the probes disagreed.");
            assertThat(r.messages().get(r.messages().size() - 1).images()).isNotEmpty();
        }
        String ocrAnswer = reqs.stream().map(GamControllerTest::prompt)
                .filter(p -> p.contains("<role>ocr expert</role>") && p.contains("<task>answer</task>")).findFirst().orElseThrow();
        assertThat(ocrAnswer).contains("NOT APPLICABLE");
        ChatRequest fact = reqs.stream().filter(r -> prompt(r).contains("<role>fact checker</role>")).findFirst().orElseThrow();
        assertThat(prompt(fact)).contains("<task>critique</task>").contains("<consensus>").contains("<claims>")
                .contains("[expert=scene, confidence=0.90, region=0.10,0.10,0.40,0.40]: The triangle has colour A | EVIDENCE: its fill")
                .contains("Zoomed crops: image 2 = zoom on CLAIM 1");
        assertThat(fact.messages().get(0).images()).hasSizeGreaterThan(1);
        String sceneRevise = reqs.stream().map(GamControllerTest::prompt)
                .filter(p -> p.contains("<role>scene expert</role>") && p.contains("<task>revise</task>")).findFirst().orElseThrow();
        assertThat(sceneRevise).contains("<previous>\nANSWER: A. red").containsPattern("<peer id=\"ocr\" weight=\"0\\.\\d\\d\">")
                .contains("<peer id=\"relational\"").doesNotContain("<peer id=\"scene\"")
                .contains("<critique critic=\"fact\">").contains("INACCURATE | REASON: the fill is blue | CORRECTION: blue");
        // the requested format comes last
        assertThat(sceneRevise.strip()).endsWith("CONFIDENCE: <0..1 overall>");
    }

    // ---- a video: the question's images are frames in time order ----

    /** A 3-frame clip: frame f is filled with grey level 40·f, so a picture names its frame by its pixels. */
    static Question clip() {
        List<Picture> frames = new ArrayList<>();
        for (int f = 1; f <= 3; f++) {
            BufferedImage img = new BufferedImage(60, 40, BufferedImage.TYPE_INT_RGB);
            java.awt.Graphics2D g = img.createGraphics();
            g.setColor(new java.awt.Color(40 * f, 40 * f, 40 * f));
            g.fillRect(0, 0, 60, 40);
            g.dispose();
            frames.add(new Picture("clip.mp4#frame-" + (f * 10), img));
        }
        Map<String, String> opts = new LinkedHashMap<>();
        opts.put("A", "left");
        opts.put("B", "right");
        opts.put("C", "it stays");
        return Question.of("v1", frames, "Which way does the grey square move?", opts);
    }

    /** Which frame of {@link #clip()} a picture (whole, scaled or cropped) shows: 1..3 by its grey level. */
    static int frameOf(Picture p) {
        int grey = p.image().getRGB(p.width() / 2, p.height() / 2) & 0xff;
        return Math.round(grey / 40f);
    }

    static String onFrame(String letter, int frame) {
        return "ANSWER: " + letter + "\nCLAIM 1: The square is at the " + (letter.equals("A") ? "left" : "right") + " edge | CONFIDENCE: 0.9"
                + " | EVIDENCE: its position | REGION: 0.2,0.2,0.6,0.6 | FRAME: " + frame + "\nCONFIDENCE: 0.95";
    }

    @Test void onAVideoClaimsNameTheirFrameAndCriticsSeeThatFrame() {
        ScriptedBackend b = lines((role, task, k) -> switch (task) {
            case "critique" -> CRITIQUE;
            // scene says B from frame 3; ocr says A and relational C, both from frame 2; in revisions everyone names frame 9 (no such frame)
            case "answer" -> onFrame(role.startsWith("scene") ? "B" : role.startsWith("ocr") ? "A" : "C", role.startsWith("scene") ? 3 : 2);
            default -> onFrame("B", 9);
        });
        Answer a = run(b, config("gam.max_rounds", "1", "gam.max_disputed", "2"), clip());
        List<ChatRequest> reqs = new ArrayList<>(b.requests);
        String ocrAnswer = reqs.stream().map(GamControllerTest::prompt)
                .filter(p -> p.contains("<role>ocr expert</role>") && p.contains("<task>answer</task>")).findFirst().orElseThrow();
        assertThat(ocrAnswer).contains("The question's 3 images are frames 1..3, in time order")
                .contains("names that frame (FRAME: k, k from 1 to 3)")
                .contains("| REGION: x0,y0,x1,y1 | FRAME: <1..3>");
        // the experts see every frame, in time order
        ChatRequest sceneAnswer = reqs.stream().filter(r -> prompt(r).contains("<role>scene expert</role>")).findFirst().orElseThrow();
        assertThat(sceneAnswer.messages().get(0).images()).extracting(GamControllerTest::frameOf).containsExactly(1, 2, 3);
        Trace.Round r0 = a.trace().rounds().get(0);
        assertThat(r0.agents()).extracting(t -> t.claims().get(0).frame()).containsExactly(3, 2, 2);
        // the consensus is A (ocr's); the disputed claims are scene's (frame 3) and relational's (frame 2): the critic is
        // shown frames 2 and 3, in time order, not frame 1 and not every frame
        ChatRequest fact = reqs.stream().filter(r -> prompt(r).contains("<role>fact checker</role>")).findFirst().orElseThrow();
        assertThat(prompt(fact)).contains("<consensus>\nA. left")
                .contains("[expert=scene, confidence=0.90, frame=3, region=0.20,0.20,0.60,0.60]")
                .contains("[expert=relational, confidence=0.90, frame=2, region=0.20,0.20,0.60,0.60]")
                .contains("Images: image 1 = frame 2, image 2 = frame 3.");
        assertThat(fact.messages().get(0).images()).extracting(GamControllerTest::frameOf).containsExactly(2, 3);
        // in revisions every claim names frame 9 of 3: the frame is dropped, the claim kept, the trace says why
        Trace.Round r1 = a.trace().rounds().get(1);
        assertThat(r1.agents()).allSatisfy(t -> assertThat(t.claims()).singleElement().satisfies(c -> {
            assertThat(c.frame()).isNull();
            assertThat(c.text()).contains("right edge");
        }));
        assertThat(r1.extra()).containsKey("parse_notes");
        assertThat(r1.extra().get("parse_notes").toString())
                .contains("claim 1 names frame 9 but the request has 3 images (frames 1..3): frame ignored");
        assertThat(Json.MAPPER.valueToTree(r0.agents().get(1).claims().get(0)).get("frame").asInt()).isEqualTo(2);
    }

    @Test void withZoomTheCriticSeesTheCropOfTheRegionOnTheClaimsFrame() {
        ScriptedBackend b = lines((role, task, k) -> switch (task) {
            case "critique" -> CRITIQUE;
            case "answer" -> onFrame(role.startsWith("scene") ? "B" : role.startsWith("ocr") ? "A" : "C", role.startsWith("scene") ? 3 : 2);
            default -> onFrame("B", 3);
        });
        run(b, config("gam.max_rounds", "1", "gam.zoom", "true", "gam.max_disputed", "1"), clip());
        ChatRequest fact = b.requests.stream().filter(r -> prompt(r).contains("<role>fact checker</role>")).findFirst().orElseThrow();
        // one disputed claim (scene's, on frame 3): that frame whole, then the crop of its region on frame 3
        assertThat(prompt(fact)).contains("frame=3, region=0.20,0.20,0.60,0.60]")
                .contains("Images: image 1 = frame 3. Zoomed crops: image 2 = zoom on CLAIM 1 (frame 3).");
        List<Picture> seen = fact.messages().get(0).images();
        assertThat(seen).extracting(GamControllerTest::frameOf).containsExactly(3, 3);
        // the crop: region 0.2..0.6 with a 15 % margin of a 60x40 frame, enlarged
        assertThat(seen.get(1).width()).isNotEqualTo(60);
        // a claim naming no frame on a video: the critic sees every frame (it cannot know which)
        ScriptedBackend nameless = lines((role, task, k) -> task.equals("critique") ? CRITIQUE
                : confident(!task.equals("answer") || role.startsWith("scene") ? "B" : role.startsWith("ocr") ? "A" : "C"));
        run(nameless, config("gam.max_rounds", "1", "gam.zoom", "true", "gam.max_disputed", "1"), clip());
        ChatRequest critic = nameless.requests.stream().filter(r -> prompt(r).contains("<role>fact checker</role>")).findFirst().orElseThrow();
        assertThat(critic.messages().get(0).images()).extracting(GamControllerTest::frameOf).containsExactly(1, 2, 3);
        assertThat(prompt(critic)).contains("Images: image 1 = frame 1, image 2 = frame 2, image 3 = frame 3.")
                .doesNotContain("Zoomed crops");
    }

    @Test void theFramesTimesAreInThePromptWhenTheFramesNamesCarryThem() {
        assertThat(GamPrompts.framesSentence(List.of("clip.mp4#frame-0@0s", "clip.mp4#frame-45@1.5s", "clip.mp4#frame-90@3s")))
                .contains("The question's 3 images are frames 1..3, in time order")
                .contains("Their times: frame 1 at 0 s, frame 2 at 1.5 s, frame 3 at 3 s.");
        // one frame without a time (a frame folder, another image): no times at all
        assertThat(GamPrompts.framesSentence(List.of("clip.mp4#frame-0@0s", "dir/00002.jpg"))).doesNotContain("times");
        assertThat(GamPrompts.framesSentence(List.of("one.png"))).isEmpty();
    }

    @Test void aSingleImageQuestionsPromptsDoNotMentionFrames() {
        ScriptedBackend b = lines((role, task, k) -> task.equals("critique") ? CRITIQUE
                : confident(!task.equals("answer") || role.startsWith("scene") ? "B" : role.startsWith("ocr") ? "A" : "C"));
        run(b, config("gam.max_rounds", "1"), mcq());
        assertThat(prompt(b.requests.stream().filter(r -> prompt(r).contains("<task>critique</task>")).findFirst().orElseThrow()))
                .doesNotContain("Images:");
        assertThat(b.requests).extracting(GamControllerTest::prompt).allSatisfy(p -> assertThat(p).doesNotContain("FRAME").doesNotContain("frame"));
    }

    @Test void perAgentBackendsAndScalesComeFromConfig() {
        ScriptedBackend small = lines((role, task, k) -> confident("B"));
        ScriptedBackend big = lines((role, task, k) -> confident("B"));
        List<String> resolved = Collections.synchronizedList(new ArrayList<>());
        Config c = config("gam.agents", "[{\"role\":\"scene\",\"backend\":\"big\",\"scale\":0.5},{\"role\":\"ocr\"},"
                + "{\"role\":\"attribute\",\"id\":\"colour\"},{\"role\":\"logic\"}]");
        Answer a = run(small, name -> { resolved.add(name); return name.equals("big") ? big : small; }, c, mcq(), null);
        assertThat(resolved).contains("big");
        assertThat(big.requests).singleElement().satisfies(r -> assertThat(r.messages().get(0).images().get(0).width()).isEqualTo(32));
        assertThat(a.trace().rounds().get(0).agents()).extracting(Trace.AgentTurn::id).containsExactly("scene", "ocr", "colour");
        assertThat(a.trace().rounds().get(0).agents().get(0).scale()).isEqualTo(0.5);
        assertThat(prompt(small.requests.get(0)) + prompt(small.requests.get(1))).contains("<role>attribute expert</role>");
    }

    @Test void dreamsPerAgentScaleAssignmentIsHonoured() {
        ScriptedBackend b = lines((role, task, k) -> confident("B"));
        Answer a = run(b, null, config(), mcq(), null, new AgentScales(List.of(List.of(2.0), List.of(0.5, 1.0), List.of(1.0)), ""));
        // the trace names the scale each agent saw (the first of several), not the role's configured one
        assertThat(a.trace().rounds().get(0).agents()).extracting(Trace.AgentTurn::scale).containsExactly(2.0, 0.5, 1.0);
        ChatRequest ocr = b.requests.stream().filter(r -> prompt(r).contains("<role>ocr expert</role>")).findFirst().orElseThrow();
        assertThat(ocr.messages().get(0).images()).extracting(Picture::width).containsExactly(32, 64);
    }

    // ---- ablations, sweep recording, events, open answers ----

    @Test void ablationsSwitchOffEachMechanism() {
        Script conflicting = (role, task, k) -> switch (task) {
            case "critique" -> CRITIQUE;
            case "answer" -> confident(role.startsWith("scene") ? "A" : role.startsWith("ocr") ? "B" : "C");
            default -> confident("B");
        };
        Answer noDebate = run(lines(conflicting), config("gam.ablation.no_debate", "true"), mcq());
        assertThat(noDebate.termination()).isEqualTo(Termination.CONSENSUS);
        assertThat(noDebate.rounds()).isZero();

        Answer fixed = run(lines(conflicting), config("gam.ablation.fixed_rounds", "true", "gam.max_rounds", "2"), mcq());
        assertThat(fixed.termination()).isEqualTo(Termination.FIXED_ROUNDS);
        assertThat(fixed.rounds()).isEqualTo(2);

        Answer uniform = run(lines(conflicting), config("gam.ablation.no_dynamic_weights", "true", "gam.ablation.no_debate", "true"), mcq());
        assertThat(uniform.trace().rounds().get(0).agents()).allSatisfy(t -> assertThat(t.weight()).isCloseTo(1.0 / 3, within(1e-12)));

        Answer equalU = run(lines((role, task, k) -> role.startsWith("scene") ? unsure("B") : confident("B")),
                config("gam.ablation.no_uncertainty", "true"), mcq());
        assertThat(equalU.trace().rounds().get(0).agents()).allSatisfy(t -> {
            assertThat(t.uncertainty()).isEqualTo(GamSettings.EQUAL_U);
            assertThat(t.signal()).isEqualTo("fixed");
        });
    }

    @Test void recordFullRunsEveryRoundAndNotesWhatTheDefaultRuleWouldHaveDone() {
        Answer a = run(lines((role, task, k) -> task.equals("critique") ? CRITIQUE : confident("B")),
                config("gam.record_full", "true", "gam.max_rounds", "2"), mcq());
        assertThat(a.rounds()).isEqualTo(2);
        assertThat(a.termination()).isEqualTo(Termination.MAX_ROUNDS);
        assertThat(a.trace().rounds()).extracting(r -> r.extra().get("stop_reason_if_default"))
                .containsExactly("consensus", "uncertainty", "uncertainty");
        assertThat(a.trace().rounds()).allSatisfy(r -> assertThat(r.extra()).containsEntry("consensus_option", "B"));
    }

    @Test void progressEventsReportRoundsAnswersCritiquesAndWeights() {
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        run(lines((role, task, k) -> switch (task) {
            case "critique" -> CRITIQUE;
            case "answer" -> confident(role.startsWith("scene") ? "A" : role.startsWith("ocr") ? "B" : "C");
            default -> confident("B");
        }), null, config(), mcq(), events);
        assertThat(events).filteredOn(e -> e.startsWith("round_started")).hasSize(2);
        assertThat(events).filteredOn(e -> e.startsWith("agent_answered")).hasSize(6);
        assertThat(events).filteredOn(e -> e.startsWith("critique")).hasSize(3);
        assertThat(events).filteredOn(e -> e.startsWith("weights")).hasSize(2)
                .allSatisfy(e -> assertThat(e).contains("U_sys=").contains("conflict=").contains("scene="));
    }

    @Test void openAnswersGoToTheHighestWeightOrToTheJudge() {
        ScriptedBackend b = lines((role, task, k) -> switch (task) {
            case "critique" -> CRITIQUE;
            case "judge" -> "ANSWER: OPEN\nCONFIDENCE: 0.9";
            case "answer" -> role.startsWith("ocr") ? "ANSWER: OPEN\nCLAIM 1: The sign reads OPEN | CONFIDENCE: 0.9\nCONFIDENCE: 0.95"
                    : unsure(role.startsWith("scene") ? "SHOP" : "CLOSED");
            default -> "ANSWER: OPEN\nCONFIDENCE: 0.6";
        });
        Answer a = run(b, config("gam.embedding", "none"), open());
        assertThat(a.option()).isNull();
        assertThat(a.answer()).isEqualTo("OPEN");
        assertThat(a.trace().extra()).containsEntry("similarity", "jaccard");
        assertThat(a.confidence()).isBetween(0.0, 1.0);
        Answer judged = run(b, config("gam.embedding", "none", "gam.judge", "true"), open());
        assertThat(judged.answer()).isEqualTo("OPEN");
        assertThat(judged.trace().extra()).containsKey("judge");
        assertThat(b.requests).anySatisfy(r -> assertThat(prompt(r)).contains("<role>judge</role>").contains("<task>judge</task>"));
    }

    @Test void anOpenAnswerThatOnlyDeclinesHoldsNoOpinionSoNoConfidentRefusalWins() {
        // scene and relational decline confidently; ocr reads the sign: the reading decides, the refusals carry no weight
        ScriptedBackend b = lines((role, task, k) -> switch (task) {
            case "critique" -> CRITIQUE;
            default -> role.startsWith("ocr") ? "ANSWER: OPEN\nCLAIM 1: The sign reads OPEN | CONFIDENCE: 0.6\nCONFIDENCE: 0.6"
                    : "ANSWER: cannot determine\nCONFIDENCE: 0.99";
        });
        Answer a = run(b, config("gam.embedding", "none", "gam.ablation.no_debate", "true"), open());
        assertThat(a.answer()).isEqualTo("OPEN");
        assertThat(a.trace().rounds().get(0).extra()).extractingByKey("no_opinion").asString().contains("scene=declined", "relational=declined");
        // all three decline: no answer and no confidence, and the uncertainty starts a debate
        ScriptedBackend none = lines((role, task, k) -> task.equals("critique") ? CRITIQUE : "ANSWER: cannot determine\nCONFIDENCE: 0.99");
        Answer nobody = run(none, config("gam.embedding", "none"), open());
        assertThat(nobody.answer()).isNull();
        assertThat(nobody.confidence()).isZero();
        assertThat(nobody.trace().rounds().get(0).uSys()).isGreaterThan(0.5);
        assertThat(nobody.rounds()).isPositive();
    }

    @Test void openAnswersUseSentenceEmbeddingsByDefault() {
        ScriptedBackend b = lines((role, task, k) -> switch (task) {
            case "critique" -> CRITIQUE;
            default -> role.startsWith("ocr") ? "ANSWER: the shop is open\nCONFIDENCE: 0.9"
                    : role.startsWith("scene") ? "ANSWER: the store is open\nCONFIDENCE: 0.9" : "ANSWER: a purple elephant\nCONFIDENCE: 0.9";
        });
        Answer a = run(b, config("gam.ablation.no_debate", "true"), open());
        assertThat(a.trace().extra()).containsEntry("similarity", "embedding-cosine");
        var agents = a.trace().rounds().get(0).agents();
        // the two paraphrases support each other, so the odd one out has the least weight
        assertThat(agents.get(2).weight()).isLessThan(agents.get(0).weight()).isLessThan(agents.get(1).weight() + 1e-9);
        assertThat(a.answer()).isIn("the shop is open", "the store is open");
    }

    @Test void theTraceSerialisesWithTheContractFields() throws Exception {
        Answer a = run(lines((role, task, k) -> task.equals("critique") ? CRITIQUE : unsure("B")), config(), mcq());
        var node = Json.MAPPER.readTree(Json.write(a.trace()));
        assertThat(node.get("method").asText()).isEqualTo("gam");
        assertThat(node.get("config").get("lambda").asDouble()).isEqualTo(0.5);
        assertThat(node.get("termination").asText()).isEqualTo("stagnation");
        assertThat(node.get("final").get("option").asText()).isEqualTo("B");
        var r1 = node.get("rounds").get(1);
        assertThat(r1.get("k").asInt()).isEqualTo(1);
        assertThat(r1.has("U_sys")).isTrue();
        assertThat(r1.has("conflict")).isTrue();
        assertThat(r1.get("critiques").size()).isEqualTo(3);
        var agent = r1.get("agents").get(0);
        for (String f : List.of("id", "role", "scale", "answer", "option", "uncertainty", "signal", "weight", "claims", "tokens",
                "optionDistribution")) assertThat(agent.has(f)).as(f).isTrue();
        assertThat(node.get("tokens").get("prompt").asLong()).isEqualTo(a.tokens().prompt()).isPositive();
        assertThat(node.get("calls").asInt()).isEqualTo(9);
    }

    @Test void hyperparametersAndPromptsComeFromConfigOverrides() {
        Script conflicting = (role, task, k) -> switch (task) {
            case "critique" -> CRITIQUE;
            case "answer" -> confident(role.startsWith("scene") ? "A" : role.startsWith("ocr") ? "B" : "C");
            default -> confident("B");
        };
        ScriptedBackend b = lines(conflicting);
        Config c = Config.defaults().withOverrides(Map.of("gam.theta_c", "0.99", "gam.tau", "0.05",
                "prompts.gam_role_ocr", "Read only the red text."));
        Answer a = run(b, c, mcq());
        assertThat(a.termination()).isEqualTo(Termination.CONSENSUS);
        assertThat(a.trace().config()).containsEntry("theta_c", 0.99);
        assertThat(b.requests).anySatisfy(r -> assertThat(prompt(r)).contains("<role>ocr expert</role>").contains("Read only the red text."));
        // a sharper τ concentrates the weights more than the default does
        double maxSharp = a.trace().rounds().get(0).agents().stream().mapToDouble(Trace.AgentTurn::weight).max().orElseThrow();
        double maxDefault = run(lines(conflicting), config("gam.theta_c", "0.99"), mcq()).trace().rounds().get(0).agents().stream()
                .mapToDouble(Trace.AgentTurn::weight).max().orElseThrow();
        assertThat(maxSharp).isGreaterThanOrEqualTo(maxDefault);
    }

    @Test void aSaturatedSingleThreadExecutorRunningTheQuestionItselfDoesNotDeadlock() throws Exception {
        ExecutorService one = Executors.newSingleThreadExecutor();
        try {
            ScriptedBackend b = lines((role, task, k) -> task.equals("critique") ? CRITIQUE : unsure("B"));
            RunContext ctx = new RunContext(b, null, config(), one, null);
            Answer a = one.submit(() -> MethodRegistry.create("gam").run(mcq(), ctx)).get(20, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(a.option()).isEqualTo("B");
            assertThat(a.rounds()).isEqualTo(1);
        } finally {
            one.shutdownNow();
        }
    }

    @Test void badAgentConfigurationNamesTheKey() {
        ScriptedBackend b = lines((role, task, k) -> confident("B"));
        assertThatThrownBy(() -> run(b, config("gam.experts", "[\"scene\",\"sculptor\"]"), mcq()))
                .hasMessageContaining("gam.experts[1]").hasMessageContaining("sculptor").hasMessageContaining("relational");
        assertThatThrownBy(() -> run(b, config("gam.experts", "[\"fact\"]"), mcq())).hasMessageContaining("gam.critics");
    }
}
