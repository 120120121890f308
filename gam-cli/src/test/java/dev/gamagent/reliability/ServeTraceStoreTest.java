package dev.gamagent.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.CliProcess;
import dev.gamagent.testing.TriangleImage;
import dev.gamagent.testing.http.OpenAiWireServer;
import dev.gamagent.testing.http.Reply;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 28, item 4: {@code gam serve}, run as a user runs it (a child process, no {@code --trace-db}), keeps its traces
 * in that user's state directory, readable by that user only; another user's server (another state directory) does
 * not list them. The children get their state and home directories from the test's temporary directory, so the test
 * never writes to the real home.
 */
class ServeTraceStoreTest {
    @TempDir Path dir;
    private static final Map<String, String> ROWS = new LinkedHashMap<>();

    @AfterAll static void report() {
        StringBuilder t = new StringBuilder("| `gam serve` started with | traces kept in | permissions | its recent traces |\n|---|---|---|---|\n");
        ROWS.forEach((k, v) -> t.append("| ").append(k).append(" | ").append(v).append(" |\n"));
        Suite.report("serve-traces", t.toString());
    }

    /** A running {@code gam serve} child; closing stops it (SIGTERM) and waits. */
    private record Serve(Process process, String base, Path traceDb) implements AutoCloseable {
        @Override public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Serve serve(OpenAiWireServer upstream, Map<String, String> env, String userHome) throws Exception {
        List<String> cmd = new ArrayList<>(CliProcess.javaCommand(CliProcess.class.getName()));
        cmd.add(1, "-Duser.home=" + userHome); // Java takes the home from the account, not $HOME: never the real one here
        cmd.addAll(List.of("serve", "--port", "0", "--backend", "openai", "--base-url", upstream.baseUrl(), "--model", "m", "--retries", "0"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(Files.createTempFile(dir, "serve", ".err").toFile());
        pb.environment().remove("XDG_STATE_HOME");
        pb.environment().putAll(env);
        Process p = pb.start();
        BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String[] found = CompletableFuture.supplyAsync(() -> {
            try {
                for (String l; (l = lines.readLine()) != null; ) {
                    Matcher m = Pattern.compile("gam serve: (http://127\\.0\\.0\\.1:\\d+)/ +\\(traces in (.*)\\)").matcher(l);
                    if (m.find()) return new String[] {m.group(1), m.group(2)};
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            throw new IllegalStateException("gam serve ended before it listened");
        }).get(120, TimeUnit.SECONDS);
        return new Serve(p, found[0], Path.of(found[1]));
    }

    private static HttpResponse<String> ask(String base, String question) throws Exception {
        String body = Json.write(Map.of("model", "single", "messages", List.of(Map.of("role", "user", "content", List.of(
                Map.of("type", "text", "text", question + "\nA. red\nB. blue"),
                Map.of("type", "image_url", "image_url", Map.of("url", new Picture("t", TriangleImage.draw()).dataUrl())))))));
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions")).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> recent(String base) throws Exception {
        JsonNode o = Json.MAPPER.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/v1/traces")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body());
        List<String> q = new ArrayList<>();
        o.path("data").forEach(t -> q.add(t.path("question").asText()));
        return q;
    }

    private static String perms(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test void eachUsersServerKeepsItsTracesInItsOwnStateDirectoryReadableByItsOwnerOnly() throws Exception {
        try (OpenAiWireServer upstream = new OpenAiWireServer()) {
            upstream.respondWith(r -> Reply.answer("A"));
            Path stateA = dir.resolve("alice-state");
            try (Serve a = serve(upstream, Map.of("XDG_STATE_HOME", stateA.toString()), dir.resolve("alice-home").toString())) {
                assertThat(a.traceDb()).isEqualTo(stateA.resolve("gam/serve/traces.db"));
                assertThat(ask(a.base(), "What colour is alice's private scan?").statusCode()).isEqualTo(200);
                assertThat(recent(a.base())).containsExactly("What colour is alice's private scan?");
                assertThat(perms(a.traceDb().getParent())).isEqualTo("rwx------");
                assertThat(perms(a.traceDb())).isEqualTo("rw-------");
                for (String j : List.of("-wal", "-shm")) {
                    Path p = a.traceDb().resolveSibling("traces.db" + j);
                    if (Files.exists(p)) assertThat(perms(p)).as(p.getFileName().toString()).isEqualTo("rw-------");
                }
                ROWS.put("`XDG_STATE_HOME=/…/alice-state`", "`/…/alice-state/gam/serve/traces.db` | directory `rwx------`, database and journals `rw-------`"
                        + " | its own question only");
            }
            Path homeB = dir.resolve("bob-home");
            try (Serve b = serve(upstream, Map.of(), homeB.toString())) {
                assertThat(b.traceDb()).isEqualTo(homeB.resolve(".local/state/gam/serve/traces.db"));
                assertThat(recent(b.base())).as("another user's server lists none of alice's questions").isEmpty();
                assertThat(ask(b.base(), "What colour is bob's shape?").statusCode()).isEqualTo(200);
                assertThat(recent(b.base())).containsExactly("What colour is bob's shape?");
                assertThat(perms(b.traceDb())).isEqualTo("rw-------");
                assertThat(perms(homeB.resolve(".local/state/gam/serve"))).isEqualTo("rwx------");
                ROWS.put("no `XDG_STATE_HOME`, home `/…/bob-home`", "`/…/bob-home/.local/state/gam/serve/traces.db` | the same"
                        + " | none of alice's; then its own question only");
            }
        }
    }
}
