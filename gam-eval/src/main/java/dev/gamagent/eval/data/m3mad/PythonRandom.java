package dev.gamagent.eval.data.m3mad;

import java.util.List;

/**
 * CPython's {@code random} module as far as M3MAD-Bench's sampling uses it: {@code random.seed(n)} for a
 * non-negative int (the Mersenne Twister MT19937 seeded by {@code init_by_array} with the 32-bit words of
 * {@code n}), {@code getrandbits(k)} for {@code k <= 32}, and {@code random.shuffle(list)} (Fisher-Yates from
 * the end, each index drawn by {@code _randbelow}, which draws {@code bit_length(n)} bits until the draw is
 * below {@code n}). The same seed gives the same order as CPython 3 (checked in the tests against values
 * printed by CPython 3.11).
 */
public final class PythonRandom {
    private static final int N = 624, M = 397;
    private final int[] mt = new int[N];
    private int index;

    /** As {@code random.seed(seed)} in CPython. */
    public PythonRandom(long seed) {
        if (seed < 0) seed = -seed; // CPython seeds with abs(n)
        int[] key = seed >>> 32 == 0 ? new int[] {(int) seed} : new int[] {(int) seed, (int) (seed >>> 32)};
        initByArray(key);
    }

    private void initGenrand(int s) {
        mt[0] = s;
        for (int i = 1; i < N; i++) mt[i] = 1812433253 * (mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
        index = N;
    }

    private void initByArray(int[] key) {
        initGenrand(19650218);
        int i = 1, j = 0;
        for (int k = Math.max(N, key.length); k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1664525)) + key[j] + j;
            i++;
            j++;
            if (i >= N) {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if (j >= key.length) j = 0;
        }
        for (int k = N - 1; k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1566083941)) - i;
            i++;
            if (i >= N) {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x80000000;
        index = N;
    }

    /** The next 32 bits, as {@code genrand_uint32}. */
    int nextInt32() {
        if (index >= N) {
            for (int k = 0; k < N; k++) {
                int y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff);
                mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ ((y & 1) != 0 ? 0x9908b0df : 0);
            }
            index = 0;
        }
        int y = mt[index++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= y >>> 18;
        return y;
    }

    /** As {@code getrandbits(k)} for {@code 1 <= k <= 32}. */
    public long getrandbits(int k) {
        if (k < 1 || k > 32) throw new IllegalArgumentException("getrandbits(" + k + "): only 1 to 32 bits are supported");
        return Integer.toUnsignedLong(nextInt32()) >>> (32 - k);
    }

    /** As {@code _randbelow_with_getrandbits(n)}: a uniform draw from {@code [0, n)}. */
    public int randbelow(int n) {
        if (n <= 0) throw new IllegalArgumentException("randbelow(" + n + ")");
        int k = 32 - Integer.numberOfLeadingZeros(n); // n.bit_length()
        long r = getrandbits(k);
        while (r >= n) r = getrandbits(k);
        return (int) r;
    }

    /** As {@code random.shuffle(list)}: in place. */
    public <T> void shuffle(List<T> list) {
        for (int i = list.size() - 1; i > 0; i--) {
            int j = randbelow(i + 1);
            T t = list.get(i);
            list.set(i, list.get(j));
            list.set(j, t);
        }
    }
}
