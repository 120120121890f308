package dev.gamagent.eval;

import com.sun.net.httpserver.HttpServer;
import dev.gamagent.backend.BackendFactory;
import dev.gamagent.backend.BackendSpec;
import dev.gamagent.config.Config;
import dev.gamagent.eval.load.TestImages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.Color;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kills a real `gam eval` child process mid-run, reruns it, and checks every pair is done exactly once.
 * The child talks to a slow OpenAI-compatible server in this test ({@code dev.gamagent.cli.Main eval
 * --backend openai --base-url ...}) when the build has the openai backend; otherwise it runs the same
 * eval command with a slow scripted backend ({@link SlowEvalMain}).
 */
class EvalResumeProcessTest {
    private static final Pattern QUESTION = Pattern.compile("Question \\d+\\?");
    @TempDir Path dir;

    private static boolean openAiBackendAvailable() {
        try (var b = BackendFactory.create(new BackendSpec("openai", List.of("http://127.0.0.1:9/v1"), "m", null, null, 0, 1, null, null, null),
                Config.defaults())) {
            return b != null;
        } catch (IllegalArgumentException unknownBackend) {
            return false;
        } catch (RuntimeException other) {
            return true; // it exists but could not reach the dummy address: fine, the test starts a real server
        }
    }

    /** An OpenAI-compatible server that answers every chat completion after a delay and logs the question asked. */
    private HttpServer slowServer(Path log) throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.setExecutor(Executors.newFixedThreadPool(8));
        s.createContext("/v1/models", ex -> {
            byte[] b = "{\"object\":\"list\",\"data\":[{\"id\":\"slow\",\"object\":\"model\"}]}".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        s.createContext("/v1/chat/completions", ex -> {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Matcher m = QUESTION.matcher(body);
            String q = m.find() ? m.group() : "?";
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (!"?".equals(q)) synchronized (this) { // capability probes ask no benchmark question
                Files.writeString(log, q + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
            byte[] b = ("{\"id\":\"c\",\"object\":\"chat.completion\",\"model\":\"slow\",\"choices\":[{\"index\":0,\"finish_reason\":\"stop\","
                    + "\"message\":{\"role\":\"assistant\",\"content\":\"ANSWER: A\"},\"logprobs\":null}],"
                    + "\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":3,\"total_tokens\":23}}").getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        s.start();
        return s;
    }

    private Process start(Path data, Path out, Path log, HttpServer server) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Djava.awt.headless=true", dev.gamagent.testing.CliProcess.QUICK_JIT, "-Dcalls.log=" + log, "-Ddelay.ms=250",
                "-cp", System.getProperty("java.class.path")));
        if (server != null) {
            cmd.addAll(List.of("dev.gamagent.cli.Main", "eval", "--backend", "openai", "--model", "slow", "--retries", "0",
                    "--api-key-env", "GAM_TEST_DUMMY_KEY",
                    "--base-url", "http://127.0.0.1:" + server.getAddress().getPort() + "/v1"));
        } else {
            cmd.add(SlowEvalMain.class.getName());
        }
        cmd.addAll(List.of("--data", data.toString(), "--methods", "single", "--out", out.toString(), "--concurrency", "2"));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("GAM_TEST_DUMMY_KEY", "not-a-real-key"); // the test server ignores it
        return pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("child.log").toFile())).start();
    }

    private static long rows(Path db) throws Exception {
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + db); var s = c.createStatement();
             var rs = s.executeQuery("SELECT COUNT(*) FROM results WHERE outcome <> 'error'")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private String childLog() throws Exception {
        Path f = dir.resolve("child.log");
        return Files.exists(f) ? Files.readString(f) : "";
    }

    @Test void aKilledRunResumesAndRunsEveryQuestionExactlyOnce() throws Exception {
        String img = TestImages.base64(8, 8, Color.RED);
        StringBuilder tsv = new StringBuilder("index\timage\tquestion\tA\tB\tanswer\tcategory\n");
        int n = 14;
        for (int i = 0; i < n; i++) tsv.append(i).append('\t').append(i == 0 ? img : "0").append("\tQuestion ").append(i)
                .append("?\tred\tblue\t").append(i % 3 == 0 ? "B" : "A").append("\tc").append(i % 2).append('\n');
        Path data = Files.writeString(dir.resolve("bench.tsv"), tsv.toString());
        Path out = dir.resolve("run"), log = dir.resolve("calls.log");
        HttpServer server = openAiBackendAvailable() ? slowServer(log) : null;
        try {
            Process p = start(data, out, log, server);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            Path jsonl = out.resolve("results.jsonl");
            while (System.nanoTime() < deadline && p.isAlive()) {
                if (Files.exists(jsonl) && Files.readAllLines(jsonl).size() >= 4) break;
                Thread.sleep(50);
            }
            assertThat(p.isAlive()).as("child still running when killed; its output:\n%s", childLog()).isTrue();
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            long stored = rows(out.resolve("results.db"));
            assertThat(stored).isBetween(4L, (long) n - 1);
            Thread.sleep(400); // let requests the killed child left at the server finish logging
            List<String> firstCalls = Files.readAllLines(log);

            Process again = start(data, out, log, server);
            assertThat(again.waitFor(180, TimeUnit.SECONDS)).as(childLog()).isTrue();
            assertThat(again.exitValue()).as(childLog()).isZero();

            List<String> allCalls = Files.readAllLines(log);
            List<String> secondCalls = allCalls.subList(firstCalls.size(), allCalls.size());
            // the rerun asked exactly what was not stored (the questions in flight at the kill are asked again)
            assertThat(secondCalls).hasSize(n - (int) stored).doesNotHaveDuplicates();
            assertThat(new HashSet<>(allCalls)).hasSize(n);
            assertThat(rows(out.resolve("results.db"))).isEqualTo(n);
            List<String> lines = Files.readAllLines(jsonl);
            assertThat(lines).hasSize(n);
            Set<String> pairs = new HashSet<>();
            for (String l : lines) {
                var node = dev.gamagent.util.Json.MAPPER.readTree(l);
                pairs.add(node.path("questionId").asText() + "/" + node.path("method").asText());
                assertThat(node.path("outcome").asText()).isIn("correct", "wrong");
            }
            assertThat(pairs).hasSize(n);
            assertThat(out.resolve("summary.json")).exists();
            assertThat(out.resolve("report.html")).exists();
        } finally {
            if (server != null) server.stop(0);
        }
    }
}
