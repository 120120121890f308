package dev.gamagent.testing;

import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs a fuzz property: {@code gam.fuzz.tries} inputs (500 in {@code mvn verify}; {@code ./test reliability}
 * raises it so the suite tries over 10^6), each drawn from its own seeded {@link Random}, so a failure names
 * the seed and index that reproduce it. Anything the property does not catch fails the test with the
 * input that caused it.
 */
public final class FuzzRun {
    private FuzzRun() { }

    /** How many inputs a property gets in this run. */
    public static int tries() { return Integer.getInteger("gam.fuzz.tries", 500); }

    /** Checks {@code property} on {@link #tries()} inputs from {@code generator}; returns how many were tried. */
    public static <T> int check(String name, Function<Random, T> generator, Consumer<T> property) {
        int tries = tries();
        long seed = Long.getLong("gam.fuzz.seed", System.nanoTime());
        for (int i = 0; i < tries; i++) {
            Random r = new Random(seed * 31 + i);
            T input = generator.apply(r);
            try {
                property.accept(input);
            } catch (Throwable t) {
                throw new AssertionError(name + ": input " + i + " escaped with " + t + " (reproduce with -Dgam.fuzz.seed=" + seed
                        + "); the input:\n" + describe(input), t);
            }
        }
        ReliabilityReport.replace("fuzz:" + name, String.format(java.util.Locale.ROOT, "%,d inputs, none escaped (seed %d, %s)", tries, seed,
                java.time.LocalDate.now()));
        return tries;
    }

    private static String describe(Object input) {
        String s = input instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.ISO_8859_1) : String.valueOf(input);
        return s.length() > 4000 ? s.substring(0, 4000) + "… (" + s.length() + " chars)" : s;
    }
}
