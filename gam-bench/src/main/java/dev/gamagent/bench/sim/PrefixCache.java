package dev.gamagent.bench.sim;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulator's automatic prefix cache, modelled on vLLM's (its design document, https://docs.vllm.ai/en/latest/design/prefix_caching/,
 * and vllm/v1/core/kv_cache_utils.py of vllm-project/vllm; docs/performance.md, "What the server computes: the prefix cache"):
 * <ul>
 *   <li>a prompt is a sequence of tokens cut into blocks of {@code blockSize}; only full blocks are cached;</li>
 *   <li>a block's hash covers its parent block's hash, its own tokens and the content hashes of the images whose
 *       placeholder tokens it holds (vLLM's multimodal "extra keys"), so one different token or image changes the hash of
 *       its block and of every block after it;</li>
 *   <li>a request is served the longest run of cached blocks from its start, at most {@code (promptTokens − 1) / blockSize}
 *       blocks: the last prompt token is always computed, for its logits (vLLM's {@code max_cache_hit_length});</li>
 *   <li>a request's new blocks enter the cache when its prefill finishes ({@link #prefilled}), so a request admitted while
 *       an identical one is still prefilling computes the same blocks again;</li>
 *   <li>the cache holds at most {@code capacityTokens / blockSize} blocks; blocks held by running requests are not
 *       evictable; a finished request's blocks become free, its last block first in line for eviction (vLLM frees a
 *       request's blocks in reverse order), and a new block evicts the least recently used free block. With no free block
 *       to evict, a new block is computed but not cached.</li>
 * </ul>
 * Thread-safe: every method holds the cache's lock.
 */
final class PrefixCache {
    private final int blockSize;
    private final long capacityBlocks;
    private final Map<Long, Block> blocks = new HashMap<>();
    /** Blocks no running request holds, least recently used first: the eviction order. */
    private final LinkedHashMap<Long, Block> free = new LinkedHashMap<>();
    private long evicted;

    private static final class Block {
        final long hash;
        int refs;

        Block(long hash) { this.hash = hash; }
    }

    /** One request's use of the cache, from its admission to its end. */
    final class Admission {
        private final long[] hashes;
        private final int hitBlocks;
        private final List<Block> held = new ArrayList<>();
        private boolean prefilled, released;

        private Admission(long[] hashes, int hitBlocks) {
            this.hashes = hashes;
            this.hitBlocks = hitBlocks;
        }

        /** Prompt tokens served from the cache. */
        long cachedTokens() { return (long) hitBlocks * blockSize; }
    }

    PrefixCache(long capacityTokens, int blockSize) {
        if (blockSize < 1) throw new IllegalArgumentException("--block-size " + blockSize + ": a block holds at least one token");
        if (capacityTokens < 0) throw new IllegalArgumentException("--prefix-cache-tokens " + capacityTokens + " must be ≥ 0");
        this.blockSize = blockSize;
        this.capacityBlocks = capacityTokens / blockSize;
    }

    int blockSize() { return blockSize; }

    /**
     * The chained hashes of the full blocks of {@code tokens}: block i's hash is SHA-256 of block i − 1's hash, block i's
     * token ids and the content hashes of the images overlapping block i ({@code images}: offset, length and hash of each
     * image's placeholder run), its first 8 bytes as a long.
     */
    static long[] blockHashes(long[] tokens, List<ImageSpan> images, int blockSize) {
        int full = tokens.length / blockSize;
        long[] out = new long[full];
        MessageDigest sha = sha256();
        ByteBuffer buf = ByteBuffer.allocate(8 * (1 + blockSize + images.size()));
        long parent = 0;
        for (int b = 0; b < full; b++) {
            int start = b * blockSize, end = start + blockSize;
            buf.clear();
            buf.putLong(parent);
            for (int i = start; i < end; i++) buf.putLong(tokens[i]);
            for (ImageSpan im : images) if (im.offset() < end && im.offset() + im.length() > start) buf.putLong(im.contentHash());
            sha.update(buf.array(), 0, buf.position());
            parent = ByteBuffer.wrap(sha.digest()).getLong();
            out[b] = parent;
        }
        return out;
    }

    /** An image's run of placeholder tokens in a prompt and the hash of its content. */
    record ImageSpan(long offset, long length, long contentHash) { }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    /** Looks up a request of {@code promptTokens} tokens whose full blocks hash to {@code hashes}, and holds its hits. */
    synchronized Admission admit(long[] hashes, long promptTokens) {
        int max = (int) Math.min(hashes.length, Math.max(0, promptTokens - 1) / blockSize);
        int hit = 0;
        while (hit < max && blocks.containsKey(hashes[hit])) hit++;
        Admission a = new Admission(hashes, hit);
        for (int i = 0; i < hit; i++) a.held.add(hold(blocks.get(hashes[i])));
        return a;
    }

    /** The request's prefill has finished: its full blocks past the hits enter the cache (once; later calls do nothing). */
    synchronized void prefilled(Admission a) {
        if (a.prefilled) return;
        a.prefilled = true;
        for (int i = a.hitBlocks; i < a.hashes.length; i++) {
            Block b = blocks.get(a.hashes[i]);
            if (b == null) {
                if (blocks.size() >= capacityBlocks && !evictOne()) return; // no room: computed, not cached (nor what follows)
                b = new Block(a.hashes[i]);
                blocks.put(b.hash, b);
            }
            a.held.add(hold(b));
        }
    }

    /** The request has ended: its blocks become free (evictable), its last block first. */
    synchronized void release(Admission a) {
        prefilled(a);
        if (a.released) return;
        a.released = true;
        for (int i = a.held.size() - 1; i >= 0; i--) {
            Block b = a.held.get(i);
            if (--b.refs == 0) free.put(b.hash, b);
        }
    }

    /** Empties the cache of every free block, as vLLM's {@code POST /reset_prefix_cache}; returns how many were dropped. */
    synchronized int clear() {
        int n = free.size();
        for (Long h : free.keySet()) blocks.remove(h);
        free.clear();
        return n;
    }

    private Block hold(Block b) {
        if (b.refs++ == 0) free.remove(b.hash);
        return b;
    }

    private boolean evictOne() {
        Iterator<Block> it = free.values().iterator();
        if (!it.hasNext()) return false;
        Block b = it.next();
        it.remove();
        blocks.remove(b.hash);
        evicted++;
        return true;
    }

    /** Blocks cached, of them free, evicted so far, and the capacity, for {@code /sim/stats}. */
    synchronized Map<String, Object> stats() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("block_size", blockSize);
        m.put("capacity_blocks", capacityBlocks);
        m.put("cached_blocks", blocks.size());
        m.put("free_blocks", free.size());
        m.put("evicted_blocks", evicted);
        return m;
    }
}
