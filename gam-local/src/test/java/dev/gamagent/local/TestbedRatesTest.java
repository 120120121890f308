package dev.gamagent.local;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The rates bench/testbed.sh reports, counted from hand-made traces whose counts are known. */
class TestbedRatesTest {
    static String agents(String... options) {
        StringBuilder b = new StringBuilder("{\"agents\":[");
        for (int i = 0; i < options.length; i++) {
            if (i > 0) b.append(',');
            b.append("{\"id\":\"a").append(i).append("\",\"option\":\"").append(options[i]).append("\"}");
        }
        return b.append("]}").toString();
    }

    static String record(String method, String truth, String... rounds) {
        return "{\"method\":\"" + method + "\",\"groundTruth\":\"" + truth + "\",\"trace\":{\"rounds\":[" + String.join(",", rounds) + "]}}";
    }

    @Test
    void countsSampleDisagreementAndSwitchesUnderPeers(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("s1").resolve("results.jsonl");
        Files.createDirectories(f.getParent());
        Files.write(f, List.of(
                record("sc", "A", agents("A", "A", "A")),            // unanimous
                record("sc", "A", agents("A", "B", "A")),            // not: 2 of 3 pairs differ
                // agent 0 right, both peers wrong -> wrong in round 1; agent 1 and 2 wrong, peers not all right
                record("debate", "A", agents("A", "B", "B"), agents("B", "B", "B")),
                // agent 2 wrong, both peers right -> right; agents 0 and 1 right, peers not all wrong
                record("debate", "A", agents("A", "A", "C"), agents("A", "A", "A")),
                // agent 0 right, peers wrong -> stays right
                record("debate", "A", agents("A", "C", "B"), agents("A", "C", "B"))));
        TestbedRates.Rates r = TestbedRates.read(List.of(f), "debate");
        assertThat(r.notUnanimous()).isEqualTo(new TestbedRates.Rate(1, 2));
        assertThat(r.pairsDiffer()).isEqualTo(new TestbedRates.Rate(2, 6));
        assertThat(r.rightToWrong()).isEqualTo(new TestbedRates.Rate(1, 2));
        assertThat(r.wrongToRight()).isEqualTo(new TestbedRates.Rate(1, 1));

        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        TestbedRates.markdown(List.of("s1"), List.of(r), new PrintStream(buf, true, StandardCharsets.UTF_8));
        String md = buf.toString(StandardCharsets.UTF_8);
        assertThat(md).contains("| s1 | 0.500 (1/2;").contains("| 0.500 (1/2;")
                .contains("1.000 (1/1;").contains("**outside**") // 1.0 is above the cited 0.44–0.86
                .contains("0.333 (2/6;");
    }
}
