package dev.gamagent.testing.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An OpenAI-compatible model server for load tests: every {@code POST /v1/chat/completions} is read to its end and
 * thrown away (only its size is counted), then answered "A" after {@code delay}, on keep-alive connections. Unlike
 * {@link WireServer} it keeps nothing of what it received, so a burst of requests carrying megabytes of images costs
 * this server no memory, and what a test measures is the server under test. Base URL: {@code http://127.0.0.1:PORT/v1}.
 */
public final class SlowModelServer implements AutoCloseable {
    private static final byte[] ANSWER = ("{\"id\":\"chatcmpl-slow\",\"object\":\"chat.completion\",\"created\":1700000000,\"model\":\"slow\","
            + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"A\"},\"logprobs\":null,\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":1,\"total_tokens\":101}}").getBytes(StandardCharsets.UTF_8);

    private final ServerSocket socket;
    private final Duration delay;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "slow-model-server");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final AtomicLong bytesReceived = new AtomicLong();

    public SlowModelServer(Duration delay) throws IOException {
        this.delay = delay;
        this.socket = new ServerSocket(0, 512, InetAddress.getLoopbackAddress());
        pool.submit(this::acceptLoop);
    }

    public String baseUrl() { return "http://127.0.0.1:" + socket.getLocalPort() + "/v1"; }

    /** Chat requests answered so far. */
    public int answered() { return answered.get(); }

    /** The most chat requests being answered at once. */
    public int peakConcurrent() { return peak.get(); }

    /** Body bytes received in all. */
    public long bytesReceived() { return bytesReceived.get(); }

    private void acceptLoop() {
        while (!socket.isClosed()) {
            try {
                Socket s = socket.accept();
                pool.submit(() -> serve(s));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] sink = new byte[65536];
            while (true) {
                String head = head(in);
                if (head == null) return;
                long length = 0;
                for (String line : head.split("\r\n")) {
                    int c = line.indexOf(':');
                    if (c > 0 && line.substring(0, c).strip().toLowerCase(Locale.ROOT).equals("content-length")) {
                        length = Long.parseLong(line.substring(c + 1).strip());
                    }
                }
                for (long left = length; left > 0; ) {
                    int n = in.read(sink, 0, (int) Math.min(sink.length, left));
                    if (n < 0) return;
                    left -= n;
                }
                bytesReceived.addAndGet(length);
                boolean chat = head.startsWith("POST ") && head.contains("/chat/completions");
                byte[] body = chat ? ANSWER : "{\"object\":\"list\",\"data\":[{\"id\":\"slow\",\"object\":\"model\"}]}".getBytes(StandardCharsets.UTF_8);
                if (chat) {
                    peak.accumulateAndGet(active.incrementAndGet(), Math::max);
                    try {
                        Thread.sleep(delay.toMillis());
                    } finally {
                        active.decrementAndGet();
                    }
                }
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
                if (chat) answered.incrementAndGet();
            }
        } catch (IOException | InterruptedException | RuntimeException gone) {
            // the client closed its connection, or this server is closing
        }
    }

    /** The request line and headers, or null at the end of the connection. */
    private static String head(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c, state = 0;
        while ((c = in.read()) != -1) {
            b.append((char) c);
            state = (c == '\r' && (state == 0 || state == 2)) ? state + 1 : (c == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
            if (state == 4) return b.toString();
            if (b.length() > 65536) throw new IOException("request headers longer than 64 KB");
        }
        return null;
    }

    @Override public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        pool.shutdownNow();
    }
}
