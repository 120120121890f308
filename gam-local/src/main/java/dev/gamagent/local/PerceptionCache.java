package dev.gamagent.local;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A bounded least-recently-used cache of perception results per (image content hash, width, height),
 * so the many calls of one debate perceive each image once. Thread-safe; concurrent requests for the
 * same key wait for one computation instead of repeating it.
 */
public final class PerceptionCache {
    /** An image by content and size. */
    public record Key(String sha256, int width, int height) { }

    private final int capacity;
    private final Map<Key, CompletableFuture<Perception>> entries;
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();

    public PerceptionCache(int capacity) {
        if (capacity < 1) throw new IllegalArgumentException("perception cache capacity must be ≥ 1, got " + capacity);
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override protected boolean removeEldestEntry(Map.Entry<Key, CompletableFuture<Perception>> e) {
                return size() > PerceptionCache.this.capacity;
            }
        };
    }

    public Perception get(Key key, Supplier<Perception> compute) {
        CompletableFuture<Perception> f;
        boolean mine = false;
        synchronized (entries) {
            f = entries.get(key);
            if (f == null) {
                f = new CompletableFuture<>();
                entries.put(key, f);
                mine = true;
            }
        }
        if (mine) {
            misses.incrementAndGet();
            try {
                f.complete(compute.get());
            } catch (RuntimeException | Error e) {
                synchronized (entries) { entries.remove(key, f); }
                f.completeExceptionally(e);
                throw e;
            }
        } else {
            hits.incrementAndGet();
        }
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException re) throw re;
            throw e;
        }
    }

    public long hits() { return hits.get(); }

    public long misses() { return misses.get(); }

    public int size() {
        synchronized (entries) { return entries.size(); }
    }
}
