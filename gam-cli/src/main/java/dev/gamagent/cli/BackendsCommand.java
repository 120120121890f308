package dev.gamagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.api.RunContext;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.internal.BackendEntry;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.config.Config;
import dev.gamagent.backend.UncertaintySignal;
import dev.gamagent.image.Picture;
import dev.gamagent.uncertainty.Estimate;
import dev.gamagent.uncertainty.UncertaintyEstimator;
import dev.gamagent.util.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code gam backends}: inspect model backends. */
@Command(name = "backends", mixinStandardHelpOptions = true, description = "Inspect model backends.",
        subcommands = {BackendsCommand.Check.class})
public final class BackendsCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override public void run() { spec.commandLine().usage(System.out); }

    /**
     * The outcome of a check, printed as text or JSON. {@code imagesAccepted} is null when no answer came back
     * that could tell (a 503, a timeout): unknown is not "no".
     */
    record Report(String backend, boolean reachable, Boolean imagesAccepted, boolean logprobs, int topK, String signal,
                  Double uncertainty, long latencyMillis, String answer, String error) {
        boolean ok() { return reachable && Boolean.TRUE.equals(imagesAccepted); }
    }

    /**
     * {@code gam backends check}: sends a tiny generated image (a red square) and a two-option question,
     * then reports what came back. Exit code 0 when the server answered with the image, else 1.
     */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Send a tiny image + question and report reachability, image support, log-probs, top-k, uncertainty signal, latency.",
                    "With a --config holding a 'backends' section, every entry is checked (and the --backend given, if any)."})
    public static final class Check implements Callable<Integer> {
        @Mixin BackendOptions backendOptions;

        @Option(names = "--json", description = "print one JSON object on stdout")
        boolean json;

        @Override public Integer call() {
            Config config = backendOptions.config();
            try (NamedBackends backends = backendOptions.open(config, BackendSource.FACTORY)) {
                if (backends.entries().isEmpty()) {
                    Report r = check(backends.defaultBackend());
                    if (json) System.out.println(Json.write(toJson(r)));
                    else printHuman(r);
                    return r.ok() ? 0 : 1;
                }
                Map<String, Report> reports = new LinkedHashMap<>();
                List<String> names = new ArrayList<>();
                if (backendOptions.backend != null) names.add(RunContext.DEFAULT_BACKEND);
                names.addAll(backends.entries().keySet());
                for (String name : names) reports.put(name, checkNamed(backends, name));
                boolean ok = reports.values().stream().allMatch(Report::ok);
                if (json) {
                    ObjectNode o = Json.MAPPER.createObjectNode();
                    o.put("ok", ok);
                    ObjectNode each = o.putObject("backends");
                    reports.forEach((n, r) -> each.set(n, toJson(r).put("describe", backends.describe(n))));
                    System.out.println(Json.write(o));
                } else {
                    for (var e : reports.entrySet()) {
                        System.out.println("== " + e.getKey() + " (" + backends.describe(e.getKey()) + ")");
                        printHuman(e.getValue());
                    }
                    System.out.println(ok ? "all " + reports.size() + " backends OK"
                            : reports.entrySet().stream().filter(e -> !e.getValue().ok()).map(Map.Entry::getKey).toList() + " FAILED");
                }
                return ok ? 0 : 1;
            }
        }

        /** One named backend's check; an entry that cannot be built (e.g. its key variable unset) is a failed report. */
        private static Report checkNamed(NamedBackends backends, String name) {
            BackendEntry e = backends.entries().get(name);
            if (e != null && e.spec().kind().equals("replay")) {
                return new Report(name, true, true, false, 0, null, null, 0, null, null);
            }
            try {
                return check(backends.resolve(name));
            } catch (IllegalArgumentException ex) {
                return new Report(name, false, false, false, 0, null, null, 0, null, ex.getMessage());
            }
        }

        static Report check(Backend backend) {
            ChatRequest withImage = ChatRequest.of(List.of(ChatMessage.user(
                    "What color is the square in the image?\nA. red\nB. blue\nAnswer with the letter only.", List.of(redSquare()))))
                    .withSampling(0.0, 8, 1, 0L).withLogprobs(true, 5);
            long t0 = System.nanoTime();
            try {
                ChatResult res = backend.chat(withImage);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                int topK = res.first().logprobs().stream().mapToInt(t -> t.top().size()).max().orElse(0);
                Estimate u = UncertaintyEstimator.defaults().estimate(res.first());
                return new Report(backend.name(), true, true, res.first().hasLogprobs(), topK, u.signal().label(), u.value(), ms,
                        res.text().strip(), null);
            } catch (BackendException.InvalidRequest e) {
                // Refused: find out whether the server is up but rejects images, or refuses anything.
                long ms = (System.nanoTime() - t0) / 1_000_000;
                try {
                    backend.chat(ChatRequest.of(List.of(ChatMessage.user("Say OK.", List.of()))).withSampling(0.0, 4, 1, 0L).withLogprobs(false, 0));
                    return new Report(backend.name(), true, false, false, 0, null, null, ms, null, "the server refused the image: " + e.getMessage());
                } catch (BackendException e2) {
                    // it refuses a plain question too: whether images work cannot be told
                    return new Report(backend.name(), !(e2 instanceof BackendException.ConnectionFailed), null, false, 0, null, null, ms, null, e.getMessage());
                }
            } catch (BackendException e) {
                long ms = (System.nanoTime() - t0) / 1_000_000;
                boolean reachable = !(e instanceof BackendException.ConnectionFailed || e instanceof BackendException.Timeout);
                return new Report(backend.name(), reachable, null, false, 0, null, null, ms, null, e.getMessage());
            }
        }

        static Picture redSquare() {
            BufferedImage img = new BufferedImage(56, 56, BufferedImage.TYPE_INT_RGB);
            var g = img.createGraphics();
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, 56, 56);
            g.setColor(Color.RED);
            g.fillRect(8, 8, 40, 40);
            g.dispose();
            return new Picture("gam-check-red-square", img);
        }

        static ObjectNode toJson(Report r) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("backend", r.backend());
            o.put("ok", r.ok());
            o.put("reachable", r.reachable());
            if (r.imagesAccepted() == null) o.putNull("images"); else o.put("images", r.imagesAccepted());
            o.put("logprobs", r.logprobs());
            o.put("top_k", r.topK());
            if (r.signal() == null) o.putNull("signal"); else o.put("signal", r.signal()).put("signal_meaning", meaning(r.signal()));
            if (r.uncertainty() == null) o.putNull("uncertainty"); else o.put("uncertainty", r.uncertainty());
            o.put("latency_ms", r.latencyMillis());
            if (r.answer() == null) o.putNull("answer"); else o.put("answer", r.answer());
            if (r.error() == null) o.putNull("error"); else o.put("error", r.error());
            return o;
        }

        private static void printHuman(Report r) {
            System.out.println("backend:     " + r.backend());
            System.out.println("reachable:   " + yes(r.reachable()));
            System.out.println("images:      " + (r.imagesAccepted() == null ? "unknown (no answer came back that could tell)" : yes(r.imagesAccepted())));
            System.out.println("log-probs:   " + (r.imagesAccepted() == null ? "unknown"
                    : yes(r.logprobs()) + (r.logprobs() ? " (top-" + r.topK() + " alternatives per token)" : "")));
            if (r.signal() != null) {
                System.out.printf(Locale.ROOT, "uncertainty: %.3f (%s)%n", r.uncertainty(), r.signal());
                System.out.println("signal:      " + meaning(r.signal()));
            }
            if (r.answer() != null) System.out.println("answer:      " + r.answer() + " (expected A, red)");
            System.out.println("latency:     " + r.latencyMillis() + " ms");
            if (r.error() != null) System.out.println("error:       " + r.error());
            System.out.println(r.ok() ? "OK" : "FAILED");
        }

        /** What GAM's uncertainty will rest on with this server, in one sentence the user can act on. */
        static String meaning(String signal) {
            if (UncertaintySignal.TOP_K.label().equals(signal)) {
                return "top-k log-probs: GAM computes Φ_gen (entropy and top-two gap per token), its full uncertainty signal";
            }
            if (UncertaintySignal.CHOSEN.label().equals(signal)) {
                return "only the chosen token's log-prob: GAM uses 1 − p per token (no entropy or gap); ask for top_logprobs if the server allows";
            }
            return "no log-probs: GAM falls back to hedge words and reported confidence (semantic), which on real models' replies "
                    + "ranks right above wrong answers no better than chance (docs/GAM.md); --set gam.uncertainty_fallback=sampling "
                    + "(and dream.uncertainty_fallback=sampling) draws each answer 3 times instead, about 3x the completion tokens";
        }

        private static String yes(boolean b) { return b ? "yes" : "no"; }
    }

}
