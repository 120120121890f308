package dev.gamagent.bench.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/** Command lines for child JVMs running the shaded jar, with the JDK and flags the {@code ./gam} launcher would use. */
record Launcher(Path java, Path jar, int javaVersion) {
    /** The launcher's choice: Temurin 25 or 21 when installed, else {@code java} on the PATH. */
    static Launcher find(Path jar) throws IOException {
        Path java = Path.of("java");
        for (String j : List.of("/usr/lib/jvm/temurin-25-jdk-amd64", "/usr/lib/jvm/temurin-21-jdk-amd64")) {
            Path bin = Path.of(j, "bin", "java");
            if (Files.isExecutable(bin)) { java = bin; break; }
        }
        if (!Files.isRegularFile(jar)) throw new IllegalArgumentException(jar + " is missing; run `mvn -B -DskipTests package` first");
        return new Launcher(java, jar, version(java));
    }

    private static int version(Path javaBin) throws IOException {
        Process p = new ProcessBuilder(javaBin.toString(), "-version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        var m = Pattern.compile("version \"(\\d+)").matcher(out);
        return m.find() ? Integer.parseInt(m.group(1)) : 17;
    }

    List<String> gam(String... args) { return gam(List.of(), args); }

    /** {@code java [jvmOptions] -jar gam.jar args}, with the launcher's own options (headless, SerialGC). */
    List<String> gam(List<String> jvmOptions, String... args) {
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Djava.awt.headless=true", "-XX:+UseSerialGC"));
        if (javaVersion >= 22) cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-jar", jar.toString()));
        cmd.addAll(Arrays.asList(args));
        return cmd;
    }
}
