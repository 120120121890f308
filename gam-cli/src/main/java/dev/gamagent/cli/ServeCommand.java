package dev.gamagent.cli;

import dev.gamagent.MethodRegistry;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.config.Config;
import dev.gamagent.server.GamServer;
import dev.gamagent.server.MethodCatalog;
import dev.gamagent.server.ServerSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code gam serve}: the OpenAI-compatible endpoint, trace browser and web page. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve /v1/chat/completions (model = method), traces, metrics and a web page.")
public final class ServeCommand implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "8080", description = "port (default: ${DEFAULT-VALUE}; 0 picks a free one)")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1",
            description = "address to bind (default: ${DEFAULT-VALUE}); any other address needs --server-key-env")
    String host;

    @Option(names = "--server-key-env", paramLabel = "VAR",
            description = "environment variable holding the key clients must send as 'Authorization: Bearer <key>' "
                    + "(--api-key-env names the upstream backend's key)")
    String serverKeyEnv;

    @Option(names = "--trace-db", description = "SQLite file for traces (default: config server.trace_db, else "
            + "$XDG_STATE_HOME/gam/serve/traces.db or ~/.local/state/gam/serve/traces.db; readable by you only)")
    Path traceDb;

    @Mixin
    BackendOptions backendOptions;

    @Override public Integer call() throws Exception {
        String key = null;
        if (serverKeyEnv != null) {
            key = System.getenv(serverKeyEnv);
            if (key == null || key.isBlank()) throw new IllegalArgumentException("--server-key-env " + serverKeyEnv + ": that environment variable is not set");
        }
        // the page explains each decision with the prompts the agents received (scrubbed in the trace store); --set trace.prompts=false turns it off
        Config config = backendOptions.config(Map.of(dev.gamagent.engine.PromptText.SETTING, "true"));
        ServerSettings settings = ServerSettings.fromConfig(config, host, port, key, traceDb);
        settings.check(); // before building a backend: refuse an open, keyless server early
        CountDownLatch stop = new CountDownLatch(1);
        try (TraceExport traces = TraceExport.fromEnvironment(System.getenv());
             NamedBackends backends = backendOptions.open(config, BackendSource.FACTORY)) {
            // the panel is the server's: every method's named servers are checked before it listens
            PanelCheck.require(backends, config, MethodRegistry.listed(), System.err);
            // every key the process can reach, not only the ones the panel uses: the server scrubs them all
            var secrets = ProcessSecrets.of(backendOptions.spec(), config, backends, serverKeyEnv == null ? List.of() : List.of(serverKeyEnv));
            try (GamServer server = new GamServer(settings, backends, config, MethodCatalog.REGISTRY, secrets)) {
                int p = server.start();
                System.out.println("gam serve: http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + p + "/  (traces in " + settings.traceDb() + ")");
                Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
                try {
                    stop.await();
                } catch (InterruptedException e) {
                    // stopped by the thread that runs it (tests, a host application): close the server, a clean stop
                    Thread.currentThread().interrupt();
                }
            }
        }
        return 0;
    }
}
