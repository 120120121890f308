package dev.gamagent.eval.data;

import dev.gamagent.config.Config;
import dev.gamagent.testing.http.CountingListener;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Issue 38, items 1, 2 and 6: a hostile mirror cannot fill the disk (a size limit), hold a download forever (a
 * deadline), send it to this machine, the local network or the cloud's metadata address (redirects checked before
 * connecting, after name resolution), or plant a baseline (a download redirected off the mirror's host records none);
 * and {@code verify} reads the content, so bytes edited under a restored modification time are seen. Real servers on
 * 127.0.0.1; limits of a few MB (the reliability suite runs the command line at 10 MB and more).
 */
class DownloadDefenceTest {
    @TempDir Path dir;
    private FileServer server;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final byte[] bench = content(200_000, 1);
    private final byte[] open = content(50_000, 2);

    @BeforeEach void start() throws IOException {
        server = new FileServer().put("/Bench_DEV.tsv", bench).put("/Open_VAL.tsv", open).put("/elsewhere/Open_VAL.tsv", open);
    }

    @AfterEach void stop() { server.close(); }

    private static byte[] content(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** The test catalogue; {@code extra} adds entries (JSON objects, each followed by a comma). */
    private DatasetCatalogue catalogue(String extra) throws Exception {
        String json = """
                {"vlmevalkit": {"commit": "0123456789abcdef"},
                 "redirect_domains": {"domains": ["cdn.example.net"]},
                 "datasets": [%s
                  {"name": "Bench_DEV", "kind": "vlmevalkit-tsv", "grading": "multiple-choice",
                   "url": "https://example.org/files/Bench_DEV.tsv", "md5": "%s", "defined_in": "test"},
                  {"name": "Open_VAL", "kind": "vlmevalkit-tsv", "grading": "open", "url": "https://example.org/Open_VAL.tsv", "md5": null}
                 ]}""".formatted(extra, DataFilesTest.md5(bench));
        return DatasetCatalogue.parse(Json.MAPPER.readTree(json), "test catalogue");
    }

    private DataFiles files(String mirror, Config config) throws Exception {
        return DataFiles.open(catalogue(""), new DataDirectory(dir, "--data-dir", null), mirror, config, new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    private List<String> dataDirectory() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test void anEndlessBodyStopsAtTheLimitWithOneLineAndLeavesNothingBehind() throws Exception {
        server.mode("/Open_VAL.tsv", FileServer.Mode.ENDLESS);
        DataFiles f = files(server.base(), Config.defaults().with("data.max_download_mb", "2"));
        DataException e = catchThrowableOfType(() -> f.resolve("Open_VAL"), DataException.class);
        assertThat(e.getMessage()).isEqualTo("download of " + server.base() + "/Open_VAL.tsv stopped at 2.0 MB: the file is larger than the limit "
                + "of 2.0 MB (config data.max_download_mb; the catalogue does not know the size of Open_VAL); the partial file was deleted");
        assertThat(dataDirectory()).as("no partial file left to be taken for data").isEmpty();
        long sent = server.sent.get();
        Thread.sleep(500);
        assertThat(server.sent.get()).as("the connection was closed at the limit: the server writes no more").isEqualTo(sent);
    }

    @Test void aLengthPastTheLimitIsRefusedBeforeAnyByteIsWritten() throws Exception {
        server.mode("/Open_VAL.tsv", FileServer.Mode.ANNOUNCE_TERABYTE);
        DataException e = catchThrowableOfType(() -> files(server.base(), Config.defaults()).resolve("Open_VAL"), DataException.class);
        assertThat(e.getMessage()).isEqualTo("download of " + server.base() + "/Open_VAL.tsv refused: the server announces 1024.00 GB, more than "
                + "the limit of 16.00 GB (config data.max_download_mb; the catalogue does not know the size of Open_VAL); nothing was kept");
        assertThat(dataDirectory()).isEmpty();
    }

    @Test void aFileWhoseSizeTheCatalogueKnowsMayGrowAQuarterAndNoMore() throws Exception {
        DatasetCatalogue c = catalogue("""
                  {"name": "Sized", "kind": "vlmevalkit-tsv", "grading": "open", "url": "https://example.org/Sized.tsv", "bytes": 1000},
                  {"name": "Big", "kind": "vlmevalkit-tsv", "grading": "open", "url": "https://example.org/Big.tsv", "bytes": 400000000},
                """);
        DataFiles f = DataFiles.open(c, new DataDirectory(dir, "--data-dir", null), server.base(), Config.defaults(), System.err);
        assertThat(f.limit(c.require("Big")).bytes()).isEqualTo(500_000_000L);
        assertThat(f.limit(c.require("Sized")).bytes()).as("at least 16 MB more").isEqualTo(1000 + (16L << 20));
        assertThat(f.limit(c.require("Open_VAL")).bytes()).isEqualTo(16384L << 20);
        server.mode("/Sized.tsv", FileServer.Mode.ENDLESS);
        DataException e = catchThrowableOfType(() -> f.resolve("Sized"), DataException.class);
        assertThat(e.getMessage()).contains("stopped at 16.0 MB", "(the catalogue's size of Sized, 1000 B, and a quarter more)");
        assertThat(dataDirectory()).isEmpty();
    }

    @Test void aTrickleEndsAtTheDeadlineAndKeepsWhatArrivedForTheNextRun() throws Exception {
        server.mode("/Open_VAL.tsv", FileServer.Mode.TRICKLE);
        DataFiles f = files(server.base(), Config.defaults().with("data.download_deadline_s", "1.5"));
        long t0 = System.nanoTime();
        DataException e = catchThrowableOfType(() -> f.resolve("Open_VAL"), DataException.class);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(ms).isBetween(1400L, 5000L);
        assertThat(e.getMessage()).startsWith("download of " + server.base() + "/Open_VAL.tsv did not finish within 1.5 s (config data.download_deadline_s) after ")
                .endsWith("; the partial file " + dir.resolve("Open_VAL.tsv.part") + " is kept: run the same command again to resume");
        assertThat(dataDirectory()).containsExactly("Open_VAL.tsv.part");
    }

    /** A listener on 127.0.0.2 that counts the connections it is given. */

    @ParameterizedTest(name = "302 to {0}")
    @CsvSource(delimiter = '|', textBlock = """
            http://169.254.169.254/latest/meta-data/ | 169.254.169.254 is a link-local address (where cloud metadata services answer, e.g. 169.254.169.254)
            http://127.0.0.2:PORT2/Open_VAL.tsv      | 127.0.0.2 is a loopback address (this machine)
            http://10.0.0.1/Open_VAL.tsv             | 10.0.0.1 is a private network address
            http://192.168.1.1/Open_VAL.tsv          | 192.168.1.1 is a private network address
            http://[::1]:PORT2/Open_VAL.tsv          | [::1] is a loopback address (this machine)
            http://127.0.0.1:PORT2/Open_VAL.tsv      | 127.0.0.1 is a loopback address (this machine)
            https://example.com/Open_VAL.tsv         | host example.com is not one downloads may go to (the mirror's host 127.0.0.1 and the catalogue's hosts example.org, *.cdn.example.net)
            http://127.1:PORT2/Open_VAL.tsv          | host '127.1' is the IPv4 address 127.0.0.1, a loopback address (this machine), written in shorthand (2 numbers, not 4); write an address as four decimal numbers (127.0.0.1), or use a host name
            file:///etc/passwd                       | 'file:' URLs are not http: or https: URLs
            """)
    void aRedirectToAnAddressThatIsNotPublicOrToAHostNotAllowedIsRefusedWithoutConnecting(String target, String why) throws Exception {
        try (CountingListener other = new CountingListener("127.0.0.2")) {
            String to = target.replace("PORT2", Integer.toString(other.port()));
            server.redirect("/Open_VAL.tsv", to);
            long t0 = System.nanoTime();
            DataException e = catchThrowableOfType(() -> files(server.base(), Config.defaults()).resolve("Open_VAL"), DataException.class);
            assertThat(e.getMessage()).isEqualTo("download of " + server.base() + "/Open_VAL.tsv refused: the server redirected it to " + to
                    + ", and " + why + "; nothing was fetched from there");
            assertThat((System.nanoTime() - t0) / 1_000_000).as("no connection was tried").isLessThan(3000);
            assertThat(other.accepted()).as("nothing connected to the other address").hasValue(0);
            assertThat(dataDirectory()).isEmpty();
        }
    }

    @Test void aRedirectOnTheMirrorItselfIsFollowed() throws Exception {
        server.redirect("/Open_VAL.tsv", "/elsewhere/Open_VAL.tsv");
        DataFiles.DataFile got = files(server.base(), Config.defaults()).resolve("Open_VAL");
        assertThat(Files.readAllBytes(got.path())).isEqualTo(open);
        assertThat(got.check()).isEqualTo(DataFiles.Check.RECORDED_NOW);
        assertThat(got.source()).isEqualTo(server.base() + "/Open_VAL.tsv (redirected to " + server.base() + "/elsewhere/Open_VAL.tsv)");
    }

    @Test void aRedirectLoopEndsAfterFiveRedirects() throws Exception {
        server.redirect("/Open_VAL.tsv", "/again/Open_VAL.tsv").redirect("/again/Open_VAL.tsv", "/Open_VAL.tsv");
        DataException e = catchThrowableOfType(() -> files(server.base(), Config.defaults()).resolve("Open_VAL"), DataException.class);
        assertThat(e.getMessage()).startsWith("download of " + server.base() + "/Open_VAL.tsv refused: more than 5 redirects (");
        assertThat(server.requests()).hasSize(6);
        assertThat(dataDirectory()).isEmpty();
    }

    @Test void theFirstHopIsCheckedAfterNameResolutionToo() throws Exception {
        // no mirror: the catalogue's own host is reached only at a public address, and "localhost" is not one
        DatasetCatalogue c = DatasetCatalogue.parse(Json.MAPPER.readTree("""
                {"datasets": [{"name": "Local", "kind": "vlmevalkit-tsv", "grading": "open", "url": "http://localhost:%d/Open_VAL.tsv"}]}
                """.formatted(Integer.parseInt(server.base().substring(server.base().lastIndexOf(':') + 1)))), "test");
        DataFiles f = DataFiles.open(c, new DataDirectory(dir, "--data-dir", null), null, Config.defaults(), System.err);
        DataException e = catchThrowableOfType(() -> f.resolve("Local"), DataException.class);
        assertThat(e.getMessage()).startsWith("download of " + c.require("Local").url() + " refused: host localhost resolves to ")
                .contains("a loopback address (this machine)");
        assertThat(server.requests()).isEmpty();
    }

    @Test void aDownloadRedirectedOffTheMirrorsHostRecordsNoBaseline() throws Exception {
        // the mirror (127.0.0.1) sends the file on to another host the catalogue allows, "localhost"; for the check that name
        // is made to resolve to a public address (the connection itself goes where the JVM resolves it: this machine)
        int port = Integer.parseInt(server.base().substring(server.base().lastIndexOf(':') + 1));
        server.redirect("/Open_VAL.tsv", "http://localhost:" + port + "/elsewhere/Open_VAL.tsv");
        DownloadHosts hosts = new DownloadHosts(Set.of("127.0.0.1", "example.org", "localhost"), Set.of(), "127.0.0.1:" + port,
                host -> new InetAddress[]{InetAddress.getByAddress(host, new byte[]{93, (byte) 184, (byte) 215, 14})});
        DataFiles f = new DataFiles(catalogue(""), new DataDirectory(dir, "--data-dir", null), server.base(),
                new Downloader(Duration.ofSeconds(10), Duration.ofSeconds(30), hosts), 1L << 30, new PrintStream(log, true, StandardCharsets.UTF_8));
        DataFiles.DataFile got = f.resolve("Open_VAL");
        assertThat(Files.readAllBytes(got.path())).isEqualTo(open);
        assertThat(got.check()).isEqualTo(DataFiles.Check.UNTRUSTED);
        assertThat(got.sums().firstSha256()).isNull();
        assertThat(got.describe()).contains("no md5 is published, and the file was downloaded from " + server.base()
                + "/Open_VAL.tsv through a redirect off the mirror's host, to http://localhost:" + port
                + "/elsewhere/Open_VAL.tsv").contains("is not taken as the baseline");
        assertThat(Json.MAPPER.readTree(Checksums.sidecar(got.path()).toFile()).has("first_sha256")).isFalse();
        // later runs do not take it for a baseline either, and say so
        DataFiles.DataFile again = files(server.base(), Config.defaults()).resolve("Open_VAL");
        assertThat(again.check()).isEqualTo(DataFiles.Check.UNTRUSTED);
        assertThat(again.check().warns()).isTrue();
        assertThat(files(server.base(), Config.defaults()).verify(again.entry()).check()).isEqualTo(DataFiles.Check.UNTRUSTED);
        // a published md5 vouches for the bytes wherever they came from
        server.put("/files/Bench_DEV.tsv", bench).redirect("/Bench_DEV.tsv", "http://localhost:" + port + "/files/Bench_DEV.tsv");
        assertThat(f.resolve("Bench_DEV").check()).isEqualTo(DataFiles.Check.OFFICIAL);
    }

    @Test void verifyReadsTheContentSoFourBytesEditedUnderTheOldModificationTimeAreSeen() throws Exception {
        Files.write(dir.resolve("Open_VAL.tsv"), open);
        Files.write(dir.resolve("Bench_DEV.tsv"), bench);
        DataFiles f = files(null, Config.defaults());
        DatasetCatalogue c = f.catalogue();
        assertThat(f.verify(c.require("Open_VAL")).check()).isEqualTo(DataFiles.Check.RECORDED_NOW);
        assertThat(f.verify(c.require("Bench_DEV")).check()).isEqualTo(DataFiles.Check.OFFICIAL);
        for (String name : List.of("Open_VAL.tsv", "Bench_DEV.tsv")) {
            Path p = dir.resolve(name);
            FileTime before = Files.getLastModifiedTime(p);
            byte[] b = Files.readAllBytes(p);
            for (int i = 1000; i < 1004; i++) b[i] ^= 0x5a;
            Files.write(p, b);
            Files.setLastModifiedTime(p, before);
        }
        DataFiles.DataFile open2 = f.verify(c.require("Open_VAL"));
        assertThat(open2.check()).isEqualTo(DataFiles.Check.CHANGED);
        assertThat(open2.describe()).contains("the file changed since");
        assertThat(f.verify(c.require("Bench_DEV")).check()).isEqualTo(DataFiles.Check.DIFFERS);
        // and the sidecar now holds the new sums, so every later run sees the change as well
        assertThat(f.locate(c.require("Open_VAL")).check()).isEqualTo(DataFiles.Check.CHANGED);
    }
}
