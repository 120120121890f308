package dev.gamagent.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;

/**
 * The reliability suite's two modes and its report. {@code mvn -B verify} runs the short mode;
 * {@code ./test reliability} sets {@code gam.reliability=full} (more kill points, 10^6 fuzz inputs) and
 * {@code gam.reliability.write=docs/reliability.md}, into which each part writes its table between
 * {@code <!-- name -->} and {@code <!-- /name -->}.
 */
final class Suite {
    private Suite() { }

    static boolean full() { return "full".equals(System.getProperty("gam.reliability")); }

    /** {@code shortValue} in the short mode, {@code fullValue} in the full one. */
    static int size(int shortValue, int fullValue) { return full() ? fullValue : shortValue; }

    /** Replaces the section {@code name} of the report with {@code markdown} when the report is being written. */
    static void report(String name, String markdown) {
        String target = System.getProperty("gam.reliability.write");
        if (target == null || target.isBlank()) return;
        Path doc = Path.of(target);
        try {
            String text = Files.readString(doc);
            String open = "<!-- " + name + " -->", close = "<!-- /" + name + " -->";
            int a = text.indexOf(open), b = text.indexOf(close);
            if (a < 0 || b < a) throw new IllegalStateException(doc + " has no section " + open + " … " + close);
            String body = "\n" + markdown.strip() + "\n\n_Written by `./test reliability` on " + LocalDate.now() + "._\n";
            Files.writeString(doc, text.substring(0, a + open.length()) + body + text.substring(b));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the reliability report " + doc, e);
        }
    }
}
