package dev.gamagent.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 28, item 4: {@code gam serve}'s traces hold users' questions. By default they live in the user's own state
 * directory (never a directory every user of the machine shares), readable by the user only, and are kept for a
 * number of questions and an age.
 */
class TraceStorePrivacyTest {
    @TempDir Path dir;

    @Test void theDefaultTraceDatabaseIsInTheUsersStateDirectoryNotASharedTemporaryOne() {
        ServerSettings s = new ServerSettings("127.0.0.1", 0, null, 0, 0, 0, List.of(), null, 0);
        String xdg = System.getenv("XDG_STATE_HOME");
        Path state = xdg != null && Path.of(xdg).isAbsolute() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".local", "state");
        assertThat(s.traceDb()).isEqualTo(state.resolve("gam/serve/traces.db"));
        assertThat(s.traceDb().startsWith(Path.of(System.getProperty("java.io.tmpdir")))).isFalse();
    }

    @Test void xdgStateHomeDecidesWhereAndARelativeOneIsIgnored() {
        assertThat(ServerSettings.defaultTraceDb(Map.of("XDG_STATE_HOME", "/srv/state"), "/home/u")).isEqualTo(Path.of("/srv/state/gam/serve/traces.db"));
        assertThat(ServerSettings.defaultTraceDb(Map.of("XDG_STATE_HOME", "rel/state"), "/home/u"))
                .isEqualTo(Path.of("/home/u/.local/state/gam/serve/traces.db"));
        assertThat(ServerSettings.defaultTraceDb(Map.of(), "/home/u")).isEqualTo(Path.of("/home/u/.local/state/gam/serve/traces.db"));
    }

    @Test void theDatabaseAndItsJournalsAreTheOwnersOnlyAndNewDirectoriesArePrivate() throws Exception {
        Path db = dir.resolve("state/gam/serve/traces.db");
        try (TraceStore t = new TraceStore(db, 10, Duration.ofDays(30), true, Clock.systemUTC())) {
            t.save("tr-1", "single", "what is on my medical scan?", "{}", null);
            assertThat(perms(db)).isEqualTo("rw-------");
            for (String journal : List.of("traces.db-wal", "traces.db-shm")) {
                Path j = db.resolveSibling(journal);
                if (Files.exists(j)) assertThat(perms(j)).as(journal).isEqualTo("rw-------");
            }
            assertThat(perms(db.getParent())).isEqualTo("rwx------");
            assertThat(perms(dir.resolve("state/gam"))).isEqualTo("rwx------");
            assertThat(perms(dir.resolve("state"))).isEqualTo("rwx------");
        }
    }

    @Test void anExistingReadableDatabaseIsMadePrivateAndTheServersOwnDirectoryToo() throws Exception {
        Path own = Files.createDirectories(dir.resolve("gam/serve"));
        Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path db = Files.createFile(own.resolve("traces.db"));
        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("rw-r--r--"));
        try (TraceStore t = new TraceStore(db, 10, Duration.ZERO, true, Clock.systemUTC())) {
            assertThat(perms(db)).isEqualTo("rw-------");
            assertThat(perms(own)).isEqualTo("rwx------");
        }
        // a directory the user named (--trace-db) is theirs to set: only the file is made private
        Path shared = Files.createDirectories(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (TraceStore t = new TraceStore(shared.resolve("t.db"), 10, Duration.ZERO, false, Clock.systemUTC())) {
            assertThat(perms(shared.resolve("t.db"))).isEqualTo("rw-------");
            assertThat(perms(shared)).isEqualTo("rwxr-xr-x");
        }
    }

    @Test void tracesOlderThanTheRetentionAgeAndBeyondTheCountAreDeleted() {
        Instant[] now = {Instant.parse("2026-01-01T00:00:00Z")};
        Clock clock = new Clock() {
            @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
            @Override public Clock withZone(java.time.ZoneId zone) { return this; }
            @Override public Instant instant() { return now[0]; }
        };
        try (TraceStore t = new TraceStore(dir.resolve("t.db"), 3, Duration.ofDays(30), false, clock)) {
            t.save("old", "single", "q", "{}", null);
            now[0] = now[0].plus(Duration.ofDays(20));
            t.save("mid", "single", "q", "{}", null);
            now[0] = now[0].plus(Duration.ofDays(11)); // "old" is now 31 days old
            t.save("new", "single", "q", "{}", null);
            assertThat(t.recent(10)).extracting(TraceStore.Summary::id).containsExactly("new", "mid");
            for (int i = 0; i < 4; i++) t.save("n" + i, "single", "q", "{}", null);
            assertThat(t.recent(10)).extracting(TraceStore.Summary::id).hasSize(3).doesNotContain("mid", "new");
        }
    }

    @Test void theNotFoundMessageSaysHowLongTracesAreKept() throws Exception {
        ServerSettings s = new ServerSettings("127.0.0.1", 0, null, 0, 0, 0, List.of(), dir.resolve("traces.db"), 50);
        try (ServerFixture f = new ServerFixture(s, dev.gamagent.testing.ScriptedBackend.text(q -> "A"), Map.of(), List.of())) {
            var r = f.get("/v1/traces/tr-missing");
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(r.body()).contains("newest 50 questions", "30 days", "server.trace_retention").doesNotContain("in memory");
        }
    }

    private static String perms(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
