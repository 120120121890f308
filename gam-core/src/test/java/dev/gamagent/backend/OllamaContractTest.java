package dev.gamagent.backend;

import dev.gamagent.testing.http.OllamaWireServer;
import dev.gamagent.testing.http.WireServer;

/** The backend contract against a OllamaWireServer. */
class OllamaContractTest extends BackendContractTest {
    @Override protected WireServer newServer() { return new OllamaWireServer(); }

    @Override protected String kind() { return "ollama"; }

    /** Ollama's /api/chat counts prompt tokens but not which of them its cache held. */
    @Override protected boolean reportsCachedTokens() { return false; }

    @Override protected boolean givesLogprobs() { return true; }
}
