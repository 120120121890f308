package dev.gamagent.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.testing.CliProcess;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kill -9 at random points (2 in the short mode, 20 in the full one) of a real {@code gam eval} child
 * process (a deterministic backend, three methods, four questions in flight), each time resumed by the
 * same command, then finished: no pair may be
 * lost or stored twice, results.jsonl must hold each pair exactly once, and the summary must equal that of
 * an uninterrupted run (wall-clock fields aside). Kill points are drawn by progress (a random number of
 * newly stored records, then a random 0–40 ms) so they spread over the whole run whatever the machine's
 * speed; one in five lands during start-up or resume, before any record.
 */
class KillResumeTest {
    private static final String METHODS = "single,vote,debate";
    private static final int QUESTIONS = Suite.size(24, 60);

    @TempDir Path dir;

    private Path data() throws Exception {
        StringBuilder tsv = new StringBuilder("index\timage\tquestion\tA\tB\tanswer\tcategory\n");
        for (int i = 0; i < QUESTIONS; i++) {
            BufferedImage img = new BufferedImage(12, 12, BufferedImage.TYPE_INT_RGB);
            var g = img.createGraphics();
            g.setColor(new Color(20 * i % 256, 255 - 10 * i % 256, 90));
            g.fillRect(0, 0, 12, 12);
            g.dispose();
            ByteArrayOutputStream png = new ByteArrayOutputStream();
            ImageIO.write(img, "png", png);
            tsv.append(i).append('\t').append(Base64.getEncoder().encodeToString(png.toByteArray())).append("\tWhich shape is shown, number ")
                    .append(i).append("?\tcircle\tsquare\t").append(i % 3 == 0 ? "B" : "A").append("\tcat").append(i % 3).append('\n');
        }
        return Files.writeString(dir.resolve("bench.tsv"), tsv.toString());
    }

    private Process start(Path cwd, Path data) throws Exception {
        List<String> cmd = CliProcess.javaCommand(DeterministicEvalMain.class.getName());
        cmd.add(1, "-Ddelay.ms=8");
        cmd.addAll(List.of("--data", data.toString(), "--methods", METHODS, "--out", "run", "--concurrency", "4"));
        Files.createDirectories(cwd);
        return new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(cwd.resolve("child.log").toFile())).start();
    }

    private static int lines(Path jsonl) throws Exception {
        return Files.exists(jsonl) ? (int) Files.readAllLines(jsonl).stream().filter(l -> !l.isBlank()).count() : 0;
    }

    private static long stored(Path db) throws Exception {
        if (!Files.exists(db)) return 0;
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + db); var s = c.createStatement();
             var rs = s.executeQuery("SELECT COUNT(*) FROM results")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /** The summary without what a clock decides (time, the date it was written, and cost when it is priced by wall time). */
    static JsonNode withoutTimes(JsonNode n) {
        JsonNode copy = n.deepCopy();
        strip(copy);
        return copy;
    }

    private static void strip(JsonNode n) {
        if (n instanceof ObjectNode o) {
            for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
                String k = it.next().toLowerCase(Locale.ROOT);
                if (k.contains("second") || k.contains("millis") || k.contains("time") || k.contains("latency") || k.startsWith("cost")
                        || k.equals("command") // the command names the --out directory
                        || k.equals("date")) it.remove(); // when the summary was written (run.date, provenance.date)
            }
            o.forEach(KillResumeTest::strip);
        } else if (n.isArray()) n.forEach(KillResumeTest::strip);
    }

    private static void diff(String path, JsonNode a, JsonNode b, List<String> out) {
        if (a.equals(b)) return;
        if (a.isObject() && b.isObject()) {
            Set<String> keys = new HashSet<>();
            a.fieldNames().forEachRemaining(keys::add);
            b.fieldNames().forEachRemaining(keys::add);
            for (String k : keys) diff(path + "/" + k, a.path(k), b.path(k), out);
        } else if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) diff(path + "/" + i, a.get(i), b.get(i), out);
        } else out.add(path + ": " + a + " vs " + b);
    }

    @Test void killedAtRandomPointsAndResumedTheRunLosesAndDuplicatesNothingAndSumsUpAsAnUninterruptedOne() throws Exception {
        int kills = Suite.size(2, 20);
        long seed = Long.getLong("gam.reliability.seed", System.nanoTime());
        Random random = new Random(seed);
        Path data = data();
        int pairs = QUESTIONS * METHODS.split(",").length;

        // the uninterrupted run, in this JVM
        Path reference = dir.resolve("reference");
        int code = new picocli.CommandLine(DeterministicEvalMain.command(0)).execute("--data", data.toString(), "--methods", METHODS,
                "--out", reference.resolve("run").toString(), "--concurrency", "4");
        assertThat(code).isZero();

        Path killed = dir.resolve("killed");
        Path jsonl = killed.resolve("run/results.jsonl"), db = killed.resolve("run/results.db");
        List<String> points = new ArrayList<>();
        for (int k = 0; k < kills; k++) {
            int before = lines(jsonl);
            Process p = start(killed, data);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            // on average a third of the remaining work per kill point, so the run outlasts all of them
            int target = random.nextInt(5) == 0 ? before : before + 1 + random.nextInt(Math.max(1, (pairs - before) / (3 * (kills - k + 1))));
            while (p.isAlive() && lines(jsonl) < target && System.nanoTime() < deadline) Thread.sleep(2);
            Thread.sleep(random.nextInt(41));
            boolean alive = p.isAlive();
            p.destroyForcibly(); // SIGKILL: no shutdown hooks, no flushing
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(alive).as("the run finished before kill point %d of %d (records: %s)", k + 1, kills, points).isTrue();
            points.add(stored(db) + "");
        }
        Process last = start(killed, data);
        assertThat(last.waitFor(300, TimeUnit.SECONDS)).isTrue();
        assertThat(last.exitValue()).as(Files.readString(killed.resolve("child.log"))).isZero();

        // nothing lost, nothing twice: the database and the JSONL hold every pair exactly once
        Set<String> seen = new HashSet<>();
        int duplicates = 0;
        for (String l : Files.readAllLines(jsonl)) {
            JsonNode n = Json.MAPPER.readTree(l);
            if (!seen.add(n.path("questionId").asText() + "/" + n.path("method").asText())) duplicates++;
            assertThat(n.path("outcome").asText()).isNotEqualTo("error");
        }
        int lost = pairs - seen.size();
        assertThat(duplicates).as("duplicated records").isZero();
        assertThat(lost).as("lost pairs").isZero();
        assertThat(stored(db)).isEqualTo(pairs);
        JsonNode a = withoutTimes(Json.MAPPER.readTree(reference.resolve("run/summary.json").toFile()));
        JsonNode b = withoutTimes(Json.MAPPER.readTree(killed.resolve("run/summary.json").toFile()));
        List<String> differences = new ArrayList<>();
        diff("", a, b, differences);
        boolean identical = differences.isEmpty();
        assertThat(differences).as("where the summary after kills differs from the uninterrupted run's").isEmpty();

        Suite.report("kill-resume", "| kill -9 points | records stored at each kill | pairs | lost | duplicated | summary equals the uninterrupted run's |\n"
                + "|---|---|---|---|---|---|\n| " + points.size() + " (seed " + seed + ") | " + String.join(", ", points) + " | " + pairs
                + " (" + QUESTIONS + " questions × " + METHODS + ") | " + lost + " | " + duplicates + " | " + (identical ? "yes" : "no") + " |");
    }
}
