package dev.gamagent.cli;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.RunContext;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.internal.BackendEntry;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.config.Config;
import dev.gamagent.util.Concurrency;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * What {@code ask}, {@code eval} and {@code serve} check before a run: every backend name the configuration gives
 * an agent is configured (else one error listing the known names), and every named server the run's methods use
 * answers a tiny image question ({@link BackendsCommand.Check#check}); a misspelt name or a dead server is
 * reported by name before any question is spent.
 */
final class PanelCheck {
    private PanelCheck() { }

    /**
     * @param methods the methods the run uses (their agents' servers are checked); names in every method's
     *                section are checked against the configured backends either way
     */
    static void require(NamedBackends backends, Config config, Collection<String> methods, PrintStream err) {
        Map<String, String> all = new LinkedHashMap<>();
        for (String m : MethodRegistry.names()) all.putAll(MethodRegistry.create(m).backendRefs(config));
        backends.requireKnown(all);
        Set<String> used = new LinkedHashSet<>();
        for (String m : methods) used.addAll(MethodRegistry.create(m).backendRefs(config).values());
        List<String> failures = new ArrayList<>();
        Map<String, CompletableFuture<BackendsCommand.Report>> checks = new LinkedHashMap<>();
        ExecutorService pool = Concurrency.newIoExecutor("gam-check", 8);
        try {
            for (String name : used) {
                if (name.equals(RunContext.DEFAULT_BACKEND)) continue;
                Backend b;
                try {
                    b = backends.resolve(name); // built now, so loading the built-in model is not charged to the first question
                } catch (IllegalArgumentException ex) {
                    failures.add(ex.getMessage());
                    continue;
                }
                BackendEntry e = backends.entries().get(name);
                // the built-in model and recorded replies need no server; servers are checked side by side (a dead one costs its retries)
                if (e != null && !List.of("local", "replay").contains(e.spec().kind())) {
                    checks.put(name, CompletableFuture.supplyAsync(() -> BackendsCommand.Check.check(b), pool));
                }
            }
            for (var c : checks.entrySet()) {
                String name = c.getKey();
                String what = backends.entries().get(name).describe();
                BackendsCommand.Report r = c.getValue().join();
                if (r.ok()) {
                    err.println("backend '" + name + "' (" + what + "): answered in " + r.latencyMillis() + " ms; uncertainty from "
                            + (r.signal() == null ? "its replies" : r.signal()));
                } else {
                    failures.add("backend '" + name + "' (" + what + ") " + (r.reachable() ? "did not answer an image question: "
                            : "cannot be reached: ") + r.error());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException(String.join("; ", failures) + " — nothing was run; check the server"
                    + (failures.size() > 1 ? "s" : "") + " or the 'backends' section of the config (gam backends check --config FILE)");
        }
    }
}
