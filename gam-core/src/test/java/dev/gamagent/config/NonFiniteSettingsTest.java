package dev.gamagent.config;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.gamagent.gam.GamSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.gamagent.config.internal.ConfigSchema;

/**
 * Issue 38, item 9: NaN and ±Infinity (as numbers or as their text) are refused at every numeric key, from {@code --set},
 * from a config file and from the code's own settings, by one rule ({@link ConfigSchema#nonFinite}) with one error that
 * names the key.
 */
class NonFiniteSettingsTest {
    @TempDir Path dir;
    private final Config defaults = Config.defaults();
    private static final List<String> NON_FINITE = List.of("NaN", "Infinity", "-Infinity", "+Infinity", "1e999", "-1e999", "\"NaN\"", " Infinity ");

    @Test void everyNumericKeyRefusesNonFiniteValuesFromSet() {
        int numeric = 0;
        for (String key : defaults.schema().keys()) {
            ConfigSchema.Type t = defaults.schema().typeOf(key);
            if (t == null || !t.numeric()) continue;
            numeric++;
            for (String bad : NON_FINITE) {
                // in a list, a word is given as a string (NaN is not JSON): ["NaN"]; a number too large for a double as itself
                String given = t != ConfigSchema.Type.NUMBER_LIST ? bad : bad.strip().matches("[-+0-9e]+") ? "[1, " + bad.strip() + "]"
                        : "[1, \"" + bad.strip().replace("\"", "") + "\"]";
                assertThatThrownBy(() -> defaults.withOverrides(Map.of(key, given))).as("--set %s=%s", key, given)
                        .isInstanceOf(Config.ConfigException.class)
                        .hasMessageStartingWith("--set " + key + "=" + given + ": " + key + " must ")
                        .hasMessageContaining(t == ConfigSchema.Type.NUMBER_LIST ? "finite numbers only" : "a finite number")
                        .hasMessageNotContaining("\n");
            }
            // a finite value of the key's type is still taken
            String fine = t == ConfigSchema.Type.NUMBER_LIST ? "[1, 2]" : "2";
            assertThat(defaults.withOverrides(Map.of(key, fine)).node(key).isMissingNode()).isFalse();
        }
        assertThat(numeric).as("numeric keys in defaults.json").isGreaterThan(50);
    }

    @Test void aConfigFileWithANonFiniteNumberIsRefusedNamingTheKey() throws Exception {
        Path number = Files.writeString(dir.resolve("big.json"), "{\"gam\": {\"lambda\": 1e999}}");
        assertThatThrownBy(() -> defaults.withFile(number)).isInstanceOf(Config.ConfigException.class)
                .hasMessage("config file " + number + ": gam.lambda must be a finite number, got Infinity");
        Path text = Files.writeString(dir.resolve("nan.json"), "{\"dream\": {\"scales\": [0.5, \"NaN\"]}, \"gam\": {\"max_rounds\": \"Infinity\"}}");
        assertThatThrownBy(() -> defaults.withFile(text)).hasMessageContaining("dream.scales must hold finite numbers only, got [0.5,\"NaN\"]");
        Path backend = Files.writeString(dir.resolve("b.json"), "{\"backends\": {\"big\": {\"kind\": \"openai\", \"timeout\": -1e999}}}");
        assertThatThrownBy(() -> defaults.withFile(backend)).hasMessageContaining("backends.big.timeout must be a finite number, got -Infinity");
    }

    @Test void aNonFiniteValueThatCameAnotherWayIsRefusedWhenRead() {
        // Config.with takes what the code gives without the user-input check: the reader applies the same rule
        assertThatThrownBy(() -> defaults.with("gam.lambda", "NaN").number("gam.lambda")).isInstanceOf(Config.ConfigException.class)
                .hasMessage("config gam.lambda must be a finite number, got 'NaN'");
        assertThatThrownBy(() -> defaults.with("gam.max_rounds", "1e999").integer("gam.max_rounds"))
                .hasMessage("config gam.max_rounds must be a finite number, got Infinity");
        assertThat(defaults.with("gam.lambda", "0.25").number("gam.lambda")).isEqualTo(0.25);
        // numbers the code reads from a section it takes whole: an agent's scale, a price
        assertThatThrownBy(() -> GamSettings.from(defaults.withOverrides(Map.of("gam.agents", "[{\"role\": \"scene\", \"scale\": \"NaN\"}]"))))
                .hasMessageContaining("gam.agents[0].scale must be a finite number, got 'NaN'");
        assertThatThrownBy(() -> Config.numberAt("eval.prices.m.input", JsonNodeFactory.instance.textNode("-Infinity")))
                .hasMessage("config eval.prices.m.input must be a finite number, got '-Infinity'");
    }

    @Test void textThatIsNotANumberStillSaysWhatWasExpected() {
        assertThatThrownBy(() -> defaults.withOverrides(Map.of("gam.lambda", "nan")))
                .hasMessage("--set gam.lambda=nan: gam.lambda must be a number, got 'nan'");
        // a string key may hold the word
        assertThat(defaults.withOverrides(Map.of("gam.embedding", "NaN")).string("gam.embedding")).isEqualTo("NaN");
    }
}
