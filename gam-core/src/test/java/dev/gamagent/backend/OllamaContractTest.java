package dev.gamagent.backend;

import dev.gamagent.testing.http.OllamaWireServer;
import dev.gamagent.testing.http.WireServer;

/** The backend contract against a OllamaWireServer. */
class OllamaContractTest extends BackendContractTest {
    @Override protected WireServer newServer() { return new OllamaWireServer(); }

    @Override protected String kind() { return "ollama"; }

    @Override protected boolean givesLogprobs() { return true; }
}
