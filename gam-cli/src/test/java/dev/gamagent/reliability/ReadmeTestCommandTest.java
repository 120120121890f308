package dev.gamagent.reliability;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13, item 9: the README's two set-up commands are all a fresh machine needs. The test command is a
 * script in the repository that installs what Maven cannot fetch (Debian's chromium for the browser tests)
 * and then runs the build; CI runs exactly that command. The script is run here against stub apt-get and
 * mvn commands on a machine "without" chromium, so its install-then-verify order is checked for real.
 */
class ReadmeTestCommandTest {
    @TempDir Path dir;

    /** The commands of the README's "On a fresh machine" block, without their comments. */
    static List<String> freshMachineCommands() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        Matcher m = Pattern.compile("## On a fresh machine.*?```bash\\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertThat(m.find()).as("README.md has an 'On a fresh machine' bash block").isTrue();
        return m.group(1).lines().map(l -> l.replaceAll("#.*", "").strip()).filter(l -> !l.isEmpty()).toList();
    }

    @Test void theReadmesCommandsAreScriptsInTheRepositoryAndCiRunsExactlyTheTestCommand() throws Exception {
        List<String> commands = freshMachineCommands();
        assertThat(commands).hasSize(2);
        String testCommand = commands.get(1);
        assertThat(testCommand).as("the test command is the repository's script, which installs what the tests need")
                .isEqualTo("./test");
        for (String c : commands) {
            Path script = Path.of(c.split(" ")[0]);
            assertThat(Files.isExecutable(script)).as(c + " is an executable file in the repository").isTrue();
        }
        List<String> ci = Files.readAllLines(Path.of(".ci/run")).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#") && !l.startsWith("set ") && !l.startsWith("cd ")).toList();
        assertThat(ci).as(".ci/run runs the README's test command and nothing else").containsExactly("exec " + testCommand);
    }

    @Test void theTestScriptInstallsChromiumWhenMissingAndThenRunsMavenVerify() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path log = dir.resolve("calls.log");
        for (String tool : List.of("apt-get", "mvn", "sudo")) {
            Path stub = bin.resolve(tool);
            Files.writeString(stub, "#!/bin/sh\necho \"" + tool + " $*\" >> '" + log + "'\n" + (tool.equals("sudo") ? "exec \"$@\"\n" : ""));
            Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        ProcessBuilder pb = new ProcessBuilder("bash", Path.of("test").toAbsolutePath().toString()).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("CHROMIUM_CANDIDATES", dir.resolve("no-chromium-here").toString());
        pb.environment().remove("CHROMIUM");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("installing Debian packages the tests need: chromium");
        List<String> calls = Files.readAllLines(log).stream().map(l -> l.startsWith("sudo ") ? l.substring(5) : l)
                .filter(l -> !l.startsWith("sudo")).toList();
        assertThat(calls).containsSubsequence("apt-get update -qq", "apt-get install -y -qq chromium", "mvn -B -T 1C verify");
        assertThat(calls.get(calls.size() - 1)).isEqualTo("mvn -B -T 1C verify");
    }
}
