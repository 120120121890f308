package dev.gamagent.eval.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The commit of the git checkout gam runs from (the launcher runs {@code gam-cli/target/gam.jar} inside it), read from
 * its {@code .git} files without running git: {@code HEAD}, the branch it names (loose or packed), a worktree's common
 * directory. Null when gam does not run from a checkout (an installed jar). It is the checkout's HEAD: a jar built
 * before the last commit or from uncommitted changes is not told apart.
 */
public final class CheckoutCommit {
    private CheckoutCommit() { }

    /** The commit of the checkout holding {@code start} (a file or directory), or null. */
    public static String of(Path start) {
        for (Path p = start == null ? null : start.toAbsolutePath(); p != null; p = p.getParent()) {
            Path git = p.resolve(".git");
            try {
                if (Files.isDirectory(git)) return headOf(git, git);
                if (Files.isRegularFile(git)) {
                    String line = Files.readString(git, StandardCharsets.UTF_8).trim();
                    if (!line.startsWith("gitdir:")) return null;
                    Path dir = p.resolve(line.substring("gitdir:".length()).trim());
                    Path common = Files.isRegularFile(dir.resolve("commondir"))
                            ? dir.resolve(Files.readString(dir.resolve("commondir"), StandardCharsets.UTF_8).trim()).normalize() : dir;
                    return headOf(dir, common);
                }
            } catch (IOException | RuntimeException unreadable) {
                return null;
            }
        }
        return null;
    }

    /** The commit of the checkout gam's classes were loaded from, or null. */
    public static String ofGam() {
        try {
            var src = CheckoutCommit.class.getProtectionDomain().getCodeSource();
            return src == null ? null : of(Path.of(src.getLocation().toURI()));
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    private static String headOf(Path dir, Path common) throws IOException {
        String head = Files.readString(dir.resolve("HEAD"), StandardCharsets.UTF_8).trim();
        if (!head.startsWith("ref:")) return hex(head);
        String ref = head.substring("ref:".length()).trim();
        for (Path d : List.of(dir, common)) {
            Path loose = d.resolve(ref);
            if (Files.isRegularFile(loose)) return hex(Files.readString(loose, StandardCharsets.UTF_8).trim());
        }
        Path packed = common.resolve("packed-refs");
        if (Files.isRegularFile(packed)) {
            for (String line : Files.readAllLines(packed, StandardCharsets.UTF_8)) {
                if (line.endsWith(" " + ref)) return hex(line.substring(0, line.indexOf(' ')));
            }
        }
        return null;
    }

    private static String hex(String s) { return s.matches("[0-9a-f]{40}([0-9a-f]{24})?") ? s : null; }
}
