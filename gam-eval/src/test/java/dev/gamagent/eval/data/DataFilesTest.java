package dev.gamagent.eval.data;

import dev.gamagent.config.Config;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Benchmarks by name against a local mirror: download once, md5 checked, bad downloads removed, resumes, no network when present. */
class DataFilesTest {
    @TempDir Path dir;
    private FileServer server;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final byte[] bench = content(200_000, 1);
    private final byte[] open = content(50_000, 2);

    @BeforeEach void start() throws IOException {
        server = new FileServer().put("/Bench_DEV.tsv", bench).put("/Open_VAL.tsv", open);
    }

    @AfterEach void stop() { server.close(); }

    private static byte[] content(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    static String md5(byte[] b) throws Exception { return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(b)); }

    private DatasetCatalogue catalogue() throws Exception {
        String json = """
                {"vlmevalkit": {"commit": "0123456789abcdef"},
                 "datasets": [
                  {"name": "Bench_DEV", "kind": "vlmevalkit-tsv", "grading": "multiple-choice",
                   "url": "https://example.org/files/Bench_DEV_legacy.tsv", "md5": "%s", "defined_in": "test"},
                  {"name": "Open_VAL", "kind": "vlmevalkit-tsv", "grading": "open", "url": "https://example.org/Open_VAL.tsv", "md5": null},
                  {"name": "Built", "kind": "m3mad-json", "file": "M3MAD/Built.json", "grading": "m3mad", "build": "python build.py"}
                 ]}""".formatted(md5(bench));
        return DatasetCatalogue.parse(Json.MAPPER.readTree(json), "test catalogue");
    }

    private DataFiles files(String mirror) throws Exception {
        return DataFiles.open(catalogue(), new DataDirectory(dir, "--data-dir", null), mirror, Config.defaults(),
                new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    private String log() { return log.toString(StandardCharsets.UTF_8); }

    @Test void aNameDownloadsOnceWithItsMd5CheckedAndASecondRunDoesNotDownload() throws Exception {
        DataFiles f = files(server.base());
        DataFiles.DataFile got = f.resolve("Bench_DEV");
        assertEquals(dir.resolve("Bench_DEV.tsv"), got.path());
        assertArrayEquals(bench, Files.readAllBytes(got.path()));
        assertEquals(DataFiles.Check.OFFICIAL, got.check());
        assertTrue(got.downloaded());
        assertEquals(1, server.requests().size());
        assertTrue(log().contains("downloading Bench_DEV.tsv"), log());
        assertTrue(log().contains("(100%)"), "progress is reported: " + log());
        assertFalse(Files.exists(f.partial(got.entry())));

        DataFiles.DataFile again = files(server.base()).resolve("Bench_DEV");
        assertEquals(1, server.requests().size(), "the second run used the file it has");
        assertFalse(again.downloaded());
        assertEquals(DataFiles.Check.OFFICIAL, again.check());
        assertEquals(Boolean.TRUE, again.provenance(catalogue()).get("official").asBoolean());
    }

    /**
     * Files whose catalogue URL is the server's (the official location, no mirror): the hosts allow the server as a
     * mirror's would, since a catalogue host on 127.0.0.1 is otherwise refused.
     */
    private DataFiles official() throws Exception {
        String json = """
                {"vlmevalkit": {"commit": "0123456789abcdef"},
                 "datasets": [
                  {"name": "Bench_DEV", "kind": "vlmevalkit-tsv", "grading": "multiple-choice",
                   "url": "%s/Bench_DEV.tsv", "md5": "%s", "defined_in": "test"}
                 ]}""".formatted(server.base(), md5(bench));
        DatasetCatalogue c = DatasetCatalogue.parse(Json.MAPPER.readTree(json), "test catalogue");
        Downloader d = new Downloader(java.time.Duration.ofSeconds(10), java.time.Duration.ofSeconds(60), DownloadHosts.of(c, server.base()));
        return new DataFiles(c, new DataDirectory(dir, "--data-dir", null), null, d, 1L << 30, new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    @Test void aMirrorsCopyWhoseMd5DiffersIsKeptWithAWarningAsACopyInTheDataDirectoryIs() throws Exception {
        byte[] other = java.util.Arrays.copyOf(bench, bench.length - 1000);
        server.put("/Bench_DEV.tsv", other);
        DataFiles.DataFile got = files(server.base()).resolve("Bench_DEV");
        assertTrue(got.downloaded());
        assertEquals(DataFiles.Check.DIFFERS, got.check());
        assertArrayEquals(other, Files.readAllBytes(dir.resolve("Bench_DEV.tsv")));
        assertTrue(log().contains("warning: Bench_DEV") && log().contains("not the official file"), log());
        DataFiles.DataFile again = files(server.base()).resolve("Bench_DEV");
        assertFalse(again.downloaded());
        assertEquals(DataFiles.Check.DIFFERS, again.check(), "the same rule as for a copy put in the data directory");
        assertEquals(1, server.requests().size());
    }

    @Test void aTruncatedDownloadFromTheOfficialUrlIsRefusedAndRemoved() throws Exception {
        server.put("/Bench_DEV.tsv", java.util.Arrays.copyOf(bench, bench.length - 1000));
        DataException e = assertThrows(DataException.class, () -> official().resolve("Bench_DEV"));
        assertTrue(e.getMessage().contains("not the published " + md5(bench)), e.getMessage());
        assertTrue(e.getMessage().contains("deleted"), e.getMessage());
        assertTrue(e.getMessage().contains(server.base() + "/Bench_DEV.tsv"), "names the download: " + e.getMessage());
        try (var s = Files.list(dir)) {
            assertEquals(List.of(), s.filter(p -> p.getFileName().toString().startsWith("Bench_DEV")).toList(), "nothing is left behind");
        }
    }

    @Test void anAlteredDownloadFromTheOfficialUrlIsRefusedAndRemoved() throws Exception {
        byte[] altered = bench.clone();
        altered[12345] ^= 1;
        server.put("/Bench_DEV.tsv", altered);
        DataException e = assertThrows(DataException.class, () -> official().resolve("Bench_DEV"));
        assertTrue(e.getMessage().contains("truncated or altered"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("Bench_DEV.tsv")));
        assertFalse(Files.exists(dir.resolve("Bench_DEV.tsv.part")));
    }

    @Test void aDownloadThatBreaksOffKeepsItsPartialFileAndTheNextRunResumesIt() throws Exception {
        server.mode("/Bench_DEV.tsv", FileServer.Mode.BREAK_OFF_HALFWAY);
        DataException e = assertThrows(DataException.class, () -> files(server.base()).resolve("Bench_DEV"));
        assertTrue(e.getMessage().contains("resume"), e.getMessage());
        Path part = dir.resolve("Bench_DEV.tsv.part");
        long kept = Files.size(part);
        assertTrue(kept > 0 && kept < bench.length, "kept " + kept);

        DataFiles.DataFile got = files(server.base()).resolve("Bench_DEV");
        assertArrayEquals(bench, Files.readAllBytes(got.path()));
        assertEquals(DataFiles.Check.OFFICIAL, got.check());
        FileServer.Request last = server.requests().get(server.requests().size() - 1);
        assertEquals("bytes=" + kept + "-", last.range(), "the second attempt asked only for the rest");
        assertTrue(log().contains("resuming Bench_DEV.tsv at"), log());
    }

    @Test void aServerThatIgnoresTheRangeSendsTheWholeFileWhichReplacesThePartialOne() throws Exception {
        Files.write(dir.resolve("Bench_DEV.tsv.part"), "garbage from an older attempt".getBytes(StandardCharsets.UTF_8));
        server.mode("/Bench_DEV.tsv", FileServer.Mode.IGNORE_RANGES);
        DataFiles.DataFile got = files(server.base()).resolve("Bench_DEV");
        assertArrayEquals(bench, Files.readAllBytes(got.path()));
        assertEquals(DataFiles.Check.OFFICIAL, got.check());
    }

    @Test void aFileAlreadyInTheDataDirectoryIsUsedWithoutAnyNetwork() throws Exception {
        Files.write(dir.resolve("Bench_DEV.tsv"), bench);
        // no server at all: port 9 on loopback refuses, and nothing may try
        DataFiles.DataFile got = files("http://127.0.0.1:9").resolve("Bench_DEV");
        assertEquals(DataFiles.Check.OFFICIAL, got.check());
        assertFalse(got.downloaded());
        assertEquals(0, server.requests().size());
        assertTrue(Files.exists(Checksums.sidecar(got.path())), "the sums are remembered");
    }

    @Test void vlmEvalKitsLegacyFileNameIsFoundToo() throws Exception {
        Files.write(dir.resolve("Bench_DEV_legacy.tsv"), bench);
        DataFiles.DataFile got = files(server.base()).resolve("Bench_DEV");
        assertEquals(dir.resolve("Bench_DEV_legacy.tsv"), got.path());
        assertEquals(0, server.requests().size());
    }

    @Test void aUsersOwnCopyWithAnotherMd5IsUsedAndSaysItIsNotTheOfficialFile() throws Exception {
        Files.writeString(dir.resolve("Bench_DEV.tsv"), "index\tquestion\n1\tmy own\n");
        DataFiles.DataFile got = files(server.base()).resolve("Bench_DEV");
        assertEquals(DataFiles.Check.DIFFERS, got.check());
        assertEquals(Boolean.FALSE, got.check().official());
        assertTrue(got.describe().contains("not the official file"), got.describe());
        var p = got.provenance(catalogue());
        assertFalse(p.get("official").asBoolean());
        assertEquals(got.sums().md5(), p.get("md5").asText());
        assertEquals(md5(bench), p.get("published_md5").asText());
        assertEquals(0, server.requests().size());
    }

    @Test void withoutAPublishedMd5TheSha256OfTheFirstDownloadIsRecordedAndLaterRunsAreCheckedAgainstIt() throws Exception {
        DataFiles.DataFile first = files(server.base()).resolve("Open_VAL");
        assertEquals(DataFiles.Check.RECORDED_NOW, first.check());
        assertNull(first.check().official());
        DataFiles.DataFile second = files(server.base()).resolve("Open_VAL");
        assertEquals(DataFiles.Check.SAME_AS_FIRST, second.check());
        assertEquals(first.sums().sha256(), second.provenance(catalogue()).get("first_sha256").asText());
        Files.write(first.path(), content(50_000, 3));
        DataFiles.DataFile third = files(server.base()).resolve("Open_VAL");
        assertEquals(DataFiles.Check.CHANGED, third.check());
        assertTrue(third.check().warns());
        assertEquals(1, server.requests().size());
    }

    @Test void aFileFoundWithoutAPublishedMd5IsRecordedAtFirstSight() throws Exception {
        Files.write(dir.resolve("Open_VAL.tsv"), open);
        assertEquals(DataFiles.Check.RECORDED_NOW, files(server.base()).resolve("Open_VAL").check());
        assertEquals(DataFiles.Check.SAME_AS_FIRST, files(server.base()).resolve("Open_VAL").check());
    }

    @Test void aMissingFileOnTheMirrorNamesTheUrl() throws Exception {
        DataFiles f = files(server.base() + "/nothing-here/");
        DataException e = assertThrows(DataException.class, () -> f.resolve("Bench_DEV"));
        assertTrue(e.getMessage().contains("HTTP 404") && e.getMessage().contains(server.base() + "/nothing-here/Bench_DEV.tsv"), e.getMessage());
    }

    @Test void aBenchmarkWithoutADownloadSaysHowToBuildIt() throws Exception {
        DataException e = assertThrows(DataException.class, () -> files(null).resolve("Built"));
        assertTrue(e.getMessage().contains("python build.py") && e.getMessage().contains(dir.resolve("M3MAD/Built.json").toString()), e.getMessage());
    }

    @Test void aBenchmarkWithoutADownloadComesFromAMirrorWhenOneIsSet() throws Exception {
        byte[] json = "[]".getBytes(StandardCharsets.UTF_8);
        server.put("/M3MAD/Built.json", json);
        DataFiles.DataFile got = files(server.base()).resolve("Built");
        assertEquals(dir.resolve("M3MAD/Built.json"), got.path());
        assertEquals(DataFiles.Check.RECORDED_NOW, got.check());
    }

    @Test void anUnknownNameSuggestsTheNearestOnes() throws Exception {
        Exception e = assertThrows(IllegalArgumentException.class, () -> files(null).resolve("Bench_DEVV"));
        assertTrue(e.getMessage().contains("did you mean Bench_DEV"), e.getMessage());
        Exception missingFile = assertThrows(DataException.class, () -> files(null).resolve("some/where/file.tsv"));
        assertTrue(missingFile.getMessage().contains("does not exist"), missingFile.getMessage());
    }

    @Test void aFileGivenByPathIsCheckedAgainstTheBenchmarkItIsNamedFor() throws Exception {
        Path elsewhere = Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-elsewhere")).resolve("Bench_DEV.tsv");
        Files.write(elsewhere, bench);
        DataFiles.DataFile got = files(null).resolve(elsewhere.toString());
        assertEquals("Bench_DEV", got.entry().name());
        assertEquals(DataFiles.Check.OFFICIAL, got.check());
        assertFalse(Files.exists(Checksums.sidecar(elsewhere)), "nothing is written beside a user's file outside the data directory");
    }

    @Test void theDataDirectoryIsTheFlagThenLmuDataThenHomeAsInVlmEvalKit() throws IOException {
        Path home = dir.resolve("home");
        Path lmu = Files.createDirectories(dir.resolve("lmu"));
        assertEquals(dir.resolve("flag"), DataDirectory.resolve(dir.resolve("flag"), Map.of("LMUData", lmu.toString()), home).path());
        assertEquals(lmu, DataDirectory.resolve(null, Map.of("LMUData", lmu.toString()), home).path());
        assertEquals(home.resolve("LMUData"), DataDirectory.resolve(null, Map.of(), home).path());
        DataDirectory missing = DataDirectory.resolve(null, Map.of("LMUData", dir.resolve("nope").toString()), home);
        assertEquals(home.resolve("LMUData"), missing.path());
        assertTrue(missing.note().contains("not a directory"), missing.note());
    }
}
