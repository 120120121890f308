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
}
