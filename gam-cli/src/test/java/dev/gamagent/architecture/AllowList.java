package dev.gamagent.architecture;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;

/**
 * A ratchet for an architecture rule that main code does not meet yet: {@code architecture/<name>} on the test class
 * path lists what still breaks it, one item a line ({@code #} starts a comment). The rule's test fails on anything new and
 * on a listed item that no longer breaks it, so a list only shrinks. A missing file is an empty list.
 */
final class AllowList {
    private AllowList() { }

    static Set<String> read(String name) {
        Set<String> out = new TreeSet<>();
        try (InputStream in = AllowList.class.getResourceAsStream("/architecture/" + name)) {
            if (in == null) return out;
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String item = line.replaceFirst("#.*", "").strip();
                if (!item.isEmpty()) out.add(item);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read architecture/" + name, e);
        }
        return out;
    }
}
