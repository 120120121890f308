package dev.gamagent.backend;

import dev.gamagent.testing.http.GeminiWireServer;
import dev.gamagent.testing.http.WireServer;

/** The backend contract against a GeminiWireServer. */
class GeminiContractTest extends BackendContractTest {
    @Override protected WireServer newServer() { return new GeminiWireServer(); }

    @Override protected String kind() { return "gemini"; }

    @Override protected boolean givesLogprobs() { return true; }
}
