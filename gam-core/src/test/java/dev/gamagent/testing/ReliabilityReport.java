package dev.gamagent.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the reliability suite's results into {@code docs/reliability.md} when {@code ./test reliability}
 * asks for it (system property {@code gam.reliability.write}): the text between {@code <!-- name -->} and
 * {@code <!-- /name -->} is replaced. Without the property nothing is written.
 */
public final class ReliabilityReport {
    private ReliabilityReport() { }

    public static boolean writing() {
        String t = System.getProperty("gam.reliability.write");
        return t != null && !t.isBlank();
    }

    public static synchronized void replace(String name, String text) {
        if (!writing()) return;
        Path doc = Path.of(System.getProperty("gam.reliability.write"));
        try {
            String all = Files.readString(doc);
            String open = "<!-- " + name + " -->", close = "<!-- /" + name + " -->";
            int a = all.indexOf(open), b = all.indexOf(close);
            if (a < 0 || b < a) throw new IllegalStateException(doc + " has no section " + open + " … " + close);
            Files.writeString(doc, all.substring(0, a + open.length()) + text + all.substring(b));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the reliability report " + doc, e);
        }
    }
}
