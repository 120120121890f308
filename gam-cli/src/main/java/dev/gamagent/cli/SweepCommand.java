package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.grade.OpenAnswerMatcher;
import dev.gamagent.eval.replay.Sweep;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.gam.GamSettings;
import dev.gamagent.influence.StoppingRule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code gam sweep}: re-decide GAM's trigger and termination thresholds on recorded debates, without new calls. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "Re-decide debate triggers and termination from recorded full-length debates (gam.record_full=true) without new model calls.")
public final class SweepCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "a gam eval output directory")
    Path dir;

    @Option(names = "--method", defaultValue = "gam", description = "method whose traces to sweep (default: ${DEFAULT-VALUE})")
    String method;

    @Option(names = "--theta-term", split = ",", description = "θ_term values (default: config gam.theta_term)")
    List<Double> thetaTerm = new ArrayList<>();

    @Option(names = "--theta-u", split = ",", description = "θ_U values (default: config gam.theta_u)")
    List<Double> thetaU = new ArrayList<>();

    @Option(names = "--theta-c", split = ",", description = "θ_C values (default: config gam.theta_c)")
    List<Double> thetaC = new ArrayList<>();

    @Option(names = "--epsilon", split = ",", description = "ε values (default: config gam.epsilon)")
    List<Double> epsilon = new ArrayList<>();

    @Option(names = "--max-rounds", split = ",", description = "K_max values, at most the recorded rounds (default: config gam.max_rounds)")
    List<Integer> maxRounds = new ArrayList<>();

    @Option(names = "--token-budget", split = ",", description = "token budgets, 0 = none (default: config gam.token_budget)")
    List<Long> tokenBudget = new ArrayList<>();

    @Override public Integer call() {
        Config c = Config.defaults();
        List<ResultRecord> records = ResultStore.read(dir).stream().filter(r -> r.method().equals(method)).toList();
        if (records.isEmpty()) throw new IllegalArgumentException(dir + " holds no results of method '" + method + "' (use --method)");
        // unswept values default to the recorded run's own gam config (its trace), else the defaults
        JsonNode run = records.stream().map(r -> r.trace().json() == null ? null : r.trace().json().get("config")).filter(n -> n != null && n.isObject())
                .findFirst().orElse(null);
        StoppingRule d = GamSettings.stopping(c);
        List<Sweep.Result> results = Sweep.run(records, Sweep.grid(or(thetaTerm, recorded(run, "theta_term", d.thetaTerm())),
                or(thetaU, recorded(run, "theta_u", d.thetaU())), or(thetaC, recorded(run, "theta_c", d.thetaC())),
                or(epsilon, recorded(run, "epsilon", d.epsilon())),
                maxRounds.isEmpty() ? List.of((int) Math.round(recorded(run, "max_rounds", d.maxRounds()))) : maxRounds,
                tokenBudget.isEmpty() ? List.of(Math.round(recorded(run, "token_budget", d.tokenBudget()))) : tokenBudget),
                new OpenAnswerMatcher(c.number("eval.numeric_tolerance")));
        var ablations = Sweep.ablationsOn(records);
        if (!ablations.isEmpty()) {
            // the controller ran these; re-deciding without them would report a different method (docs/design.md §6)
            System.out.println("recorded with gam.ablation." + String.join(", gam.ablation.", ablations) + ": re-decided with "
                    + (ablations.size() == 1 ? "it" : "them"));
        }
        System.out.printf(Locale.ROOT, "%8s %6s %6s %7s %5s %8s %8s %9s %7s %8s %7s %10s%n", "θ_term", "θ_U", "θ_C", "ε", "K_max",
                "budget", "accuracy", "tokens/q", "rounds", "debated", "calls/q", "incomplete");
        for (Sweep.Result r : results) {
            var s = r.setting();
            System.out.printf(Locale.ROOT, "%8.3f %6.3f %6.3f %7.4f %5d %8d %8s %9.0f %7.2f %8.3f %7.2f %10d%n", s.thetaTerm(), s.thetaU(),
                    s.thetaC(), s.epsilon(), s.maxRounds(), s.tokenBudget(), r.accuracy() == null ? "-" : String.format(Locale.ROOT, "%.3f", r.accuracy()),
                    r.tokensPerQuestion(), r.meanRounds(), r.triggerRate(), r.callsPerQuestion(), r.incomplete());
        }
        if (results.stream().anyMatch(r -> r.incomplete() > 0)) {
            System.out.println("incomplete: questions whose recorded debate ended before this setting would stop; "
                    + "record full debates with --set gam.record_full=true to sweep them exactly");
        }
        return 0;
    }

    /** The recorded run's {@code gam.<key>}, else the default rule's value ({@code GamSettings.stopping}). */
    private static double recorded(JsonNode run, String key, double byDefault) {
        JsonNode v = run == null ? null : run.get(key);
        return v != null && v.isNumber() ? v.asDouble() : byDefault;
    }

    private static <T> List<T> or(List<T> given, T fallback) { return given.isEmpty() ? List.of(fallback) : given; }
}
