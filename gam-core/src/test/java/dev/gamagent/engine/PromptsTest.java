package dev.gamagent.engine;

import dev.gamagent.config.Config;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Prompt templates: the jar's read once per instance (methods make a Prompts per question; nothing shared by the process), overrides per config. */
class PromptsTest {
    private static final String NAME = "debate_answer";

    @Test void theJarsTemplatesAreReadOncePerInstanceAndNoInstanceSharesAnother() {
        Prompts p = new Prompts(Config.defaults());
        String a = p.template(NAME);
        assertThat(a).isNotBlank();
        assertThat(p.template(NAME)).isSameAs(a);
        String b = new Prompts(Config.defaults()).template(NAME);
        assertThat(b).isEqualTo(a).isNotSameAs(a);
    }

    @Test void anOverrideInTheConfigWinsForItsOwnInstanceOnly() {
        Prompts custom = new Prompts(Config.defaults().withOverrides(Map.of("prompts." + NAME, "Answer {{x}} now.")));
        assertThat(custom.render(NAME, Map.of("x", "this"))).isEqualTo("Answer this now.");
        assertThat(new Prompts(Config.defaults()).template(NAME)).isNotEqualTo("Answer {{x}} now.");
        assertThatThrownBy(() -> custom.render(NAME, Map.of())).hasMessageContaining("uses {{x}}");
        assertThatThrownBy(() -> new Prompts(Config.defaults()).template("no_such_prompt")).hasMessageContaining("no prompt template named 'no_such_prompt'");
    }
}
