/**
 * GAM-Agent's library: {@code Gam} and the records a method takes and returns (docs/java-api.md). The exported
 * packages are the API; every other package (the methods, the game, DREAM, the baselines, the wire code and the
 * {@code internal} packages) is the implementation, used by this project's own modules from the class path.
 */
module dev.gamagent.core {
    requires transitive com.fasterxml.jackson.databind; // JsonNode in ChatRequest and Config
    requires com.fasterxml.jackson.annotation;
    requires transitive java.desktop;                   // BufferedImage in Picture
    requires java.net.http;

    // optional, used when present (docs/java-api.md, "Dependency"); the last three have no module name of their own
    requires static com.twelvemonkeys.imageio.webp;
    requires static jtokkit;
    requires static langchain4j.core;
    requires static langchain4j.embeddings;
    requires static langchain4j.embeddings.bge.small.en.v15.q;
    requires static io.opentelemetry.api;               // traces (docs/observability.md)
    requires static io.opentelemetry.context;

    exports dev.gamagent;
    exports dev.gamagent.api;
    exports dev.gamagent.backend;
    exports dev.gamagent.config;
    exports dev.gamagent.image;

    // traces, requests and replies are records Jackson reads and writes by reflection
    opens dev.gamagent.api to com.fasterxml.jackson.databind;
    opens dev.gamagent.api.internal to com.fasterxml.jackson.databind;
    opens dev.gamagent.backend to com.fasterxml.jackson.databind;
    opens dev.gamagent.backend.internal to com.fasterxml.jackson.databind;
    opens dev.gamagent.backend.openai to com.fasterxml.jackson.databind;
    opens dev.gamagent.baseline to com.fasterxml.jackson.databind;
    opens dev.gamagent.dream to com.fasterxml.jackson.databind;
    opens dev.gamagent.engine to com.fasterxml.jackson.databind;
    opens dev.gamagent.gam to com.fasterxml.jackson.databind;
    opens dev.gamagent.influence to com.fasterxml.jackson.databind;
    opens dev.gamagent.uncertainty to com.fasterxml.jackson.databind;

    // the built-in model (gam-local) registers one for --backend local
    uses dev.gamagent.backend.internal.BackendProvider;
}
