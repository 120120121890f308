package dev.gamagent.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line's hints for the mistakes a new user makes with methods (issue 27). */
class CliHintsTest {
    @TempDir Path dir;

    record Run(int code, String out, String err) { }

    static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test void aMistypedMethodAnswersWithTheNearestName() {
        Run r = run("ask", "--image", "examples/red-triangle.png", "--question", "q", "--method", "gma");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("unknown method 'gma'; did you mean gam?").contains("known: single, cot");
        assertThat(run("ask", "--image", "x.png", "--question", "q", "--method", "dream+gma").err()).contains("did you mean dream+gam?");
        assertThat(run("ask", "--image", "x.png", "--question", "q", "--method", "debat").err()).contains("did you mean debate?");
        // nothing near: the list only
        assertThat(run("ask", "--image", "x.png", "--question", "q", "--method", "zzzzzzzz").err())
                .contains("unknown method 'zzzzzzzz'; known: single").doesNotContain("did you mean");
    }

    @Test void evalNamesTheMistypedMethodBeforeRunningAnything() throws Exception {
        Path data = java.nio.file.Files.writeString(dir.resolve("q.tsv"), "index\tquestion\tA\tB\tanswer\n1\tq\ta\tb\tA\n");
        Run r = run("eval", "--data", data.toString(), "--methods", "single,gma", "--out", dir.resolve("o").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("unknown method 'gma'; did you mean gam?");
    }

    @Test void askHelpListsTheMethods() {
        Run r = run("ask", "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out().replaceAll("\\s+", " ")).contains("single, cot, sc, vote, debate", "gam", "dream+gam");
    }

    @Test void evalWithMethodSingularSaysToUseMethods() {
        Run r = run("eval", "--data", "x.tsv", "--method", "gam", "--out", dir.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--methods").contains("did you mean --methods");
        Run eq = run("eval", "--data", "x.tsv", "--method=gam", "--out", dir.toString());
        assertThat(eq.err()).contains("did you mean --methods");
    }
}
