package dev.gamagent.server;

import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that leaves while its debate runs — streaming or waiting for the whole answer — ends the debate's
 * remaining backend calls (a counting backend sees no more), and the question is counted and logged as 499, not 200.
 */
class ClientLeavesMidDebateTest {
    private static final String QUESTION = "What colour is the left half?\nA. blue\nB. red\nC. green";
    private static final Pattern LEFT = Pattern.compile("gam_questions_total\\{method=\"debate\",backend=\"scripted\",status=\"(\\d+)\"} (\\d+)");

    @TempDir Path dir;
    private ScriptedBackend backend;
    private ServerFixture f;

    @BeforeEach void start() throws Exception {
        // each call takes a while, as a model's does: the debate is still running when the client leaves
        backend = ScriptedBackend.text(r -> {
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "I see red on the left.\nANSWER: B";
        });
        f = new ServerFixture(ServerFixture.settings(dir), backend, Map.of(), List.of());
    }

    @AfterEach void stop() { f.close(); }

    @Test void aClientThatLeavesStopsTheDebatesRemainingCallsAndIsCountedAs499() throws Exception {
        int before = backend.requests.size();
        assertThat(f.post("/v1/chat/completions", ServerFixture.request("debate", QUESTION, false, ServerFixture.dataUrl())).statusCode()).isEqualTo(200);
        int whole = backend.requests.size() - before;
        assertThat(whole).as("a debate makes several rounds of calls").isGreaterThanOrEqualTo(6);

        for (boolean stream : new boolean[]{false, true}) {
            int start = backend.requests.size();
            try (Socket s = new Socket("127.0.0.1", port())) {
                byte[] body = Json.write(ServerFixture.request("debate", QUESTION, stream, ServerFixture.dataUrl())).getBytes(StandardCharsets.UTF_8);
                OutputStream out = s.getOutputStream();
                out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                        + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
                if (stream) {
                    // read the stream until the first agent has answered, then leave
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                    String line;
                    while ((line = in.readLine()) != null && !line.contains("agent_answered")) { }
                    assertThat(line).as("the stream reached the first answer").isNotNull();
                } else {
                    while (backend.requests.size() == start) Thread.sleep(10); // the debate has begun
                }
            }
            int ended = waitFor499(stream ? 2 : 1);
            assertThat(ended).as("the question is counted as 499").isEqualTo(stream ? 2 : 1);
            int made = backend.requests.size() - start;
            Thread.sleep(800);
            assertThat(backend.requests.size() - start).as("no call is made after the question ended").isEqualTo(made);
            assertThat(made).as((stream ? "streamed" : "plain") + ": calls made after the client left (a whole debate makes " + whole + ")")
                    .isLessThan(whole);
        }
        assertThat(count("200")).as("only the finished debate counts as 200").isEqualTo(1);
    }

    private int port() { return Integer.parseInt(f.base.substring(f.base.lastIndexOf(':') + 1)); }

    private int waitFor499(int n) throws Exception {
        long end = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < end) {
            if (count("499") >= n) return count("499");
            Thread.sleep(50);
        }
        return count("499");
    }

    private int count(String status) throws Exception {
        Matcher m = LEFT.matcher(f.get("/metrics").body());
        int n = 0;
        while (m.find()) if (m.group(1).equals(status)) n += Integer.parseInt(m.group(2));
        return n;
    }
}
