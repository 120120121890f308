package dev.gamagent.eval.recipe;

import dev.gamagent.MethodRegistry;
import dev.gamagent.config.Config;
import dev.gamagent.testing.MethodFixtures;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The calls-per-question ranges `gam reproduce --list` prints hold what the methods really do, agreeing and disagreeing panels alike. */
class ProtocolCallsTest {
    @ParameterizedTest
    @ValueSource(strings = {"single", "cot", "sc", "vote", "debate", "self-debate", "mad", "div-mad", "dmad", "chateval", "debunc", "dwi",
            "gam", "dream+debate", "dream+gam", "dream+dmad"})
    void measuredCallsFallInsideTheRange(String method) {
        ProtocolCalls.Range range = ProtocolCalls.of(method, Config.defaults());
        ScriptedBackend agree = MethodFixtures.backend(MethodFixtures.caps(true, false, 0),
                s -> MethodFixtures.Reply.of("ANSWER: A\nDECISION: STOP\nSUPPORTED SIDE: affirmative", 0.99));
        AtomicInteger n = new AtomicInteger();
        ScriptedBackend disagree = MethodFixtures.backend(MethodFixtures.caps(true, false, 0),
                s -> MethodFixtures.Reply.of("ANSWER: " + "ABC".charAt(n.getAndIncrement() % 3) + "\nDECISION: CONTINUE", 0.4));
        for (ScriptedBackend b : new ScriptedBackend[]{agree, disagree}) {
            var a = MethodRegistry.create(method).run(MethodFixtures.question(), MethodFixtures.context(b));
            assertThat(b.requests.size()).as(method + " calls, range " + range + " (" + range.how() + ")")
                    .isBetween(range.min(), range.max());
            assertThat(a.calls()).isEqualTo(b.requests.size());
        }
    }

    @Test void theRangesAreTheOnesDocsMethodsMdStates() {
        Config c = Config.defaults();
        assertThat(ProtocolCalls.of("debate", c).toString()).isEqualTo("9");
        assertThat(ProtocolCalls.of("self-debate", c).toString()).isEqualTo("4");
        assertThat(ProtocolCalls.of("mad", c).toString()).isEqualTo("3–11");
        assertThat(ProtocolCalls.of("dwi", c).toString()).isEqualTo("5");
        assertThat(ProtocolCalls.of("chateval", c).toString()).isEqualTo("6");
        assertThat(ProtocolCalls.of("sc", c).toString()).isEqualTo("1–5");
        assertThat(ProtocolCalls.of("gam", c).toString()).isEqualTo("3–21");
        assertThat(ProtocolCalls.of("gam", c.with("gam.max_rounds", "9").with("gam.record_full", "true")).toString()).isEqualTo("57");
        assertThat(ProtocolCalls.of("dream+debate", c).toString()).isEqualTo("12–18");
    }

    /** Issue 29: a method's settings are read once, by the method; the call count asks it and reads no key itself. */
    @Test void readsNoMethodsSetting() throws java.io.IOException {
        String src = java.nio.file.Files.readString(java.nio.file.Path.of(System.getProperty("gam.root", "."), "gam-eval/src/main/java/dev/gamagent/eval/recipe/ProtocolCalls.java"));
        assertThat(src).doesNotContainPattern("\\.(integer|number|bool|string|node|optionalInteger|optionalString)\\(")
                .doesNotContainPattern("\"[a-z_]+\\.[a-z_]+\"");
        for (String m : new String[]{"debate", "mad", "gam", "dream+debate"}) {
            assertThat(ProtocolCalls.of(m, Config.defaults()).how())
                    .isEqualTo(MethodRegistry.create(m).plannedCalls(Config.defaults()).orElseThrow().how());
        }
    }
}
