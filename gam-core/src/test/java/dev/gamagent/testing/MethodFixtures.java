package dev.gamagent.testing;

import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.Usage;
import dev.gamagent.config.Config;
import dev.gamagent.image.Picture;
import dev.gamagent.util.Concurrency;

import java.awt.image.BufferedImage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Test tools for method orchestration tests: a question with a real image, contexts, scripted replies. */
public final class MethodFixtures {
    public static final long PROMPT_TOKENS = 10, COMPLETION_TOKENS = 5;
    private static final Pattern AGENT = Pattern.compile("You are (agent-\\d+)");

    private MethodFixtures() { }

    /** A multiple-choice question A=red, B=blue, C=green on one image of the given size. */
    public static Question question(int width, int height) {
        Map<String, String> opts = new LinkedHashMap<>();
        opts.put("A", "red");
        opts.put("B", "blue");
        opts.put("C", "green");
        return Question.of("q1", List.of(new Picture("img.png", new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB))),
                "What color is the triangle?", opts);
    }

    public static Question question() { return question(200, 100); }

    public static RunContext context(Backend backend, String... overrides) {
        Map<String, String> o = new LinkedHashMap<>();
        for (String kv : overrides) {
            int eq = kv.indexOf('=');
            o.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return new RunContext(backend, null, Config.defaults().withOverrides(o), Concurrency.newIoExecutor("test", 16), null);
    }

    /** Capabilities: images, optional log-probs (chosen token only), n choices, pixel cap. */
    public static Capabilities caps(boolean logprobs, boolean multipleChoices, long maxPixels) {
        return new Capabilities(true, logprobs, logprobs ? 5 : 0, multipleChoices, false, maxPixels);
    }

    /** A backend replying with {@code script(user text)}; every call costs 10 prompt + 5 completion tokens. */
    public static ScriptedBackend backend(Capabilities caps, Function<String, Reply> script) {
        return new ScriptedBackend("scripted", caps, r -> {
            List<Choice> cs = new ArrayList<>();
            for (int i = 0; i < r.n(); i++) cs.add(script.apply(user(r)).choice());
            return new ChatResult(cs, new Usage(PROMPT_TOKENS, COMPLETION_TOKENS, false), Duration.ofMillis(1), "scripted");
        });
    }

    /** A text-only backend (no log-probs: semantic uncertainty). */
    public static ScriptedBackend textBackend(Function<String, String> script) {
        return backend(caps(false, false, 0), s -> Reply.of(script.apply(s)));
    }

    /**
     * A reply; with {@code p} set it carries one chosen-token log-prob log(p), so both Φ_gen (chosen only)
     * and DREAM's ANLL give u = 1 − p exactly.
     */
    public record Reply(String text, Double p) {
        public static Reply of(String text) { return new Reply(text, null); }

        public static Reply of(String text, double p) { return new Reply(text, p); }

        Choice choice() {
            List<TokenLogprob> lp = p == null ? List.of() : List.of(new TokenLogprob("x", Math.log(p), List.of()));
            return new Choice(text, lp, "stop");
        }
    }

    public static String user(ChatRequest r) { return last(r).text(); }

    public static List<Picture> images(ChatRequest r) { return last(r).images(); }

    private static ChatMessage last(ChatRequest r) { return r.messages().get(r.messages().size() - 1); }

    /** The agent id a debate prompt names ("You are agent-2"), or null. */
    public static String agentOf(String prompt) {
        Matcher m = AGENT.matcher(prompt);
        return m.find() ? m.group(1) : null;
    }

    /** The prompts sent, with the given task. */
    public static List<String> prompts(ScriptedBackend b, String task) {
        synchronized (b.requests) {
            return b.requests.stream().map(MethodFixtures::user).filter(u -> u.contains("<task>" + task + "</task>")).toList();
        }
    }
}
