package dev.gamagent.backend;

import dev.gamagent.testing.http.AnthropicWireServer;
import dev.gamagent.testing.http.WireServer;

/** The backend contract against a AnthropicWireServer. */
class AnthropicContractTest extends BackendContractTest {
    @Override protected WireServer newServer() { return new AnthropicWireServer(); }

    @Override protected String kind() { return "anthropic"; }

    @Override protected boolean givesLogprobs() { return false; }
}
