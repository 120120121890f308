package dev.gamagent.backend;

import dev.gamagent.backend.internal.HttpTransport;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Retry timing, Retry-After, status mapping and the concurrency limit. */
class ResilientBackendTest {
    @Test void backoffIsFullJitterUnderAnExponentialCeiling() {
        RetryPolicy p = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofMillis(1000), Duration.ofSeconds(10));
        assertThat(p.delay(1, null, 0.999)).isLessThanOrEqualTo(Duration.ofMillis(100));
        assertThat(p.delay(3, null, 0.999)).isBetween(Duration.ofMillis(390), Duration.ofMillis(400));
        assertThat(p.delay(10, null, 0.999)).isLessThanOrEqualTo(Duration.ofMillis(1000));
        assertThat(p.delay(3, null, 0.0)).isZero();
    }

    @Test void retryAfterIsHonouredButCapped() {
        RetryPolicy p = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofMillis(1000), Duration.ofSeconds(10));
        assertThat(p.delay(1, Duration.ofSeconds(3), 0.5)).isEqualTo(Duration.ofSeconds(3));
        assertThat(p.delay(1, Duration.ofSeconds(300), 0.5)).isEqualTo(Duration.ofSeconds(10));
    }

    @Test void retryAfterParsesSecondsAndHttpDates() {
        assertThat(HttpTransport.parseRetryAfter("7")).isEqualTo(Duration.ofSeconds(7));
        String inTenSeconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(10));
        assertThat(HttpTransport.parseRetryAfter(inTenSeconds)).isBetween(Duration.ofSeconds(8), Duration.ofSeconds(10));
        assertThat(HttpTransport.parseRetryAfter("soon")).isNull();
    }

    @Test void statusesMapToTypedErrors() {
        assertThat(HttpTransport.statusFailure("u", 408, "", Optional.empty())).isInstanceOf(BackendException.RateLimited.class);
        assertThat(HttpTransport.statusFailure("u", 409, "", Optional.empty())).isInstanceOf(BackendException.RateLimited.class);
        assertThat(HttpTransport.statusFailure("u", 429, "", Optional.of("2"))).isInstanceOfSatisfying(BackendException.RateLimited.class,
                e -> assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(2)));
        assertThat(HttpTransport.statusFailure("u", 502, "", Optional.empty())).isInstanceOf(BackendException.ServerUnavailable.class);
        assertThat(HttpTransport.statusFailure("u", 401, "", Optional.empty())).isInstanceOf(BackendException.Unauthorized.class);
        assertThat(HttpTransport.statusFailure("u", 422, "", Optional.empty())).isInstanceOf(BackendException.InvalidRequest.class);
    }

    @Test void everyRetryIsReportedWithItsCauseAndDelay() {
        AtomicInteger calls = new AtomicInteger();
        ScriptedBackend flaky = new ScriptedBackend("flaky", new Capabilities(true, false, 0, true, false, 0), r -> {
            if (calls.incrementAndGet() < 3) throw new BackendException.RateLimited("busy", 429, Duration.ofMillis(5));
            return ScriptedBackend.result("ok", List.of());
        });
        List<ResilientBackend.RetryEvent> events = new ArrayList<>();
        RetryPolicy p = new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(10), Duration.ofSeconds(1));
        try (Backend b = new ResilientBackend(flaky, p, 2, "http://x", events::add)) {
            assertThat(b.chat(BackendContractTest.question()).text()).isEqualTo("ok");
        }
        assertThat(events).extracting(ResilientBackend.RetryEvent::retry).containsExactly(1, 2);
        assertThat(events).allSatisfy(e -> assertThat(e.delay()).isEqualTo(Duration.ofMillis(5)));
    }

    @Test void aNonRetryableErrorIsThrownAtOnce() {
        AtomicInteger calls = new AtomicInteger();
        ScriptedBackend bad = new ScriptedBackend("bad", new Capabilities(true, false, 0, true, false, 0), r -> {
            calls.incrementAndGet();
            throw new BackendException.InvalidRequest("no", 400, "");
        });
        try (Backend b = new ResilientBackend(bad, RetryPolicy.defaults(4), 2, "http://x")) {
            assertThatThrownBy(() -> b.chat(BackendContractTest.question())).isInstanceOf(BackendException.InvalidRequest.class);
        }
        assertThat(calls).hasValue(1);
    }

    @Test void noMoreThanMaxConcurrentRequestsAreInFlight() throws Exception {
        AtomicInteger inFlight = new AtomicInteger(), peak = new AtomicInteger();
        ScriptedBackend slow = new ScriptedBackend("slow", new Capabilities(true, false, 0, true, false, 0), r -> {
            peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try { Thread.sleep(20); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
            inFlight.decrementAndGet();
            return ScriptedBackend.result("ok", List.of());
        });
        ExecutorService ex = Executors.newFixedThreadPool(8);
        try (Backend b = new ResilientBackend(slow, RetryPolicy.defaults(0), 3, "http://x")) {
            List<java.util.concurrent.Future<ChatResult>> fs = new ArrayList<>();
            for (int i = 0; i < 16; i++) fs.add(ex.submit(() -> b.chat(BackendContractTest.question())));
            for (var f : fs) f.get();
        } finally {
            ex.shutdownNow();
        }
        assertThat(peak.get()).isBetween(1, 3);
    }

    private static final Capabilities CAPS = new Capabilities(true, false, 0, true, false, 0);

    /** Runs {@code n} calls of {@code b} on threads of their own; each outcome is its result text or its exception. */
    private static List<Object> parallel(Backend b, int n) throws Exception {
        ExecutorService ex = Executors.newFixedThreadPool(n);
        try {
            List<java.util.concurrent.Future<Object>> fs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                fs.add(ex.submit(() -> {
                    try {
                        return b.chat(BackendContractTest.question()).text();
                    } catch (BackendException e) {
                        return e;
                    }
                }));
            }
            List<Object> out = new ArrayList<>();
            for (var f : fs) out.add(f.get());
            return out;
        } finally {
            ex.shutdownNow();
        }
    }

    @Test void theFirstTriesOfAFreshBackendsParallelCallsGoTogether() throws Exception {
        // issue 25: the first round of a fresh process waited for one call's answer before sending the others
        var allThree = new java.util.concurrent.CountDownLatch(3);
        AtomicInteger inFlight = new AtomicInteger(), peak = new AtomicInteger();
        ScriptedBackend server = new ScriptedBackend("s", CAPS, r -> {
            peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            allThree.countDown();
            try {
                allThree.await(10, java.util.concurrent.TimeUnit.SECONDS); // answers once all three are in (or never were)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            inFlight.decrementAndGet();
            return ScriptedBackend.result("ok", List.of());
        });
        try (Backend b = new ResilientBackend(server, RetryPolicy.defaults(3), 8, "http://x")) {
            assertThat(parallel(b, 3)).containsExactly("ok", "ok", "ok");
        }
        assertThat(peak.get()).isEqualTo(3);
    }

    @Test void aDeadEndpointCostsOneCallsRetriesAndEveryCallFailsWithItsError() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        var firstTries = new java.util.concurrent.CountDownLatch(3);
        ScriptedBackend dead = new ScriptedBackend("dead", CAPS, r -> {
            if (calls.incrementAndGet() <= 3) {
                firstTries.countDown(); // the three calls are under way together before any fails
                try {
                    firstTries.await(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            throw new BackendException.ConnectionFailed("cannot connect to http://x", null);
        });
        RetryPolicy p = new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(1));
        List<ResilientBackend.RetryEvent> retries = java.util.Collections.synchronizedList(new ArrayList<>());
        try (Backend b = new ResilientBackend(dead, p, 8, "http://x", retries::add)) {
            List<Object> out = parallel(b, 3);
            assertThat(out).allSatisfy(o -> assertThat(o).isInstanceOf(BackendException.ConnectionFailed.class)
                    .hasFieldOrPropertyWithValue("message", "cannot connect to http://x"));
            // a call that starts after the verdict probes again, alone
            assertThatThrownBy(() -> b.chat(BackendContractTest.question())).isInstanceOf(BackendException.ConnectionFailed.class);
        }
        assertThat(retries).as("one call's retries, then one more call's").hasSize(8);
        assertThat(calls).as("each call's first try, then one call's retries; then the late call's try and retries").hasValue(3 + 4 + 5);
    }

    @Test void callsWaitingOnTheProbeRetryAtOnceWhenItGetsThrough() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        var firstTries = new java.util.concurrent.CountDownLatch(3);
        ScriptedBackend starting = new ScriptedBackend("starting", CAPS, r -> {
            if (calls.incrementAndGet() <= 3) {
                firstTries.countDown();
                try {
                    firstTries.await(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new BackendException.ServerUnavailable("loading", 503, null);
            }
            return ScriptedBackend.result("up", List.of());
        });
        RetryPolicy p = new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(1));
        List<ResilientBackend.RetryEvent> retries = java.util.Collections.synchronizedList(new ArrayList<>());
        try (Backend b = new ResilientBackend(starting, p, 8, "http://x", retries::add)) {
            assertThat(parallel(b, 3)).containsExactly("up", "up", "up");
        }
        assertThat(retries).as("only the probing call backs off").hasSize(1);
        assertThat(calls).hasValue(6);
    }
}
