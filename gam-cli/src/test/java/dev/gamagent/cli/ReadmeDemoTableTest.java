package dev.gamagent.cli;

import dev.gamagent.testing.CommandRun;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 26, item 8: the README's demo table is what {@code gam demo} prints. The demo runs here as a user runs it (the
 * built-in model on the bundled 60 questions, every method of the demo); the table's rows must match the README's
 * block column for column, except {@code s/q}, which is each method's measured time. When a change moves the demo's
 * figures, rerun {@code bench/doc-tables.sh} (it writes the README's block and every other table it regenerates) and say
 * what moved it. The demo's run is {@link DemoRun}'s, shared with {@code DocTablesTest}.
 */
class ReadmeDemoTableTest {

    /** The table lines of the README's "What the demo prints" block: the header and one row per method. */
    static List<String> readmeTable() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        Matcher m = Pattern.compile("## What the demo prints.*?```\\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertThat(m.find()).as("README.md has a code block under 'What the demo prints'").isTrue();
        return table(m.group(1));
    }

    /** The lines from the {@code method} header to the first blank line. */
    static List<String> table(String text) {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String l : text.lines().toList()) {
            if (!in && l.startsWith("method ")) in = true;
            else if (in && l.isBlank()) break;
            if (in) out.add(l.strip());
        }
        return out;
    }

    /** A table with the time column blanked: the cells of each line, {@code s/q}'s replaced by "*". */
    static List<List<String>> withoutTime(List<String> table) {
        List<String> head = Arrays.asList(table.get(0).split("\\s+"));
        int time = head.indexOf("s/q");
        List<List<String>> out = new ArrayList<>();
        for (String l : table) {
            List<String> cells = new ArrayList<>(Arrays.asList(l.split("\\s+")));
            if (time >= 0 && time < cells.size() && !l.startsWith("method ")) cells.set(time, "*");
            out.add(cells);
        }
        return out;
    }

    @Test void theReadmesDemoTableIsWhatGamDemoPrints() throws Exception {
        List<String> readme = readmeTable();
        assertThat(readme).as("the README's demo table: a header and the demo's methods").hasSize(1 + DemoCommand.METHODS.size());

        CommandRun run = DemoRun.get().run();
        assertThat(run.code()).as(run.err()).isZero();
        List<String> printed = table(run.out());
        assertThat(withoutTime(printed)).as("README.md's demo table differs from what `gam demo` prints now:\n"
                + String.join("\n", printed) + "\n(run bench/doc-tables.sh, which rewrites the README's block, and update the text under it)")
                .isEqualTo(withoutTime(readme));
    }
}
