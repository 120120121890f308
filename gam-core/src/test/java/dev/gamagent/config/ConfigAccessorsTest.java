package dev.gamagent.config;

import dev.gamagent.gam.GamSettings;
import dev.gamagent.influence.StoppingRule;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Settings are read without fallbacks: defaults.json has every default, the optional keys are read as "not set". */
class ConfigAccessorsTest {
    private final Config defaults = Config.defaults();

    @Test void aKeyWithoutAValueIsAnErrorNamingIt() {
        assertThatThrownBy(() -> defaults.number("gam.theta_trem")).isInstanceOf(Config.ConfigException.class)
                .hasMessageContaining("gam.theta_trem").hasMessageContaining("no such key");
        assertThatThrownBy(() -> defaults.string("gam.judge_backend")).isInstanceOf(Config.ConfigException.class)
                .hasMessageContaining("gam.judge_backend").hasMessageContaining("optional");
    }

    @Test void everyKeyThatIsNotOptionalHasItsValueInDefaultsJson() {
        for (String key : defaults.schema().keys()) {
            if (defaults.schema().optional(key)) continue;
            assertThat(defaults.node(key).isMissingNode() || defaults.node(key).isNull()).as("defaults.json lacks %s", key).isFalse();
        }
    }

    @Test void optionalKeysReadAsNotSetUntilGivenAndOthersAreRefused() {
        assertThat(defaults.optionalString("gam.judge_backend")).isEmpty();
        assertThat(defaults.with("gam.judge_backend", "big").optionalString("gam.judge_backend")).contains("big");
        assertThat(defaults.optionalInteger("dream.agents")).isEmpty();
        assertThat(defaults.with("dream.agents", "5").optionalInteger("dream.agents")).hasValue(5);
        assertThat(defaults.optionalString("prompts.expert_scene")).isEmpty(); // a template the user did not override
        // a typo of an optional key, or a key with a default, cannot silently read "not set"
        assertThatThrownBy(() -> defaults.optionalString("gam.judge_backnd")).isInstanceOf(Config.ConfigException.class)
                .hasMessageContaining("gam.judge_backnd").hasMessageContaining("not an optional key");
        assertThatThrownBy(() -> defaults.optionalInteger("gam.max_rounds")).isInstanceOf(Config.ConfigException.class);
    }

    @Test void aValueTheUserGivesIsGivenEvenAtItsDefault() {
        assertThat(defaults.given("eval.gpu_hour_rate")).isFalse();
        assertThat(defaults.number("eval.gpu_hour_rate")).isEqualTo(4.10);
        assertThat(defaults.with("eval.gpu_hour_rate", "4.10").given("eval.gpu_hour_rate")).isTrue();
        assertThat(defaults.withOverrides(Map.of("eval.gpu_hour_rate", "2")).given("eval.gpu_hour_rate")).isTrue();
        assertThat(defaults.withOverrides(Map.of("eval.gpu_hour_rate", "2")).given("eval.numeric_tolerance")).isFalse();
    }

    @Test void keysThatGotTheirDefaultsKeepTheTypesTheyAccepted() {
        // fractions where a number was accepted, "a,b" lists for hosts and origins (issue 13), whole numbers stay whole
        Config c = defaults.withOverrides(Map.of("server.max_body_mb", "0.5", "image.max_megapixels", "2.5",
                "server.allowed_hosts", "a.example,b.example", "server.cors_origins", "https://app.example"));
        assertThat(c.number("server.max_body_mb")).isEqualTo(0.5);
        assertThat(c.number("image.max_megapixels")).isEqualTo(2.5);
        assertThatThrownBy(() -> defaults.withOverrides(Map.of("server.max_in_flight", "1.5")))
                .isInstanceOf(Config.ConfigException.class).hasMessageContaining("server.max_in_flight");
    }

    @Test void theStoppingRuleHasOneHome() {
        // θ_term 0.15 and K_max 3 (docs/design.md §6) come from defaults.json through GamSettings, and only from there
        StoppingRule rule = GamSettings.stopping(defaults);
        assertThat(rule).isEqualTo(new StoppingRule(defaults.number("gam.theta_u"), defaults.number("gam.theta_c"),
                defaults.number("gam.theta_term"), defaults.number("gam.epsilon"), defaults.integer("gam.max_rounds"), 0));
        assertThat(rule.thetaTerm()).isEqualTo(0.15);
        assertThat(rule.maxRounds()).isEqualTo(3);
        assertThat(GamSettings.from(defaults).stopping()).isEqualTo(rule);
        assertThat(GamSettings.stopping(defaults.with("gam.theta_term", "0.1")).thetaTerm()).isEqualTo(0.1);
    }
}
