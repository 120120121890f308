package dev.gamagent.cli;

import dev.gamagent.config.Config;
import dev.gamagent.local.LocalBackend;
import dev.gamagent.local.LocalChatServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code gam local-server}: the built-in local model behind an OpenAI-compatible HTTP endpoint on 127.0.0.1. */
@Command(name = "local-server", mixinStandardHelpOptions = true,
        description = "Serve the built-in local perception model as an OpenAI-compatible /v1/chat/completions endpoint.")
public final class LocalServerCommand implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "8089", description = "port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--threads", defaultValue = "2", description = "requests answered in parallel (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--config", description = "JSON config file")
    Path config;

    @Option(names = "--no-logprobs", description = "answer without log-probs (\"logprobs\": null), like a server that has them switched off")
    boolean noLogprobs;

    @Override public Integer call() throws Exception {
        Config cfg = Config.defaults().withFile(config);
        try (LocalBackend backend = LocalBackend.create(cfg);
             LocalChatServer server = new LocalChatServer(backend, LocalBackend.MODEL, port, threads, !noLogprobs).start()) {
            System.out.println("serving " + LocalBackend.MODEL + " at " + server.baseUrl() + (noLogprobs ? " without log-probs" : "")
                    + " (Ctrl-C to stop)");
            new CountDownLatch(1).await();
        }
        return 0;
    }
}
