package dev.gamagent.cli;

import dev.gamagent.testing.CliProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 38, item 7: a video's file name is never read by ffprobe or ffmpeg as an option. {@code gam ask --video=-report}
 * in a directory holding a file called {@code -report} made ffprobe take it for its {@code -report} option and write
 * {@code ffprobe-<date>.log} into the working directory. The real {@code gam ask} in a child JVM whose working directory
 * is a fresh one, with the real ffprobe and ffmpeg on PATH.
 */
class VideoArgumentInjectionTest {
    @TempDir Path cwd;

    @Test void aVideoNamedLikeAnOptionIsReadAsAFileAndNoToolWritesALog() throws Exception {
        Files.writeString(cwd.resolve("-report"), "not a video, just text that ffprobe will refuse\n");
        Files.writeString(cwd.resolve("-y"), "not a video either\n");
        List<String> names = List.of("-report", "-y");
        // both command lines in one child, one after the other ("::"), each with its own exit code written to a file: one
        // JVM start instead of two (1.8 s of CPU), the same command lines, exit codes, error lines and working directory
        Path codes = cwd.resolve("codes.txt");
        List<String> cmd = CliProcess.javaCommand(CliProcess.class.getName());
        cmd.add(1, "-D" + CliProcess.CODES + "=" + codes);
        for (String name : names) {
            if (!name.equals(names.get(0))) cmd.add("::");
            cmd.addAll(List.of("ask", "--video=" + name, "--question", "What happens?"));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile())
                .redirectOutput(cwd.resolve("out.txt").toFile()).redirectError(cwd.resolve("err.txt").toFile());
        pb.environment().put("XDG_CACHE_HOME", cwd.resolve("cache").toString());
        pb.environment().put("PATH", "/usr/bin:/bin:" + System.getenv("PATH"));
        Process p = pb.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("gam ask finished").isTrue();
        String err = Files.readString(cwd.resolve("err.txt"), StandardCharsets.UTF_8);
        assertThat(Files.readAllLines(codes)).as(err).containsExactly("1", "1");
        try (Stream<Path> s = Files.list(cwd)) {
            assertThat(s.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".log")).toList())
                    .as("ffprobe wrote no report log into the working directory").isEmpty();
        }
        List<String> errors = err.strip().lines().filter(l -> l.startsWith("error:")).toList();
        assertThat(errors).as(err).hasSameSizeAs(names);
        for (int i = 0; i < names.size(); i++) {
            assertThat(errors.get(i)).as(err).startsWith("error: " + names.get(i) + ": ffprobe cannot read it as a video")
                    .contains(cwd.toRealPath().resolve(names.get(i)) + ": Invalid data found when processing input");
        }
    }
}
