package dev.gamagent.eval;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.Color;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Kills a real `gam eval` child process mid-run, reruns it, and checks every pair is done exactly once. */
class EvalResumeProcessTest {
    @TempDir Path dir;

    private Process start(Path data, Path out, Path log) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(java, "-Djava.awt.headless=true", "-Dcalls.log=" + log, "-Ddelay.ms=250",
                "-cp", System.getProperty("java.class.path"), SlowEvalMain.class.getName(),
                "--data", data.toString(), "--methods", "single", "--out", out.toString(), "--concurrency", "2");
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
    }

    private static long rows(Path db) throws Exception {
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + db); var s = c.createStatement();
             var rs = s.executeQuery("SELECT COUNT(*) FROM results")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    @Test void aKilledRunResumesAndRunsEveryQuestionExactlyOnce() throws Exception {
        String img = TestImages.base64(8, 8, Color.RED);
        StringBuilder tsv = new StringBuilder("index\timage\tquestion\tA\tB\tanswer\tcategory\n");
        int n = 14;
        for (int i = 0; i < n; i++) tsv.append(i).append('\t').append(i == 0 ? img : "0").append("\tQuestion ").append(i)
                .append("?\tred\tblue\t").append(i % 3 == 0 ? "B" : "A").append("\tc").append(i % 2).append('\n');
        Path data = Files.writeString(dir.resolve("bench.tsv"), tsv.toString());
        Path out = dir.resolve("run"), log = dir.resolve("calls.log");

        Process p = start(data, out, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        Path jsonl = out.resolve("results.jsonl");
        while (System.nanoTime() < deadline && p.isAlive()) {
            if (Files.exists(jsonl) && Files.readAllLines(jsonl).size() >= 4) break;
            Thread.sleep(50);
        }
        assertThat(p.isAlive()).as("child still running when killed (log: %s)", Files.exists(dir.resolve("child.log"))
                ? Files.readString(dir.resolve("child.log")) : "").isTrue();
        p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        long stored = rows(out.resolve("results.db"));
        assertThat(stored).isBetween(4L, (long) n - 1);
        List<String> firstCalls = Files.readAllLines(log);

        Process again = start(data, out, log);
        assertThat(again.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(again.exitValue()).as(Files.readString(dir.resolve("child.log"))).isZero();

        List<String> allCalls = Files.readAllLines(log);
        List<String> secondCalls = allCalls.subList(firstCalls.size(), allCalls.size());
        // the rerun asked only what was not stored: at most the questions in flight at the kill are asked twice
        assertThat(secondCalls).hasSize(n - (int) stored);
        assertThat(new HashSet<>(allCalls)).hasSize(n);
        assertThat(rows(out.resolve("results.db"))).isEqualTo(n);
        List<String> lines = Files.readAllLines(jsonl);
        assertThat(lines).hasSize(n);
        Set<String> ids = new HashSet<>();
        for (String l : lines) ids.add(dev.gamagent.util.Json.MAPPER.readTree(l).path("questionId").asText() + "/"
                + dev.gamagent.util.Json.MAPPER.readTree(l).path("method").asText());
        assertThat(ids).hasSize(n);
        assertThat(out.resolve("summary.json")).exists();
        assertThat(out.resolve("report.html")).exists();
        List<String> unused = new ArrayList<>(secondCalls);
        assertThat(unused).doesNotHaveDuplicates();
    }
}
