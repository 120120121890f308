package dev.gamagent;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MethodRegistryTest {
    @Test void theListedNamesAreTheRegisteredMethodsThenADreamVariantOfEachDebateMethod() {
        assertThat(MethodRegistry.listed()).startsWith(MethodRegistry.names().toArray(String[]::new))
                .endsWith("dream+debate", "dream+self-debate", "dream+mad", "dream+div-mad", "dream+dmad", "dream+chateval",
                        "dream+debunc", "dream+dwi", "dream+gam")
                .doesNotContain("dream+single", "dream+cot", "dream+sc", "dream+vote")
                .doesNotHaveDuplicates();
        assertThat(MethodRegistry.names()).doesNotContain("dream+gam");
    }

    @Test void everyListedNameCreatesAMethodOfThatName() {
        for (String n : MethodRegistry.listed()) assertThat(MethodRegistry.create(n).name()).isEqualTo(n);
    }

    @Test void anUnknownMethodIsReportedWithTheListedNames() {
        assertThatThrownBy(() -> MethodRegistry.create("gamm")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown method 'gamm'").hasMessageContaining("dream+gam").hasMessageContaining("single");
    }

    @Test void aTypoIsAnsweredWithTheNearestName() {
        assertThatThrownBy(() -> MethodRegistry.create("gma")).hasMessageStartingWith("unknown method 'gma'; did you mean gam? known: single");
        assertThatThrownBy(() -> MethodRegistry.create("dream+gma")).hasMessageContaining("did you mean dream+gam?");
        assertThatThrownBy(() -> MethodRegistry.create("selfdebate")).hasMessageContaining("did you mean self-debate?");
        assertThatThrownBy(() -> MethodRegistry.create("qwertyuiop")).hasMessageNotContaining("did you mean");
    }
}
