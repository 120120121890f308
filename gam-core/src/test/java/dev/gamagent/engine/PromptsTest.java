package dev.gamagent.engine;

import dev.gamagent.config.Config;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Prompt templates: read once per configuration (methods make a Prompts per question, a run keeps its config; nothing shared by the process), overrides per config. */
class PromptsTest {
    private static final String NAME = "debate_answer";

    @Test void theJarsTemplatesAreReadOncePerConfigurationAndNoConfigurationSharesAnothers() {
        Config run = Config.defaults();
        String a = new Prompts(run).template(NAME);
        assertThat(a).isNotBlank();
        assertThat(new Prompts(run).template(NAME)).as("the next question's Prompts, same run").isSameAs(a);
        String b = new Prompts(Config.defaults()).template(NAME);
        assertThat(b).isEqualTo(a).isNotSameAs(a);
    }

    @Test void anOverrideFileIsReadOncePerConfiguration(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("answer.txt");
        java.nio.file.Files.writeString(file, "first {{x}}");
        Map<String, String> set = Map.of("prompts." + NAME, "@" + file);
        Config run = Config.defaults().withOverrides(set);
        assertThat(new Prompts(run).render(NAME, Map.of("x", "1"))).isEqualTo("first 1");
        java.nio.file.Files.writeString(file, "second {{x}}");
        assertThat(new Prompts(run).render(NAME, Map.of("x", "2"))).as("a run reads it once").isEqualTo("first 2");
        assertThat(new Prompts(Config.defaults().withOverrides(set)).render(NAME, Map.of("x", "3"))).as("a new run reads it again").isEqualTo("second 3");
    }

    @Test void anOverrideInTheConfigWinsForItsOwnInstanceOnly() {
        Prompts custom = new Prompts(Config.defaults().withOverrides(Map.of("prompts." + NAME, "Answer {{x}} now.")));
        assertThat(custom.render(NAME, Map.of("x", "this"))).isEqualTo("Answer this now.");
        assertThat(new Prompts(Config.defaults()).template(NAME)).isNotEqualTo("Answer {{x}} now.");
        assertThatThrownBy(() -> custom.render(NAME, Map.of())).hasMessageContaining("uses {{x}}");
        assertThatThrownBy(() -> new Prompts(Config.defaults()).template("no_such_prompt")).hasMessageContaining("no prompt template named 'no_such_prompt'");
    }
}
