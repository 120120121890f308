package dev.gamagent.backend;

import dev.gamagent.api.RunContext;
import dev.gamagent.config.Config;
import dev.gamagent.testing.MethodFixtures;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Concurrency;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.gamagent.backend.internal.BackendEntry;
import dev.gamagent.backend.internal.NamedBackends;

/** The {@code backends} config section: entries, names, resolution, and per-run counting. */
class NamedBackendsTest {
    private static final BackendSpec COMMAND_LINE = new BackendSpec("openai", List.of("http://127.0.0.1:9/v1"), "cli-model", null,
            Duration.ofSeconds(30), 2, 5, null, null, null);

    private static Config config(String... sets) {
        Config c = Config.defaults();
        for (String s : sets) {
            int eq = s.indexOf('=');
            c = c.with(s.substring(0, eq), s.substring(eq + 1));
        }
        return c;
    }

    /** A factory that builds a scripted backend per spec (named kind:model) and remembers what it was asked to build. */
    private static final class Factory {
        final List<BackendSpec> specs = new ArrayList<>();
        final List<Config> configs = new ArrayList<>();
        final List<ScriptedBackend> built = new ArrayList<>();

        Backend create(BackendSpec spec, Config c) {
            specs.add(spec);
            configs.add(c);
            String name = spec.kind() + ":" + spec.model();
            ScriptedBackend b = new ScriptedBackend(name, MethodFixtures.caps(true, true, 0), r -> ScriptedBackend.result("ANSWER: A", List.of()));
            built.add(b);
            return b;
        }
    }

    @Test void anEntryHasTheFieldsOfTheBackendFlagsAndTakesTimeoutsAndLimitsFromTheCommandLine() {
        Config c = config("backends.big={\"kind\":\"openai\",\"base_urls\":[\"http://127.0.0.1:8000/v1\",\"http://127.0.0.1:8001/v1\"],"
                + "\"model\":\"qwen-7b\",\"api_key_env\":\"BIG_KEY\",\"retries\":0,\"image_tokens\":\"qwen\",\"max_top_logprobs\":5}",
                "backends.small.kind=ollama", "backends.small.base_urls=http://127.0.0.1:11434", "backends.small.timeout=7.5");
        Map<String, BackendEntry> e = BackendEntry.all(c, COMMAND_LINE);
        assertThat(e).containsOnlyKeys("big", "small");
        BackendSpec big = e.get("big").spec();
        assertThat(big.kind()).isEqualTo("openai");
        assertThat(big.baseUrls()).containsExactly("http://127.0.0.1:8000/v1", "http://127.0.0.1:8001/v1");
        assertThat(big.model()).isEqualTo("qwen-7b");
        assertThat(big.apiKeyEnv()).isEqualTo("BIG_KEY");
        assertThat(big.maxRetries()).isZero();
        assertThat(big.timeout()).as("from the command line").isEqualTo(Duration.ofSeconds(30));
        assertThat(big.maxConcurrent()).as("from the command line").isEqualTo(5);
        assertThat(e.get("big").maxTopLogprobs()).isEqualTo(5);
        assertThat(e.get("big").logprobs()).isTrue();
        BackendSpec small = e.get("small").spec();
        assertThat(small.baseUrls()).as("one URL as a string (as --set gives it)").containsExactly("http://127.0.0.1:11434");
        assertThat(small.timeout()).isEqualTo(Duration.ofMillis(7500));
        assertThat(small.maxRetries()).as("from the command line").isEqualTo(2);
    }

    @Test void anUnknownFieldIsAnErrorNamingTheEntryTheFieldAndTheNearestField() {
        assertThatThrownBy(() -> BackendEntry.all(config("backends.big={\"kind\":\"openai\",\"base_url\":\"http://x:1/v1\"}"), COMMAND_LINE))
                .isInstanceOf(Config.ConfigException.class)
                .hasMessageContaining("backends.big").hasMessageContaining("unknown field 'base_url'")
                .hasMessageContaining("did you mean 'base_urls'");
    }

    @Test void aKeyInTheConfigIsRefusedAndPointsToTheEnvironmentVariable() {
        assertThatThrownBy(() -> BackendEntry.all(config("backends.big={\"kind\":\"openai\",\"api_key\":\"sk-123\"}"), COMMAND_LINE))
                .isInstanceOf(Config.ConfigException.class)
                .hasMessageContaining("backends.big.api_key").hasMessageContaining("environment variables only")
                .hasMessageContaining("api_key_env").hasMessageNotContaining("sk-123");
    }

    @Test void badValuesNameTheFieldAndWhatItMustBe() {
        assertThatThrownBy(() -> BackendEntry.all(config("backends.a={\"base_urls\":\"http://x:1/v1\"}"), COMMAND_LINE))
                .hasMessageContaining("backends.a").hasMessageContaining("\"kind\" is required");
        assertThatThrownBy(() -> BackendEntry.all(config("backends.a={\"kind\":\"vllm\"}"), COMMAND_LINE))
                .hasMessageContaining("backends.a.kind").hasMessageContaining("openai");
        assertThatThrownBy(() -> BackendEntry.all(config("backends.a={\"kind\":\"openai\",\"retries\":\"many\"}"), COMMAND_LINE))
                .hasMessageContaining("backends.a.retries must be a whole number");
        assertThatThrownBy(() -> BackendEntry.all(config("backends.a={\"kind\":\"openai\",\"base_urls\":[\"127.0.0.1:8000\"]}"), COMMAND_LINE))
                .hasMessageContaining("backends.a.base_urls").hasMessageContaining("http://");
        assertThatThrownBy(() -> BackendEntry.all(config("backends.a={\"kind\":\"openai\",\"logprobs\":\"no\"}"), COMMAND_LINE))
                .hasMessageContaining("backends.a.logprobs must be true or false");
        assertThatThrownBy(() -> BackendEntry.all(config("backends=[\"a\"]"), COMMAND_LINE))
                .hasMessageContaining("'backends' must be an object");
    }

    @Test void theConfigurationKnowsTheBackendsSectionAndEveryMethodsBackendList(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = dir.resolve("panel.json");
        java.nio.file.Files.writeString(file, "{\"backends\": {\"big\": {\"kind\": \"openai\", \"base_urls\": [\"http://127.0.0.1:8000/v1\"],"
                + " \"logprobs\": false}}, \"vote\": {\"backends\": [\"big\", \"local\", null]}}");
        Config c = Config.defaults().withFile(file).withOverrides(Map.of("backends.small.kind", "ollama",
                "backends.small.base_urls", "http://127.0.0.1:11434", "debate.backends", "[\"big\",\"small\",\"local\"]"));
        assertThat(BackendEntry.all(c, COMMAND_LINE)).containsOnlyKeys("big", "small");
        assertThatThrownBy(() -> Config.defaults().withOverrides(Map.of("backends.small.base_url", "http://x:1")))
                .isInstanceOf(Config.ConfigException.class)
                .hasMessageContaining("unknown backend field 'backends.small.base_url'").hasMessageContaining("did you mean 'base_urls'");
        assertThatThrownBy(() -> Config.defaults().withOverrides(Map.of("backends.small.timeout", "soon")))
                .hasMessageContaining("backends.small.timeout must be a number");
        assertThatThrownBy(() -> Config.defaults().withOverrides(Map.of("backends.small", "{\"kind\":\"openai\",\"api_key\":\"sk-1\"}")))
                .hasMessageContaining("environment variables only").hasMessageNotContaining("sk-1");
        java.nio.file.Files.writeString(file, "{\"backends\": {\"big\": {\"kind\": \"openai\", \"modle\": \"x\"}}}");
        assertThatThrownBy(() -> Config.defaults().withFile(file))
                .hasMessageContaining("unknown backend field 'backends.big.modle'").hasMessageContaining("did you mean 'model'");
        assertThatThrownBy(() -> Config.defaults().withOverrides(Map.of("vote.backends", "big")))
                .hasMessageContaining("vote.backends must be a list");
    }

    @Test void defaultAndLocalAreReservedNames() {
        assertThatThrownBy(() -> BackendEntry.all(config("backends.local.kind=openai"), COMMAND_LINE))
                .hasMessageContaining("backends.local").hasMessageContaining("built-in model");
        assertThatThrownBy(() -> BackendEntry.all(config("backends.default.kind=openai"), COMMAND_LINE))
                .hasMessageContaining("backends.default").hasMessageContaining("command line");
    }

    @Test void namesResolveToTheirOwnBackendBuiltOnceOnFirstUseAndUnknownNamesListTheKnownOnes() {
        Factory f = new Factory();
        Config c = config("backends.big.kind=openai", "backends.big.model=qwen-7b", "backends.small.kind=openai",
                "backends.small.model=qwen-3b");
        try (NamedBackends nb = NamedBackends.open(COMMAND_LINE, c, f::create)) {
            assertThat(f.specs).as("only the command line's backend is built up front").hasSize(1);
            assertThat(nb.names()).containsExactly("default", "local", "big", "small");
            assertThat(nb.resolve("default").name()).isEqualTo("openai:cli-model");
            assertThat(nb.resolve(null)).isSameAs(nb.defaultBackend());
            Backend big = nb.resolve("big");
            assertThat(big.name()).isEqualTo("openai:qwen-7b");
            assertThat(nb.resolve("big")).isSameAs(big);
            assertThat(nb.resolve("small").name()).isEqualTo("openai:qwen-3b");
            assertThat(nb.resolve("local").name()).isEqualTo("local:gam-local");
            assertThat(f.specs.get(f.specs.size() - 1).kind()).isEqualTo("local");
            assertThat(f.specs).hasSize(4);
            assertThatThrownBy(() -> nb.resolve("bgi")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unknown backend 'bgi'").hasMessageContaining("default, local, big, small");
        }
    }

    @Test void requireKnownListsEveryBadReferenceByConfigKeyAndTheKnownNames() {
        try (NamedBackends nb = NamedBackends.open(COMMAND_LINE, config("backends.big.kind=openai"), new Factory()::create)) {
            nb.requireKnown(Map.of("gam.experts[0].backend", "big", "vote.backends[2]", "local", "debate.backends[0]", "default"));
            assertThatThrownBy(() -> nb.requireKnown(Map.of("gam.experts[1].backend", "bgi")))
                    .isInstanceOf(Config.ConfigException.class)
                    .hasMessageContaining("gam.experts[1].backend = 'bgi'").hasMessageContaining("known backends: default, local, big");
        }
    }

    @Test void aLocalEntryAndLocalShareTheCommandLinesBuiltInModel() {
        Factory f = new Factory();
        try (NamedBackends nb = NamedBackends.open(BackendSpec.local(), config("backends.offline.kind=local"), f::create)) {
            assertThat(nb.resolve("local")).isSameAs(nb.defaultBackend());
            assertThat(nb.resolve("offline")).isSameAs(nb.defaultBackend());
            assertThat(f.specs).hasSize(1);
        }
    }

    @Test void logProbSettingsOfAnEntryReachItsBackend() {
        Factory f = new Factory();
        Config c = config("backends.capped={\"kind\":\"openai\",\"max_top_logprobs\":3}", "backends.plain={\"kind\":\"openai\",\"logprobs\":false}");
        try (NamedBackends nb = NamedBackends.open(COMMAND_LINE, c, f::create)) {
            nb.resolve("capped");
            assertThat(f.configs.get(f.configs.size() - 1).integer("backend.max_top_logprobs")).isEqualTo(3);
            Backend plain = nb.resolve("plain");
            assertThat(plain.capabilities().logprobs()).isFalse();
            ScriptedBackend inner = f.built.get(f.built.size() - 1);
            plain.chat(ChatRequest.of(List.of(ChatMessage.user("hi", List.of()))).withLogprobs(true, 5));
            assertThat(inner.requests.get(0).logprobs()).as("never asked for log-probs").isFalse();
        }
    }

    @Test void aMeteredContextCountsCallsAndTokensPerBackendName() {
        Factory f = new Factory();
        Config c = config("backends.big.kind=openai", "backends.big.model=qwen-7b");
        try (NamedBackends nb = NamedBackends.open(COMMAND_LINE, c, f::create)) {
            UsageMeter meter = new UsageMeter();
            RunContext ctx = new RunContext(nb.defaultBackend(), nb, c, Concurrency.newIoExecutor("t"), null).metered(meter);
            ChatRequest r = ChatRequest.of(List.of(ChatMessage.user("hi", List.of())));
            ctx.backend().chat(r);
            ctx.backendFor("big").chat(r);
            ctx.backendFor("big").chat(r);
            ctx.backendFor("default").chat(r);
            Map<String, UsageMeter.Tally> t = meter.tallies();
            assertThat(t).containsOnlyKeys("default", "big");
            assertThat(t.get("default").calls()).isEqualTo(2);
            assertThat(t.get("big").calls()).isEqualTo(2);
            assertThat(t.get("big").backend()).isEqualTo("openai:qwen-7b");
            assertThat(t.get("big").model()).isEqualTo("scripted");
            assertThat(t.get("big").promptTokens()).isEqualTo(20);
        }
    }

    @Test void aBareRunContextKnowsOnlyTheDefaultBackend() {
        ScriptedBackend b = ScriptedBackend.text(r -> "ANSWER: A");
        RunContext ctx = MethodFixtures.context(b);
        assertThat(ctx.backendFor("default")).isSameAs(b);
        assertThatThrownBy(() -> ctx.backendFor("big")).hasMessageContaining("unknown backend 'big'")
                .hasMessageContaining("only the default backend");
    }
}
