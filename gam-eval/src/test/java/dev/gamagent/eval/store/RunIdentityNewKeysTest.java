package dev.gamagent.eval.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.config.Config;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run stored before a key had its value in defaults.json resumes when the key now holds its default, and is
 * refused, naming the key, when it holds another value.
 */
class RunIdentityNewKeysTest {
    /** Keys that had no value in defaults.json before issue 29 and now change the identity. */
    private static final List<String> NEW_KEYS = List.of("backend.max_top_logprobs", "backend.max_reply_mb", "eval.numeric_tolerance",
            "eval.grading", "eval.open_answers", "eval.choice_rule");

    private static RunIdentity identity(Config c) {
        return RunIdentity.of("data.tsv", "abc123", "openai", "m", null, c);
    }

    /** {@code now} as it was stored by a version whose defaults.json lacked {@link #NEW_KEYS}. */
    private static RunIdentity storedBefore(RunIdentity now) throws Exception {
        ObjectNode json = (ObjectNode) Json.MAPPER.readTree(now.toJson());
        ObjectNode settings = (ObjectNode) json.get("settings");
        for (String k : NEW_KEYS) {
            assertThat(settings.has(k)).as("the identity holds %s", k).isTrue();
            settings.remove(k);
        }
        return RunIdentity.fromJson(json.toString());
    }

    @Test void aStoredRunWithoutTheNewKeysResumesAtTheirDefaults() throws Exception {
        RunIdentity now = identity(Config.defaults());
        assertThat(now.differencesFrom(storedBefore(now))).isEmpty();
    }

    @Test void aNewKeyAtAnotherValueThanItsDefaultIsADifferenceNamingIt() throws Exception {
        RunIdentity stored = storedBefore(identity(Config.defaults()));
        RunIdentity now = identity(Config.defaults().with("eval.numeric_tolerance", "0.05"));
        assertThat(now.differencesFrom(stored)).containsExactly("setting eval.numeric_tolerance: (none) → 0.05");
    }

    @Test void aKeyTheStoredRunHadIsComparedAsBefore() {
        RunIdentity stored = identity(Config.defaults());
        RunIdentity now = identity(Config.defaults().with("backend.max_reply_mb", "16"));
        assertThat(now.differencesFrom(stored)).containsExactly("setting backend.max_reply_mb: 8.0 → 16");
    }
}
