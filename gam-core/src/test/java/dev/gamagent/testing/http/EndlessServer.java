package dev.gamagent.testing.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP server on 127.0.0.1 (ephemeral port) that answers every request with 200 and an OpenAI-shaped JSON body that
 * never ends — or declares a {@code Content-Length} it never keeps to — writing until the client hangs up. For the
 * reply-size cap (issue 25): its unit test and the perf suite's step.
 */
public final class EndlessServer implements AutoCloseable {
    private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    /** Body bytes written so far, over every connection. */
    public final AtomicLong sent = new AtomicLong();
    /** Connections accepted. */
    public final AtomicInteger accepted = new AtomicInteger();

    /** @param declaredLength a {@code Content-Length} to announce, or 0 for none ({@code Connection: close}) */
    public EndlessServer(long declaredLength) throws IOException {
        Thread thread = new Thread(() -> {
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

    public int port() { return socket.getLocalPort(); }

    public String url() { return "http://127.0.0.1:" + port() + "/v1"; }

    @Override public void close() throws IOException { socket.close(); }
}
