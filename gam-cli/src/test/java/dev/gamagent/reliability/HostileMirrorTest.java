package dev.gamagent.reliability;

import dev.gamagent.eval.data.FileServer;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.http.CountingListener;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 38, items 1, 2 and 6, as a user meets them: {@code gam data fetch PathVQA_VAL} (no published md5) against a
 * hostile mirror on 127.0.0.1 — a body that never ends (once wrote 10.75 GB in 60 s), a length of 1 TB, a trickle, and
 * redirects to the cloud's metadata address, another loopback address, the local network, a public host the catalogue
 * does not name and a spelling of 127.0.0.1 — and {@code gam data verify} on a copy edited under its old modification
 * time. The limit is 10 MB here, {@value #FULL_LIMIT_MB} MB in the full suite. The table goes to docs/reliability.md.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the table's rows in this order
class HostileMirrorTest {
    private static final int FULL_LIMIT_MB = 50;
    /** row → {result, message} */
    private static final Map<String, String[]> ROWS = new LinkedHashMap<>();
    @TempDir Path dir;

    @AfterAll static void report() {
        StringBuilder t = new StringBuilder("| hostile mirror (`gam data fetch PathVQA_VAL --data-mirror …`) | result | message |\n|---|---|---|\n");
        ROWS.forEach((k, v) -> t.append("| ").append(k).append(" | ").append(v[0]).append(" | ").append(v[1].replace("|", "\\|")).append(" |\n"));
        Suite.report("hostile-mirror", t.toString());
    }

    private List<String> dataDirectory(Path data) throws IOException {
        if (!Files.isDirectory(data)) return List.of();
        try (Stream<Path> s = Files.list(data)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** {@code gam data fetch PathVQA_VAL} from {@code mirror} into a fresh data directory, with {@code sets}; its one error line. */
    private String fetchFails(FileServer mirror, Path data, String... sets) {
        List<String> args = new ArrayList<>(List.of("data", "fetch", "PathVQA_VAL", "--data-dir", data.toString(), "--data-mirror", mirror.base()));
        for (String s : sets) args.addAll(List.of("--set", s));
        CommandRun r = CommandRun.main(args.toArray(String[]::new));
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        List<String> errors = r.err().lines().filter(l -> l.startsWith("error:")).toList();
        assertThat(errors).as(r.err()).hasSize(1);
        assertThat(r.err()).as("no stack trace").doesNotContain("\tat ", "Exception");
        return errors.get(0);
    }

    private static String shown(String message, FileServer mirror, Path data, int... ports) {
        String m = message.replace(mirror.base(), "http://127.0.0.1:PORT").replace(data.toString(), "DIR");
        for (int p : ports) m = m.replace(":" + p, ":PORT2");
        return m;
    }

    @Test @Order(1) void anEndlessBodyStopsAtTheLimitAndLeavesNothing() throws Exception {
        int limitMb = Suite.size(10, FULL_LIMIT_MB);
        try (FileServer mirror = new FileServer()) {
            mirror.mode("/PathVQA_VAL.tsv", FileServer.Mode.ENDLESS);
            Path data = dir.resolve("endless");
            String e = fetchFails(mirror, data, "data.max_download_mb=" + limitMb);
            assertThat(e).contains("stopped at " + limitMb + ".0 MB", "config data.max_download_mb", "the partial file was deleted");
            assertThat(dataDirectory(data)).as("nothing left to be taken for data").isEmpty();
            long sent = mirror.sent.get();
            Thread.sleep(300);
            assertThat(mirror.sent.get()).as("the connection is closed").isEqualTo(sent);
            ROWS.put("a body that never ends (no length; " + limitMb + " MB limit)", new String[]{"exit 1, the connection closed at the limit, "
                    + "nothing left in the data directory", shown(e, mirror, data)});
        }
    }

    @Test @Order(2) void aLengthPastTheLimitIsRefusedBeforeAByte() throws Exception {
        try (FileServer mirror = new FileServer()) {
            mirror.mode("/PathVQA_VAL.tsv", FileServer.Mode.ANNOUNCE_TERABYTE);
            Path data = dir.resolve("terabyte");
            String e = fetchFails(mirror, data);
            assertThat(e).contains("announces 1024.00 GB", "limit of 16.00 GB");
            assertThat(dataDirectory(data)).isEmpty();
            ROWS.put("`Content-Length: 1099511627776` (default limit)", new String[]{"exit 1 before any byte is written", shown(e, mirror, data)});
        }
    }

    @Test @Order(3) void aTrickleEndsAtTheDeadlineAndKeepsItsPartialFile() throws Exception {
        try (FileServer mirror = new FileServer()) {
            mirror.mode("/PathVQA_VAL.tsv", FileServer.Mode.TRICKLE);
            Path data = dir.resolve("trickle");
            String e = fetchFails(mirror, data, "data.download_deadline_s=2");
            assertThat(e).contains("did not finish within 2 s (config data.download_deadline_s)", "is kept: run the same command again to resume");
            assertThat(dataDirectory(data)).containsExactly("PathVQA_VAL.tsv.part");
            ROWS.put("960 bytes every 50 ms, forever (deadline 2 s)", new String[]{"exit 1 at the deadline; the partial file kept for a resume "
                    + "(the limit still bounds it)", shown(e, mirror, data).replaceAll("after [0-9.]+ KB", "after N KB")});
        }
    }


    @Test @Order(4) void redirectsToAddressesThatAreNotPublicOrToHostsNotAllowedAreRefusedBeforeConnecting() throws Exception {
        try (FileServer mirror = new FileServer(); CountingListener loopback2 = new CountingListener("127.0.0.2"); CountingListener loopback1 = new CountingListener("127.0.0.1")) {
            Map<String, String> targets = new LinkedHashMap<>();
            targets.put("the cloud's metadata address", "http://169.254.169.254/latest/meta-data/");
            targets.put("another loopback address, a server listening", "http://127.0.0.2:" + loopback2.port() + "/PathVQA_VAL.tsv");
            targets.put("the local network", "http://10.0.0.1/PathVQA_VAL.tsv");
            targets.put("a public host the catalogue does not name", "https://example.com/PathVQA_VAL.tsv");
            targets.put("127.0.0.1 spelled 0x7f.0.0.1, a server listening", "http://0x7f.0.0.1:" + loopback1.port() + "/PathVQA_VAL.tsv");
            for (var t : targets.entrySet()) {
                mirror.redirect("/PathVQA_VAL.tsv", t.getValue());
                Path data = dir.resolve("redirect-" + ROWS.size());
                String e = fetchFails(mirror, data);
                assertThat(e).contains("refused: the server redirected it to " + t.getValue(), "nothing was fetched from there");
                assertThat(dataDirectory(data)).isEmpty();
                ROWS.put("302 to " + t.getKey(), new String[]{"exit 1, no connection made", shown(e, mirror, data, loopback1.port(), loopback2.port())});
            }
            assertThat(loopback2.accepted()).as("nothing connected to 127.0.0.2").hasValue(0);
            assertThat(loopback1.accepted()).as("nothing connected to the other server on 127.0.0.1").hasValue(0);
        }
    }

    @Test @Order(5) void verifyReadsTheContentNotTheModificationTime() throws Exception {
        byte[] tsv = ("index\tquestion\tanswer\n" + "1\tWhat is shown?\ta gland\n".repeat(2000)).getBytes(StandardCharsets.UTF_8);
        try (FileServer mirror = new FileServer()) {
            mirror.put("/PathVQA_VAL.tsv", tsv);
            Path data = dir.resolve("verify");
            CommandRun fetched = CommandRun.main("data", "fetch", "PathVQA_VAL", "--data-dir", data.toString(), "--data-mirror", mirror.base());
            assertThat(fetched.code()).as(fetched.err()).isZero();
            Path file = data.resolve("PathVQA_VAL.tsv");
            FileTime before = Files.getLastModifiedTime(file);
            byte[] b = Files.readAllBytes(file);
            for (int i = 100; i < 104; i++) b[i] = (byte) 'X';
            Files.write(file, b);
            Files.setLastModifiedTime(file, before);
            CommandRun v = CommandRun.main("data", "verify", "PathVQA_VAL", "--data-dir", data.toString());
            assertThat(v.code()).as(v.out() + v.err()).isEqualTo(1);
            String line = v.out().lines().filter(l -> l.contains("PathVQA_VAL (")).findFirst().orElseThrow();
            assertThat(line).startsWith("DIFFERS").contains("the file changed since");
            ROWS.put("(then `gam data verify PathVQA_VAL` after 4 bytes of the copy were edited and its modification time restored)",
                    new String[]{"exit 1", line.replace(data.toString(), "DIR").replace(mirror.base(), "http://127.0.0.1:PORT")
                            .replaceAll("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z", "TIME").replaceAll("[0-9a-f]{64}", "SHA256").replaceAll("md5 [0-9a-f]{32}", "md5 MD5")});
        }
    }
}
