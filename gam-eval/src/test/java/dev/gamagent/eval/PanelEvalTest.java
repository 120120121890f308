package dev.gamagent.eval;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.internal.NamedBackends;
import dev.gamagent.config.Config;
import dev.gamagent.eval.grade.Grader;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code gam eval} with agents on named backends: each method's own cache view, per-backend counts in every record. */
class PanelEvalTest {
    @TempDir Path dir;

    /** A backend whose every {@link #withOwnCaches} view is a new object counting the requests it got. */
    private static final class Views implements Backend {
        final List<Views> made = Collections.synchronizedList(new ArrayList<>());
        final java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        private final ScriptedBackend inner = ScriptedBackend.text(r -> "ANSWER: A");
        private final Views root;

        Views(Views root) { this.root = root; }

        @Override public String name() { return "openai:shared"; }

        @Override public Capabilities capabilities() { return inner.capabilities(); }

        @Override public ChatResult chat(ChatRequest r) {
            calls.incrementAndGet();
            return inner.chat(r);
        }

        @Override public Backend withOwnCaches() {
            Views v = new Views(root == null ? this : root);
            (root == null ? this : root).made.add(v);
            return v;
        }
    }

    @Test void eachMethodUsesItsOwnViewOfANamedBackendAndEveryRecordCountsItsBackends() {
        Views shared = new Views(null);
        ScriptedBackend def = ScriptedBackend.text(r -> "ANSWER: B");
        Config c = Config.defaults().withOverrides(Map.of("backends.x.kind", "openai", "vote.backends", "[\"x\",\"x\",null]",
                "debate.backends", "[\"x\",null,null]", "debate.rounds", "1"));
        try (NamedBackends nb = NamedBackends.open(new BackendSpec("openai", List.of(), "m", null, null, 0, 4, null, null, null), c,
                (spec, cfg) -> spec.model() != null ? def : shared);
             ResultStore s = new ResultStore(dir)) {
            new EvalRunner(nb, c, new Grader(c, null), s, 1).run(EvalRunnerTest.questions(2), List.of("vote", "debate"), n -> { }, r -> { });
            assertThat(shared.made).as("one view of x per method").hasSize(2);
            assertThat(shared.calls.get()).as("the shared backend itself is never called").isZero();
            // vote: agents 1-2 on x, 2 questions; debate: agent-1 on x in rounds 0 and 1, 2 questions
            assertThat(shared.made).extracting(v -> v.calls.get()).containsExactlyInAnyOrder(4, 4);
            for (ResultRecord r : s.all()) {
                assertThat(r.isError()).as(r.grade().error()).isFalse();
                assertThat(r.cost().backends()).containsOnlyKeys("x", "default");
                assertThat(r.cost().backends().get("x").calls()).as(r.method()).isEqualTo(2);
                assertThat(r.cost().backends().get("x").calls() + r.cost().backends().get("default").calls()).isEqualTo(r.cost().calls());
            }
        }
    }
}
