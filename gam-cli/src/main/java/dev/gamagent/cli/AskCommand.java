package dev.gamagent.cli;

import dev.gamagent.Gam;
import dev.gamagent.api.RunContext;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.internal.AnswerJson;
import dev.gamagent.api.Question;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.backend.UsageMeter;
import dev.gamagent.config.Config;
import dev.gamagent.engine.PromptText;
import dev.gamagent.uncertainty.SignalMix;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.gamagent.image.internal.VideoFrames;
import dev.gamagent.uncertainty.UncertaintyFallback;
import dev.gamagent.util.Concurrency;
import dev.gamagent.util.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;

/** {@code gam ask}: answer one visual question with one method. */
@Command(name = "ask", mixinStandardHelpOptions = true, description = "Answer one visual question.")
public final class AskCommand implements Callable<Integer> {
    @Option(names = "--image", description = "image file: PNG, JPEG, GIF, BMP or WebP (repeat for several images or video frames)")
    List<Path> images = new ArrayList<>();

    @Option(names = "--video", description = "a video file (decoded with ffmpeg) or a directory of frame images")
    Path video;

    @Option(names = "--frames", defaultValue = "8", description = "frames sampled uniformly from --video (default: ${DEFAULT-VALUE})")
    int frames;

    @Option(names = "--question", required = true, description = "the question")
    String question;

    @Option(names = "--hint", description = "optional hint shown before the question")
    String hint;

    @Option(names = "--option", paramLabel = "LETTER=TEXT", description = "a multiple-choice option, e.g. --option A=red (repeat, in order)")
    List<String> options = new ArrayList<>();

    @Option(names = "--method", defaultValue = "single", completionCandidates = MethodNames.class,
            description = "method (default: ${DEFAULT-VALUE}): ${COMPLETION-CANDIDATES}; dream+<m> wraps the debate methods (docs/methods.md)")
    String method;

    /** The method names users can pick, for the help text and shell completion. */
    static final class MethodNames implements Iterable<String> {
        @Override public java.util.Iterator<String> iterator() { return MethodRegistry.listed().iterator(); }
    }

    @Option(names = "--json", description = "print one JSON object on stdout")
    boolean json;

    @Option(names = "--trace", description = "write the full trace JSON to this file")
    Path trace;

    @Mixin
    BackendOptions backendOptions;

    @Override public Integer call() throws Exception {
        Map<String, String> opts = options(options);
        if (images.isEmpty() && video == null) throw new IllegalArgumentException("give --image FILE or --video FILE|DIR");
        // the trace holds the prompts the agents received (--set trace.prompts=false to leave them out)
        Config config = backendOptions.config(Map.of(PromptText.SETTING, "true"));
        var m = MethodRegistry.create(method);
        ExecutorService ex = Concurrency.newIoExecutor("gam-ask");
        try (NamedBackends backends = backendOptions.open(config, BackendSource.FACTORY)) {
            PanelCheck.require(backends, config, List.of(m.name()), System.err);
            Backend backend = backends.defaultBackend();
            // images are kept no larger than a backend of the panel can use (backends are built without connecting)
            long keep = backend.capabilities().maxImagePixels();
            if (!backends.entries().isEmpty()) keep = Math.max(keep, Capabilities.DEFAULT_MAX_PIXELS);
            ImageLoader loader = ImageLoader.withMaxMegapixels(config.number("image.max_megapixels"))
                    .keepingAtMost(keep);
            List<Picture> pics = new ArrayList<>();
            // PNG and JPEG are kept as their bytes and sent as they are (decoded only if something needs the pixels), as in eval
            for (Path p : images) pics.add(loader.encodedFile(p));
            if (video != null) pics.addAll(new VideoFrames(System.getenv("PATH"), loader).frames(video, frames));
            Question q = new Question("ask", pics, question, hint, opts);
            UsageMeter meter = new UsageMeter();
            Answer a = Gam.session(backend, backends, config, ex).ask(m, q, null, meter);
            if (a.trace() != null && SignalMix.usedSemantic(Json.MAPPER.valueToTree(a.trace()))) {
                System.err.println("note: " + UncertaintyFallback.semanticNotice(m.name()));
            }
            if (trace != null) {
                Path parent = trace.toAbsolutePath().getParent();
                if (parent != null) Files.createDirectories(parent);
                // scrubbed like every output (prompts carry the question, replies what a server echoed): the process's keys never land in the file
                var secrets = ProcessSecrets.of(backendOptions.spec(), config, backends, List.of());
                Files.writeString(trace, Json.writePretty(secrets.scrub(Json.MAPPER.valueToTree(a.trace()))));
            }
            if (json) {
                ObjectNode o = toJson(a, backend.name());
                o.set("backends", Json.MAPPER.valueToTree(meter.tallies()));
                System.out.println(Json.write(o));
            } else {
                printHuman(a, backend.name(), meter.tallies());
            }
        } finally {
            ex.shutdownNow();
        }
        return 0;
    }

    /** The {@code --option} values as letter → text; a malformed entry or a repeated letter is an error naming it. */
    static Map<String, String> options(List<String> given) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (String o : given) {
            int eq = o.indexOf('=');
            String k = eq < 0 ? "" : o.substring(0, eq).strip().toUpperCase(Locale.ROOT);
            if (!k.matches("[A-Z]")) {
                throw new IllegalArgumentException("--option " + o + ": write LETTER=TEXT with one letter A..Z, e.g. --option A=red");
            }
            String text = o.substring(eq + 1).strip();
            if (text.isEmpty()) throw new IllegalArgumentException("--option " + o + ": the option text is empty");
            String before = opts.put(k, text);
            if (before != null) {
                throw new IllegalArgumentException("--option " + k + " is given twice ('" + before + "' and '" + text
                        + "'); each letter names one option");
            }
        }
        return opts;
    }

    /** {@code --json}: the answer's fields ({@link AnswerJson}, with its signal), then the method and the backend. */
    static ObjectNode toJson(Answer a, String backendName) {
        ObjectNode o = AnswerJson.of(a, true);
        o.put("method", a.trace() == null ? null : a.trace().method());
        o.put("backend", backendName);
        return o;
    }

    private static void printHuman(Answer a, String backendName, Map<String, UsageMeter.Tally> used) {
        System.out.println("answer:      " + (a.answer() == null && a.option() == null
                ? "none (no agent gave an answer it could stand behind; see the trace)"
                : (a.option() != null ? a.option() + ". " : "") + a.answer()));
        System.out.printf(Locale.ROOT, "confidence:  %.3f%n", a.confidence());
        String s = AnswerJson.signal(a);
        System.out.printf(Locale.ROOT, "uncertainty: %.3f%s%n", a.uncertainty(), s == null ? "" : " (" + s + ")");
        System.out.println("rounds:      " + a.rounds() + " (" + a.termination() + ")");
        System.out.println("tokens:      " + a.tokens().prompt() + " prompt + " + a.tokens().completion() + " completion"
                + (a.tokens().estimated() ? " (estimated)" : ""));
        System.out.println("calls:       " + a.calls() + " in " + a.millis() + " ms via " + backendName);
        if (used.size() > 1 || used.size() == 1 && !used.containsKey(RunContext.DEFAULT_BACKEND)) {
            for (var e : used.entrySet()) {
                UsageMeter.Tally t = e.getValue();
                System.out.printf(Locale.ROOT, "  %-12s %s: %d calls, %d + %d tokens%n", e.getKey(), t.model() == null ? t.backend() : t.model(),
                        t.calls(), t.promptTokens(), t.completionTokens());
            }
        }
    }
}
