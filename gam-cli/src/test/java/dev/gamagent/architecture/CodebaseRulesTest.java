package dev.gamagent.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29: what keeps the code livable — every file it cites is in the repository, no two package names differ by
 * one letter, no main source file is longer than 450 lines.
 */
class CodebaseRulesTest {
    static final Path ROOT = PackageCyclesTest.ROOT;
    /** A cited document: a bare name, a path in the repository, or a path outside it (climbing out, absolute). */
    private static final Pattern DOC = Pattern.compile("(?<![\\w/.:-])((?:\\.\\./|/)*(?:[\\w.-]+/)*[A-Za-z][\\w-]*\\.md)\\b");
    /** Where a comment names a file the code writes: under target/, or under a placeholder such as DIR/ or OUT/. */
    private static final Pattern OUTPUT = Pattern.compile("target/|[A-Z]+/");
    private static final Pattern COMMENT = Pattern.compile("//[^\\n]*|/\\*(?s:.*?)\\*/");
    static final int MAX_LINES = 450;

    @Test void everyDocumentTheCodeCitesIsInTheRepository() {
        List<String> missing = new ArrayList<>();
        for (Path f : sources("src/main/java", "src/test/java")) {
            StringBuilder comments = new StringBuilder(); // citations are in comments; a string literal names a file the code writes
            Matcher c = COMMENT.matcher(read(f));
            while (c.find()) comments.append(c.group()).append('\n');
            Matcher m = DOC.matcher(comments);
            while (m.find()) {
                String cited = m.group(1);
                if (OUTPUT.matcher(cited).lookingAt()) continue; // a file the code writes (target/…, DIR/…), not a citation
                // a path must be one inside the repository (not absolute, not climbing out of it); a URL is not a citation
                Path root = ROOT.toAbsolutePath().normalize();
                Path p = cited.contains("/") ? root.resolve(cited).normalize() : null;
                if (p != null && (cited.startsWith("/") || !p.startsWith(root))) p = null;
                boolean found = cited.contains("/") ? p != null && Files.isRegularFile(p) : Files.isRegularFile(ROOT.resolve(cited)) || Files.isRegularFile(ROOT.resolve("docs").resolve(cited))
                        || Files.isRegularFile(ROOT.resolve("bench").resolve(cited));
                if (!found) missing.add(ROOT.relativize(f) + " cites " + cited);
            }
        }
        assertThat(missing).as("citations of files the repository does not hold").isEmpty();
    }

    @Test void noTwoPackagesHaveNamesOneLetterApart() {
        TreeSet<String> names = new TreeSet<>();
        for (Path f : sources("src/main/java")) {
            Path dir = f.getParent();
            names.add(dir.getFileName().toString());
        }
        List<String> close = new ArrayList<>();
        List<String> all = new ArrayList<>(names);
        for (int i = 0; i < all.size(); i++) {
            for (int j = i + 1; j < all.size(); j++) {
                if (distance(all.get(i), all.get(j)) <= 1) close.add(all.get(i) + " / " + all.get(j));
            }
        }
        assertThat(close).as("package names a reader can confuse").isEmpty();
    }

    @Test void noMainSourceFileIsLongerThan450Lines() {
        List<String> long_ = new ArrayList<>();
        for (Path f : sources("src/main/java")) {
            long n = read(f).lines().count();
            if (n > MAX_LINES) long_.add(ROOT.relativize(f) + ": " + n + " lines");
        }
        assertThat(long_).as("main source files over " + MAX_LINES + " lines (split them by job)").isEmpty();
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1], cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            }
            int[] t = prev; prev = cur; cur = t;
        }
        return prev[b.length()];
    }

    /** The .java files under {@code roots} (e.g. src/main/java) of every module. */
    static List<Path> sources(String... roots) {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path m : modules.filter(p -> Files.isRegularFile(p.resolve("pom.xml")) && p.getFileName().toString().startsWith("gam-")).toList()) {
                for (String r : roots) {
                    Path base = m.resolve(r);
                    if (!Files.isDirectory(base)) continue;
                    try (Stream<Path> s = Files.walk(base)) {
                        s.filter(p -> p.toString().endsWith(".java")).forEach(out::add);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(out).as("sources found under " + ROOT.toAbsolutePath()).isNotEmpty();
        return out;
    }

    static String read(Path f) {
        try {
            return Files.readString(f, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
