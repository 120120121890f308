package dev.gamagent.backend;

import dev.gamagent.backend.internal.HttpTransport;
import dev.gamagent.backend.internal.SecretScrubber;
import dev.gamagent.config.Config;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 25: an upstream reply that never ends is cut off at the cap with an error naming the server, not read into the heap. */
class ReplySizeCapTest {
    /** An HTTP server on 127.0.0.1 that answers every request with 200 and a JSON body that never ends (or declares a size). */
    private static final class EndlessServer implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final AtomicLong sent = new AtomicLong();
        final java.util.concurrent.atomic.AtomicInteger accepted = new java.util.concurrent.atomic.AtomicInteger();
        private final Thread thread;

        EndlessServer(long declaredLength) throws IOException {
            thread = new Thread(() -> {
                while (!socket.isClosed()) {
                    try (Socket s = socket.accept()) {
                        accepted.incrementAndGet();
                        InputStream in = s.getInputStream();
                        byte[] buf = new byte[8192];
                        String head = "";
                        while (!head.contains("\r\n\r\n")) {
                            int n = in.read(buf);
                            if (n < 0) break;
                            head += new String(buf, 0, n, StandardCharsets.ISO_8859_1);
                        }
                        OutputStream out = s.getOutputStream();
                        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                + (declaredLength > 0 ? "Content-Length: " + declaredLength + "\r\n" : "Connection: close\r\n")
                                + "\r\n{\"choices\":[{\"message\":{\"content\":\"").getBytes(StandardCharsets.US_ASCII));
                        byte[] chunk = "x".repeat(16 * 1024).getBytes(StandardCharsets.US_ASCII);
                        while (true) {
                            out.write(chunk); // until the client hangs up
                            sent.addAndGet(chunk.length);
                        }
                    } catch (IOException closedByTheClient) {
                        // next connection
                    }
                }
            }, "endless-server");
            thread.setDaemon(true);
            thread.start();
        }

        String url() { return "http://127.0.0.1:" + socket.getLocalPort() + "/v1"; }

        @Override public void close() throws IOException { socket.close(); }
    }

    @Test void anEndlessReplyEndsAtTheCapWithAnErrorNamingTheServer() throws Exception {
        try (EndlessServer server = new EndlessServer(0)) {
            HttpTransport t = new HttpTransport(Duration.ofSeconds(60), SecretScrubber.NONE, 256 * 1024);
            URI uri = URI.create(server.url() + "/chat/completions");
            assertThatThrownBy(() -> t.postJson(uri, Map.of("model", "m"), Map.of()))
                    .isInstanceOf(BackendException.ReplyTooLarge.class)
                    .hasMessageStartingWith("http://127.0.0.1:" + uri.getPort() + "/v1/chat/completions sent a reply of more than 0.3 MB")
                    .hasMessageContaining("config backend.max_reply_mb");
            Thread.sleep(200);
            long afterCut = server.sent.get();
            Thread.sleep(300);
            assertThat(server.sent.get()).as("the server could send nothing more once the client hung up").isLessThanOrEqualTo(afterCut + 4 << 20);
        }
    }

    @Test void aReplyDeclaredLargerThanTheCapIsRefusedFromItsHeaders() throws Exception {
        try (EndlessServer server = new EndlessServer(1L << 40)) {
            HttpTransport t = new HttpTransport(Duration.ofSeconds(60), SecretScrubber.NONE, 1 << 20);
            assertThatThrownBy(() -> t.postJson(URI.create(server.url() + "/chat/completions"), Map.of("model", "m"), Map.of()))
                    .isInstanceOf(BackendException.ReplyTooLarge.class).hasMessageContaining("declared as 1048576.0 MB");
        }
    }

    @Test void theCapIsASettingAndTheErrorIsNotRetried() throws Exception {
        try (EndlessServer server = new EndlessServer(0)) {
            BackendSpec spec = new BackendSpec("openai", java.util.List.of(server.url()), "m", null, Duration.ofSeconds(60), 3, 4, null, null, null);
            Config config = Config.defaults().with("backend.max_reply_mb", "0.5");
            try (Backend b = BackendFactory.create(spec, config, k -> null)) {
                assertThatThrownBy(() -> b.chat(BackendContractTest.question())).isInstanceOf(BackendException.ReplyTooLarge.class)
                        .hasMessageContaining("past the limit of 0.5 MB");
            }
            assertThat(server.accepted.get()).as("one request: the same request would be cut off again").isEqualTo(1);
        }
    }
}
