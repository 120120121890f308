package dev.gamagent.backend;

import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.WireServer;

/** The backend contract against a OpenAiWireServer. */
class OpenAiContractTest extends BackendContractTest {
    @Override protected WireServer newServer() { return new OpenAiWireServer(); }

    @Override protected String kind() { return "openai"; }

    @Override protected boolean givesLogprobs() { return true; }
}
