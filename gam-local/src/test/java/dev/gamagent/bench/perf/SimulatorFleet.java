package dev.gamagent.bench.perf;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code endpoints} simulator processes ({@code gam bench serve-sim}), each with its own port, slots and latency. */
final class SimulatorFleet implements AutoCloseable {
    private static final Pattern SERVING = Pattern.compile("serving (http://\\S+/v1):");

    private final List<ChildProcess> processes = new ArrayList<>();
    private final List<String> urls = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();
    final int slots;
    final double latencySeconds;

    /** Summed counters of every simulator at one moment. */
    record Stats(double atSeconds, long received, long completed, long rejected, double busySlotSeconds, int busy, int queued, int peakBusy,
                 double cpuSeconds) {
        int inFlight() { return busy + queued; }
    }

    SimulatorFleet(Launcher launcher, int endpoints, int slots, long latencyMs, Path logDir, String tag) throws IOException {
        this.slots = slots;
        this.latencySeconds = latencyMs / 1000.0;
        // one process serves every endpoint (each with its own port and slots): one JVM warming up, not four
        ChildProcess p = ChildProcess.start("sim-" + tag, launcher.gam("bench", "serve-sim", "--port", "0", "--endpoints",
                Integer.toString(endpoints), "--latency-ms", Long.toString(latencyMs), "--slots", Integer.toString(slots),
                "--ceiling-seconds", "0"), logDir.resolve("sim-" + tag + ".log"));
        processes.add(p);
        for (Matcher m : p.awaitAll(SERVING, endpoints, Duration.ofSeconds(60))) urls.add(m.group(1));
    }

    List<String> urls() { return urls; }

    int endpoints() { return urls.size(); }

    /** Requests per second the fleet can serve: slots × endpoints / latency. */
    double capacity() { return slots * endpoints() / latencySeconds; }

    Stats stats() {
        long received = 0, completed = 0, rejected = 0;
        double busySeconds = 0, cpu = 0;
        int busy = 0, queued = 0, peak = 0;
        for (int i = 0; i < urls.size(); i++) {
            JsonNode s = get(urls.get(i).replace("/v1", "/sim/stats"));
            received += s.path("received").asLong();
            completed += s.path("completed").asLong();
            rejected += s.path("rejected").asLong();
            busySeconds += s.path("busy_slot_seconds").asDouble();
            busy += s.path("busy").asInt();
            queued += s.path("queued").asInt();
            peak += s.path("peak_busy").asInt();
        }
        for (ChildProcess p : processes) cpu += p.cpuSeconds();
        return new Stats(System.nanoTime() / 1e9, received, completed, rejected, busySeconds, busy, queued, peak, cpu);
    }

    private JsonNode get(String url) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return Json.MAPPER.readTree(r.body());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + url + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override public void close() {
        for (ChildProcess p : processes) p.close();
    }
}
