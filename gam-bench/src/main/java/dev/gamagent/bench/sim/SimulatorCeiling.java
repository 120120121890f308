package dev.gamagent.bench.sim;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The simulator's own ceiling: requests per second it answers at zero latency to a load generator on
 * the same machine (kept-alive HTTP/1.1 connections, one request outstanding on each, a short
 * chat-completions request asking for top-5 log-probs). Printed before any benchmark so that no result
 * is limited by the simulator without anyone noticing. The generator shares the machine's cores, so the
 * figure is a lower bound on what the simulator alone can do.
 */
public final class SimulatorCeiling {
    private SimulatorCeiling() { }

    public record Result(double requestsPerSecond, long requests, int connections, double seconds, long failures) { }

    private static final String BODY = "{\"model\":\"gam-sim\",\"temperature\":0,\"max_tokens\":48,\"logprobs\":true,\"top_logprobs\":5,"
            + "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"What colour is the triangle?\\nA. red\\nB. green\\nC. blue\\n"
            + "Reply in this format:\\nANSWER: <option letter>\\nCONFIDENCE: <0..1>\"}]}]}";

    /** Starts a zero-latency simulator with unlimited slots, loads it for {@code duration}, closes it. */
    public static Result measure(int connections, Duration duration) throws IOException {
        SimulatorSettings s = SimulatorSettings.fixed(Duration.ZERO, 1_000_000);
        try (ModelServerSimulator sim = new ModelServerSimulator(s)) {
            // a short warm-up so the JIT has compiled the request path before we count
            run(sim.port(), connections, Duration.ofMillis(Math.min(1000, duration.toMillis() / 2)));
            return run(sim.port(), connections, duration);
        }
    }

    static Result run(int port, int connections, Duration duration) {
        byte[] request = ("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + BODY.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + BODY).getBytes(StandardCharsets.UTF_8);
        AtomicLong done = new AtomicLong(), failures = new AtomicLong();
        long deadline = System.nanoTime() + duration.toNanos();
        long t0 = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            Thread t = new Thread(() -> {
                try (Socket sock = new Socket()) {
                    sock.setTcpNoDelay(true);
                    sock.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                    OutputStream out = sock.getOutputStream();
                    InputStream in = new BufferedInputStream(sock.getInputStream(), 16384);
                    while (System.nanoTime() < deadline) {
                        out.write(request);
                        out.flush();
                        if (readResponse(in) != 200) failures.incrementAndGet();
                        else done.incrementAndGet();
                    }
                } catch (IOException e) {
                    failures.incrementAndGet();
                }
            }, "sim-ceiling-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Result(done.get() / seconds, done.get(), connections, seconds, failures.get());
    }

    /** Reads one HTTP/1.1 response with a Content-Length body; returns its status. */
    private static int readResponse(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int c, status = -1;
        long length = 0;
        while (true) {
            head.setLength(0);
            while ((c = in.read()) != '\n') {
                if (c < 0) throw new IOException("connection closed mid-response");
                if (c != '\r') head.append((char) c);
            }
            if (head.length() == 0) break;
            String line = head.toString();
            if (status < 0) status = Integer.parseInt(line.split(" ")[1]);
            else if (line.regionMatches(true, 0, "content-length:", 0, 15)) length = Long.parseLong(line.substring(15).strip());
        }
        while (length > 0) {
            long skipped = in.skip(length);
            if (skipped <= 0) {
                if (in.read() < 0) throw new IOException("connection closed mid-body");
                skipped = 1;
            }
            length -= skipped;
        }
        return status;
    }
}
