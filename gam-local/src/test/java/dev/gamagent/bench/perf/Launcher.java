package dev.gamagent.bench.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Command lines for child JVMs running the shaded jar, with the JDK and flags the {@code ./gam} launcher would use: the
 * serial collector, or {@code gam-cli/jvm/eval.options} for {@code eval}; the launcher's ahead-of-time cache
 * ({@code gam.aot} beside the jar, Java 25+) when it is there and not older than the jar, unless {@code aot} is false.
 */
record Launcher(Path java, Path jar, int javaVersion, boolean aot) {
    /** The launcher's choice: Temurin 25 or 21 when installed, else {@code java} on the PATH. */
    static Launcher find(Path jar) throws IOException {
        Path java = Path.of("java");
        for (String j : List.of("/usr/lib/jvm/temurin-25-jdk-amd64", "/usr/lib/jvm/temurin-21-jdk-amd64")) {
            Path bin = Path.of(j, "bin", "java");
            if (Files.isExecutable(bin)) { java = bin; break; }
        }
        if (!Files.isRegularFile(jar)) throw new IllegalArgumentException(jar + " is missing; run `mvn -B -DskipTests package` first");
        return new Launcher(java, jar, version(java), true);
    }

    /** The same without the ahead-of-time cache (a fresh process as before the launcher made one). */
    Launcher withoutAot() { return new Launcher(java, jar, javaVersion, false); }

    /** The cache the launcher made for this jar, if it is there and current. */
    Path aotCache() throws IOException {
        Path cache = jar.resolveSibling("gam.aot");
        return Files.isRegularFile(cache) && !Files.getLastModifiedTime(jar).toInstant().isAfter(Files.getLastModifiedTime(cache).toInstant())
                ? cache : null;
    }

    private static int version(Path javaBin) throws IOException {
        Process p = new ProcessBuilder(javaBin.toString(), "-version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        var m = Pattern.compile("version \"(\\d+)").matcher(out);
        return m.find() ? Integer.parseInt(m.group(1)) : 17;
    }

    List<String> gam(String... args) { return gam(List.of(), args); }

    /** {@code java [jvmOptions] -jar gam.jar args}, with the launcher's own options (headless, collector, AOT cache). */
    List<String> gam(List<String> jvmOptions, String... args) {
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Djava.awt.headless=true"));
        if (jvmOptions.stream().anyMatch(o -> o.matches("-XX:\\+Use[A-Za-z]+GC"))) {
            // the caller's collector wins, as in the launcher
        } else if (args.length > 0 && args[0].equals("eval")) {
            cmd.addAll(evalOptions());
        } else {
            cmd.add("-XX:+UseSerialGC");
        }
        if (javaVersion >= 22) cmd.add("--enable-native-access=ALL-UNNAMED");
        try {
            Path cache = aot && javaVersion >= 25 ? aotCache() : null;
            if (cache != null) cmd.add("-XX:AOTCache=" + cache);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-jar", jar.toString()));
        cmd.addAll(Arrays.asList(args));
        return cmd;
    }

    /** {@code gam-cli/jvm/eval.options} (beside the jar's module): one option a line, # comments. */
    private List<String> evalOptions() {
        Path file = jar.toAbsolutePath().getParent().getParent().resolve("jvm/eval.options");
        try {
            return Files.readAllLines(file).stream().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read the launcher's eval options " + file, e);
        }
    }
}
