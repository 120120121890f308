package dev.gamagent.local;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A bounded least-recently-used cache of what the model perceives per image (content hash, width,
 * height), so the many calls of one debate perceive each image once. Thread-safe; a sight computes its
 * instruments lazily and only once, so concurrent requests for one image share the work.
 */
public final class PerceptionCache {
    /** An image by content ({@link PixelKeys}: a hash of its pixels, with the look's scale when not 1) and size. */
    public record Key(String content, int width, int height) { }

    private final int capacity;
    private final Map<Key, Sight> entries;
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();

    public PerceptionCache(int capacity) {
        if (capacity < 1) throw new IllegalArgumentException("perception cache capacity must be ≥ 1, got " + capacity);
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override protected boolean removeEldestEntry(Map.Entry<Key, Sight> e) {
                return size() > PerceptionCache.this.capacity;
            }
        };
    }

    public Sight get(Key key, Supplier<Sight> create) {
        synchronized (entries) {
            Sight s = entries.get(key);
            if (s != null) {
                hits.incrementAndGet();
                return s;
            }
            misses.incrementAndGet();
            s = create.get(); // cheap: the instruments run later, on first use
            entries.put(key, s);
            return s;
        }
    }

    /** The sight already cached for {@code key}, or null; counts neither a hit nor a miss and creates nothing. */
    public Sight peek(Key key) {
        synchronized (entries) { return entries.get(key); }
    }

    public long hits() { return hits.get(); }

    public long misses() { return misses.get(); }

    public int size() {
        synchronized (entries) { return entries.size(); }
    }
}
