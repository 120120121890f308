package dev.gamagent.eval;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Method;
import dev.gamagent.api.Question;
import dev.gamagent.api.RunContext;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.config.Config;
import dev.gamagent.eval.grade.Grader;
import dev.gamagent.eval.load.CircularExpansion;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29: a method is asked a {@link Question} that holds no answer key (the ground truth and categories stay in
 * {@link KeyedQuestion}, on the evaluation's side), and the trace the evaluation writes still records the key as before.
 */
class KeyedQuestionTest {
    @TempDir Path dir;

    @Test void theQuestionAMethodIsAskedHasNoAnswerKey() {
        assertThat(Arrays.stream(Question.class.getRecordComponents()).map(c -> c.getName()))
                .containsExactly("id", "images", "text", "hint", "options");
    }

    /** A method that answers A and records the question it was given, as every method does. */
    private static final class Spy implements Method {
        Question seen;

        @Override public String name() { return "spy"; }

        @Override public Answer run(Question q, RunContext ctx) {
            seen = q;
            Trace t = new Trace(Trace.QuestionInfo.of(q), name(), Map.of(), List.of(), Termination.SINGLE.label(),
                    new Trace.Final("red", "A", 1), TokenCount.ZERO, 0, 0, null);
            return new Answer("red", "A", 1, 0, 0, Termination.SINGLE, TokenCount.ZERO, 0, 0, t);
        }
    }

    @Test void theRunnerGradesWithTheKeyAndWritesItIntoTheTraceTheMethodMadeWithout() {
        KeyedQuestion kq = new KeyedQuestion(Question.of("q1", List.of(), "Which colour?", Map.of("A", "red", "B", "blue")), "A",
                "colour", "perception");
        Spy spy = new Spy();
        Config c = Config.defaults();
        var agents = Executors.newFixedThreadPool(2);
        try (ResultStore s = new ResultStore(dir)) {
            EvalRunner runner = new EvalRunner(ScriptedBackend.text(r -> "ANSWER: A"), c, new Grader(c, null), s, 1);
            ResultRecord r = runner.runOne(new EvalRunner.Pair(new EvalQuestion(kq, "q1", 0, null), "spy"), kq, spy, agents);
            assertThat(spy.seen).isSameAs(kq.question());
            assertThat(r.grade().outcome()).isEqualTo("correct");
            assertThat(r.question().groundTruth()).isEqualTo("A");
            assertThat(r.trace().json().path("question").path("groundTruth").asText()).isEqualTo("A");
            assertThat(r.trace().json().path("question").path("category").asText()).isEqualTo("colour");
            assertThat(r.trace().json().path("question").path("text").asText()).isEqualTo("Which colour?");
        } finally {
            agents.shutdownNow();
        }
    }

    @Test void aRotationMovesTheKeyWithItsOption() {
        KeyedQuestion kq = new KeyedQuestion(Question.of("q1", List.of(), "Which colour?", Map.of("A", "red", "B", "blue")), "A", "c", null);
        KeyedQuestion r1 = CircularExpansion.rotate(kq, 1);
        assertThat(r1.id()).isEqualTo("q1#r1");
        assertThat(r1.options()).containsEntry("B", "red");
        assertThat(r1.groundTruth()).isEqualTo("B");
        assertThat(r1.category()).isEqualTo("c");
    }
}
