package dev.gamagent.server;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/** Request counters and latency histograms per method and backend, in the Prometheus text format. */
public final class ServerMetrics {
    /** Seconds; a debate takes from a fraction of a second (local model) to minutes (remote, several rounds). */
    static final List<Double> BUCKETS = List.of(0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0);

    private record Key(String method, String backend, String status) { }

    private record Series(String method, String backend) { }

    private static final class Histogram {
        final AtomicLongArray counts = new AtomicLongArray(BUCKETS.size());
        final LongAdder count = new LongAdder();
        final DoubleAdder sum = new DoubleAdder();
    }

    private final Map<Key, LongAdder> requests = new ConcurrentHashMap<>();
    private final Map<Series, Histogram> latency = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> http = new ConcurrentHashMap<>();
    private final AtomicLong inFlight = new AtomicLong();

    private volatile java.util.function.IntSupplier waiting = () -> 0;
    private volatile MemoryBudget memory;

    /** Questions read and waiting for a slot (or fetching their images) are counted in flight; this says how many wait. */
    public void questionStarted() { inFlight.incrementAndGet(); }

    /** Where the number of questions waiting in line comes from. */
    public void waitingFrom(java.util.function.IntSupplier w) { this.waiting = w; }

    /** Where the memory budget's figures come from. */
    void memoryFrom(MemoryBudget m) { this.memory = m; }

    /** One answered (or failed) question; {@code status} is the HTTP status sent. */
    public void questionFinished(String method, String backend, int status, double seconds) {
        inFlight.decrementAndGet();
        requests.computeIfAbsent(new Key(method, backend, Integer.toString(status)), k -> new LongAdder()).increment();
        Histogram h = latency.computeIfAbsent(new Series(method, backend), k -> new Histogram());
        for (int i = 0; i < BUCKETS.size(); i++) if (seconds <= BUCKETS.get(i)) h.counts.incrementAndGet(i);
        h.count.increment();
        h.sum.add(seconds);
    }

    public void httpRequest(String route, int status) {
        http.computeIfAbsent(route + "\u0000" + status, k -> new LongAdder()).increment();
    }

    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append("# HELP gam_questions_total Questions answered, by method, backend and HTTP status.\n");
        sb.append("# TYPE gam_questions_total counter\n");
        new TreeMap<String, Long>(collect(requests)).forEach((labels, v) ->
                sb.append("gam_questions_total").append(labels).append(' ').append(v).append('\n'));
        sb.append("# HELP gam_question_seconds Time to answer a question, by method and backend.\n");
        sb.append("# TYPE gam_question_seconds histogram\n");
        latency.entrySet().stream().sorted(Map.Entry.comparingByKey(
                java.util.Comparator.comparing(Series::method).thenComparing(Series::backend))).forEach(e -> {
            String base = "method=\"" + esc(e.getKey().method()) + "\",backend=\"" + esc(e.getKey().backend()) + "\"";
            Histogram h = e.getValue();
            for (int i = 0; i < BUCKETS.size(); i++) {
                sb.append("gam_question_seconds_bucket{").append(base).append(",le=\"").append(num(BUCKETS.get(i))).append("\"} ")
                        .append(h.counts.get(i)).append('\n');
            }
            sb.append("gam_question_seconds_bucket{").append(base).append(",le=\"+Inf\"} ").append(h.count.sum()).append('\n');
            sb.append("gam_question_seconds_sum{").append(base).append("} ").append(num(h.sum.sum())).append('\n');
            sb.append("gam_question_seconds_count{").append(base).append("} ").append(h.count.sum()).append('\n');
        });
        sb.append("# HELP gam_questions_in_flight Questions being answered now.\n");
        sb.append("# TYPE gam_questions_in_flight gauge\n");
        sb.append("gam_questions_in_flight ").append(inFlight.get()).append('\n');
        sb.append("# HELP gam_questions_waiting Questions waiting for a free slot (server.max_queued).\n");
        sb.append("# TYPE gam_questions_waiting gauge\n");
        sb.append("gam_questions_waiting ").append(waiting.getAsInt()).append('\n');
        MemoryBudget m = memory;
        if (m != null) {
            gauge(sb, "gam_request_memory_budget_bytes", "Bytes requests may hold together (server.request_memory_fraction of the heap).", m.budget());
            gauge(sb, "gam_request_memory_reserved_bytes", "Bytes requests hold now, as estimated when they reserved them.", m.reserved());
            gauge(sb, "gam_request_memory_waiting", "Requests waiting for bytes of the memory budget.", m.waiting());
            sb.append("# HELP gam_request_memory_refusals_total Requests refused with 503 because their bytes did not fit in time.\n");
            sb.append("# TYPE gam_request_memory_refusals_total counter\n");
            sb.append("gam_request_memory_refusals_total ").append(m.refused()).append('\n');
        }
        java.lang.management.MemoryUsage heap = java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        gauge(sb, "gam_heap_used_bytes", "Heap in use, garbage included until the next collection.", heap.getUsed());
        gauge(sb, "gam_heap_committed_bytes", "Heap the JVM holds from the operating system.", heap.getCommitted());
        gauge(sb, "gam_heap_max_bytes", "The heap's limit (-Xmx).", heap.getMax());
        sb.append("# HELP gam_http_requests_total HTTP requests by route and status.\n");
        sb.append("# TYPE gam_http_requests_total counter\n");
        new TreeMap<>(http).forEach((k, v) -> {
            String[] p = k.split("\u0000");
            sb.append("gam_http_requests_total{route=\"").append(esc(p[0])).append("\",status=\"").append(p[1]).append("\"} ")
                    .append(v.sum()).append('\n');
        });
        return sb.toString();
    }

    private static void gauge(StringBuilder sb, String name, String help, long value) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
        sb.append("# TYPE ").append(name).append(" gauge\n");
        sb.append(name).append(' ').append(value).append('\n');
    }

    private static Map<String, Long> collect(Map<Key, LongAdder> m) {
        Map<String, Long> out = new TreeMap<>();
        m.forEach((k, v) -> out.put("{method=\"" + esc(k.method()) + "\",backend=\"" + esc(k.backend()) + "\",status=\""
                + k.status() + "\"}", v.sum()));
        return out;
    }

    private static String esc(String s) {
        return s == null ? "" : s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String num(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) + ".0" : String.format(Locale.ROOT, "%s", d);
    }
}
