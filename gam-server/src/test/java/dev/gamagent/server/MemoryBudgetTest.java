package dev.gamagent.server;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 38, item 3: admission by bytes. A reservation that fits is granted at once; one that does not waits its turn
 * (first come, first served) until bytes are given back, or is refused with 503 saying memory when its wait is over; a
 * request larger than the whole budget runs alone; requests that hold a body's bytes and want more for their images
 * cannot block each other; a remote image that does not fit is refused at once.
 */
class MemoryBudgetTest {
    private static final long MB = 1 << 20;

    private static MemoryBudget budget(long bytes) {
        return new MemoryBudget(bytes, 4 * bytes, Duration.ofSeconds(1), 8, 5);
    }

    private static long in(double seconds) { return System.nanoTime() + (long) (seconds * 1e9); }

    private static void until(BooleanSupplier what) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!what.getAsBoolean()) {
            if (System.nanoTime() > end) throw new AssertionError("never happened");
            Thread.sleep(5);
        }
    }

    @Test void aReservationThatFitsIsGrantedAtOnceAndGivenBackOnClose() {
        MemoryBudget b = budget(100 * MB);
        try (MemoryBudget.Reservation r = b.reservation()) {
            r.admit(60 * MB, "a body", in(0));
            assertThat(b.reserved()).isEqualTo(60 * MB);
            r.settle(20 * MB, "its images", in(0));
            assertThat(b.reserved()).as("settling to less gives the rest back").isEqualTo(20 * MB);
        }
        assertThat(b.reserved()).isZero();
    }

    @Test void aReservationThatDoesNotFitWaitsUntilBytesAreGivenBack() throws Exception {
        MemoryBudget b = budget(100 * MB);
        MemoryBudget.Reservation first = b.reservation();
        first.admit(80 * MB, "the first body", in(0));
        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> b.reservation().admit(50 * MB, "the second body", in(30)));
        until(() -> b.waiting() == 1);
        assertThat(second).isNotDone();
        first.close();
        second.get(30, TimeUnit.SECONDS);
        assertThat(b.reserved()).isEqualTo(50 * MB);
    }

    @Test void aWaitPastItsDeadlineIs503SayingMemoryAndWhatToDo() {
        MemoryBudget b = budget(100 * MB);
        b.reservation().admit(80 * MB, "a body", in(0));
        assertThatThrownBy(() -> b.reservation().admit(50 * MB, "this request's body of 5.0 MB", in(0.2)))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.code()).isEqualTo("server_out_of_memory");
                    assertThat(e.retryAfterSeconds()).isEqualTo(5);
                    assertThat(e.getMessage()).contains("not enough memory for this request's body of 5.0 MB", "50.0 MB", "80.0 MB",
                            "100.0 MB", "server.request_memory_fraction", "server.queue_timeout_s", "-Xmx");
                });
        assertThat(b.refused()).isEqualTo(1);
        assertThat(b.waiting()).isZero();
    }

    @Test void waitersAreServedInOrderOfArrival() throws Exception {
        MemoryBudget b = budget(100 * MB);
        MemoryBudget.Reservation holder = b.reservation();
        holder.admit(100 * MB, "a body", in(0));
        List<String> order = new CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch bigDone = new java.util.concurrent.CountDownLatch(1);
        // big and small cannot be admitted together (96 + 5 > 100): whichever is admitted first holds its bytes
        // until the test lets it go, so the order they are recorded in is the order they were admitted in
        CompletableFuture<Void> big = CompletableFuture.runAsync(() -> {
            try (MemoryBudget.Reservation r = b.reservation()) {
                r.admit(96 * MB, "big", in(30));
                order.add("big");
                bigDone.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        until(() -> b.waiting() == 1);
        CompletableFuture<Void> small = CompletableFuture.runAsync(() -> {
            try (MemoryBudget.Reservation r = b.reservation()) {
                r.admit(5 * MB, "small", in(30));
                order.add("small");
            }
        });
        until(() -> b.waiting() == 2);
        holder.close();
        until(() -> !order.isEmpty());
        assertThat(order).as("the small one does not pass the big one that came first").containsExactly("big");
        assertThat(b.waiting()).as("the small one waits while the big one holds its bytes").isEqualTo(1);
        bigDone.countDown();
        big.get(30, TimeUnit.SECONDS);
        small.get(30, TimeUnit.SECONDS);
        assertThat(order).containsExactly("big", "small");
    }

    @Test void aRequestLargerThanTheWholeBudgetRunsAloneOnceTheOthersAreDone() throws Exception {
        MemoryBudget b = budget(100 * MB);
        MemoryBudget.Reservation other = b.reservation();
        other.admit(10 * MB, "another body", in(0));
        CompletableFuture<Void> huge = CompletableFuture.runAsync(() -> b.reservation().admit(300 * MB, "a huge body", in(30)));
        until(() -> b.waiting() == 1);
        assertThat(huge).isNotDone();
        other.close();
        huge.get(30, TimeUnit.SECONDS);
        assertThat(b.reserved()).isEqualTo(300 * MB);
    }

    @Test void requestsThatHoldTheirBodiesAndWantMoreForTheirImagesCannotBlockEachOther() throws Exception {
        MemoryBudget b = budget(100 * MB);
        MemoryBudget.Reservation one = b.reservation(), two = b.reservation();
        one.admit(50 * MB, "body one", in(0));
        two.admit(50 * MB, "body two", in(0));
        // each now wants 80: holding its 50 while waiting, neither could ever have it
        CompletableFuture<Void> a = CompletableFuture.runAsync(() -> one.settle(80 * MB, "images one", in(30)));
        CompletableFuture<Void> c = CompletableFuture.runAsync(() -> two.settle(80 * MB, "images two", in(30)));
        CompletableFuture.anyOf(a, c).get(30, TimeUnit.SECONDS);
        MemoryBudget.Reservation first = a.isDone() ? one : two;
        CompletableFuture<Void> later = a.isDone() ? c : a;
        assertThat(b.reserved()).isEqualTo(80 * MB);
        first.close();
        later.get(30, TimeUnit.SECONDS);
        assertThat(b.reserved()).isEqualTo(80 * MB);
    }

    @Test void requestsSettlingTheirImagesGoBeforeNewBodies() throws Exception {
        MemoryBudget b = budget(100 * MB);
        MemoryBudget.Reservation holder = b.reservation(), settling = b.reservation();
        holder.admit(60 * MB, "a request in flight", in(0));
        settling.admit(40 * MB, "a body being parsed", in(0));
        CompletableFuture<Void> newBody = CompletableFuture.runAsync(() -> b.reservation().admit(40 * MB, "a new body", in(30)));
        until(() -> b.waiting() == 1);
        CompletableFuture<Void> images = CompletableFuture.runAsync(() -> settling.settle(70 * MB, "its images", in(30)));
        until(() -> b.waiting() == 2);
        holder.close();
        images.get(30, TimeUnit.SECONDS);
        assertThat(newBody).as("the new body waits while the images take what was given back").isNotDone();
        settling.close();
        newBody.get(30, TimeUnit.SECONDS);
    }

    @Test void aRemoteImageThatDoesNotFitIsRefusedAtOnce() {
        MemoryBudget b = budget(100 * MB);
        b.reservation().admit(90 * MB, "a body", in(0));
        MemoryBudget.Reservation r = b.reservation();
        r.grow(5 * MB, "image URL http://images.example/a.png");
        assertThatThrownBy(() -> r.grow(10 * MB, "image URL http://images.example/a.png"))
                .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo("server_out_of_memory"))
                .hasMessageContaining("image URL http://images.example/a.png");
        assertThat(r.held()).isEqualTo(5 * MB);
    }

    @Test void pastTheLimitOfWaitingBodiesANewOneIsRefusedAtOnce() throws Exception {
        MemoryBudget b = new MemoryBudget(100 * MB, 400 * MB, Duration.ofSeconds(1), 1, 5);
        MemoryBudget.Reservation holder = b.reservation();
        holder.admit(100 * MB, "a body", in(0));
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> b.reservation().admit(10 * MB, "a waiting body", in(30)));
        until(() -> b.waiting() == 1);
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> b.reservation().admit(10 * MB, "one more body", in(30))).hasMessageContaining("1 requests already wait for memory");
        assertThat(System.nanoTime() - t0).as("refused without waiting").isLessThan(TimeUnit.SECONDS.toNanos(20));
        holder.close();
        waiting.get(30, TimeUnit.SECONDS);
    }
}
