package dev.gamagent.langchain4j;

import dev.gamagent.config.Config;
import dev.gamagent.local.LocalBackend;
import dev.gamagent.local.LocalChatServer;

import java.io.IOException;

/** What {@code gam local-server} runs — the built-in model behind an OpenAI-compatible endpoint — in-process on 127.0.0.1. */
final class LocalServer implements AutoCloseable {
    final LocalBackend backend;
    final LocalChatServer server;

    LocalServer(boolean logprobs) throws IOException {
        backend = LocalBackend.create(Config.defaults());
        server = new LocalChatServer(backend, LocalBackend.MODEL, 0, 2, logprobs).start();
    }

    String baseUrl() { return server.baseUrl(); }

    @Override public void close() {
        server.close();
        backend.close();
    }
}
