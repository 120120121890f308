package dev.gamagent.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the reliability suite's results into {@code docs/reliability.md} when {@code ./test reliability}
 * asks for it (system property {@code gam.reliability.write}): the text between {@code <!-- name -->} and
 * {@code <!-- /name -->} is replaced. Without the property nothing is written. A module's tests run in several JVMs at
 * once (the build's {@code gam.test.forks}), so each replacement holds a file lock (in the temporary directory, named for the
 * report) while it reads and writes it.
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
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(Path.of(System.getProperty("java.io.tmpdir"),
                "gam-reliability-report-" + Integer.toHexString(doc.toAbsolutePath().normalize().hashCode()) + ".lock"),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
             java.nio.channels.FileLock lock = ch.lock()) {
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
