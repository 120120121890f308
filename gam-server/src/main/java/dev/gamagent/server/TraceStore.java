package dev.gamagent.server;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Traces of answered questions in SQLite, the newest {@code retention} and none older than {@code maxAge} kept. Each
 * row holds the trace JSON and a small PNG of the question's image (a video question's frames side by side, as
 * {@code image.FrameStrip} tiles them), so the web viewer can draw claim regions over it.
 * Questions are private: the database (and SQLite's journal files beside it) is readable by its owner only (0600),
 * directories it creates are 0700, and a directory the server owns (the default one) is made 0700.
 */
public final class TraceStore implements AutoCloseable {
    /** One row of the recent-traces list. */
    public record Summary(String id, String method, String question, long time) { }

    private static final Set<PosixFilePermission> OWNER_FILE = Set.copyOf(PosixFilePermissions.fromString("rw-------"));
    private static final Set<PosixFilePermission> OWNER_DIR = Set.copyOf(PosixFilePermissions.fromString("rwx------"));

    private final Connection db;
    private final Path file;
    private final int retention;
    private final Duration maxAge;
    private final Clock clock;

    public TraceStore(Path file, int retention) { this(file, retention, Duration.ZERO, false, Clock.systemUTC()); }

    /**
     * @param maxAge       traces older than this are deleted (zero: no age limit)
     * @param ownDirectory the directory is the server's own (the default location): made 0700 even when it exists
     */
    public TraceStore(Path file, int retention, Duration maxAge, boolean ownDirectory, Clock clock) {
        this.file = file.toAbsolutePath();
        this.retention = retention;
        this.maxAge = maxAge == null ? Duration.ZERO : maxAge;
        this.clock = clock;
        try {
            Path parent = this.file.getParent();
            if (parent != null) createPrivateDirectories(parent, ownDirectory);
            createPrivateFile(this.file);
            db = DriverManager.getConnection("jdbc:sqlite:" + this.file);
            try (Statement st = db.createStatement()) {
                st.execute("PRAGMA journal_mode=WAL");
                st.execute("CREATE TABLE IF NOT EXISTS traces (id TEXT PRIMARY KEY, method TEXT, question TEXT, "
                        + "created_ms INTEGER, json TEXT NOT NULL, image BLOB)");
                st.execute("CREATE INDEX IF NOT EXISTS traces_created ON traces(created_ms)");
            }
            privateJournals();
            prune();
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("cannot open the trace database " + file + ": " + e.getMessage()
                    + "; pass --trace-db PATH to a writable location", e);
        }
    }

    public synchronized void save(String id, String method, String question, String json, byte[] imagePng) {
        try (PreparedStatement ps = db.prepareStatement("INSERT OR REPLACE INTO traces VALUES (?,?,?,?,?,?)")) {
            ps.setString(1, id);
            ps.setString(2, method);
            ps.setString(3, question);
            ps.setLong(4, clock.millis());
            ps.setString(5, json);
            ps.setBytes(6, imagePng);
            ps.executeUpdate();
            prune();
            privateJournals();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot store trace " + id + ": " + e.getMessage(), e);
        }
    }

    /** Deletes all but the newest {@code retention} traces, and those older than {@code maxAge}. */
    private void prune() throws SQLException {
        try (PreparedStatement del = db.prepareStatement(
                "DELETE FROM traces WHERE id NOT IN (SELECT id FROM traces ORDER BY created_ms DESC, rowid DESC LIMIT ?)")) {
            del.setInt(1, retention);
            del.executeUpdate();
        }
        if (!maxAge.isZero()) {
            try (PreparedStatement del = db.prepareStatement("DELETE FROM traces WHERE created_ms < ?")) {
                del.setLong(1, clock.millis() - maxAge.toMillis());
                del.executeUpdate();
            }
        }
    }

    /** Missing directories are created 0700; {@code dir} itself is made 0700 when the server owns it. */
    private static void createPrivateDirectories(Path dir, boolean own) throws IOException {
        if (!posix(dir)) {
            Files.createDirectories(dir);
            return;
        }
        List<Path> missing = new ArrayList<>();
        for (Path p = dir; p != null && !Files.exists(p); p = p.getParent()) missing.add(0, p);
        for (Path p : missing) {
            try {
                Files.createDirectory(p, PosixFilePermissions.asFileAttribute(OWNER_DIR));
                Files.setPosixFilePermissions(p, OWNER_DIR); // the umask may have taken bits away, never added: set exactly
            } catch (FileAlreadyExistsException raced) {
                // another process made it meanwhile
            }
        }
        if (own && Files.isDirectory(dir)) Files.setPosixFilePermissions(dir, OWNER_DIR);
    }

    /** The database file exists and is its owner's only, before SQLite opens it (its journals take the same mode). */
    private static void createPrivateFile(Path f) throws IOException {
        if (!posix(f.getParent() == null ? f : f.getParent())) return;
        try {
            Files.createFile(f, PosixFilePermissions.asFileAttribute(OWNER_FILE));
        } catch (FileAlreadyExistsException exists) {
            // a database from an earlier run: keep it, but private
        }
        Files.setPosixFilePermissions(f, OWNER_FILE);
    }

    /** SQLite's -wal and -shm files hold the same questions. */
    private void privateJournals() {
        for (String suffix : List.of("-wal", "-shm", "-journal")) {
            Path j = file.resolveSibling(file.getFileName() + suffix);
            try {
                if (Files.exists(j) && posix(j) && !Files.getPosixFilePermissions(j).equals(OWNER_FILE)) Files.setPosixFilePermissions(j, OWNER_FILE);
            } catch (IOException | UnsupportedOperationException e) {
                // not ours to change (another user's file): SQLite gave it the database's mode when it made it
            }
        }
    }

    private static boolean posix(Path p) {
        try {
            Path existing = p;
            while (existing != null && !Files.exists(existing)) existing = existing.getParent();
            return existing != null && Files.getFileStore(existing).supportsFileAttributeView("posix");
        } catch (IOException e) {
            return false;
        }
    }

    /** Where the traces are. */
    public Path file() { return file; }

    public synchronized Optional<String> json(String id) { return column(id, "json", rs -> rs.getString(1)); }

    public synchronized Optional<byte[]> image(String id) { return column(id, "image", rs -> rs.getBytes(1)); }

    /** How one column's value is read from a row. */
    private interface ColumnReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** One column ({@code json} or {@code image}) of trace {@code id}: empty when there is no such trace or the column is null. */
    private <T> Optional<T> column(String id, String column, ColumnReader<T> reader) {
        try (PreparedStatement ps = db.prepareStatement("SELECT " + column + " FROM traces WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(reader.read(rs)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read trace " + id + ": " + e.getMessage(), e);
        }
    }

    public synchronized List<Summary> recent(int limit) {
        List<Summary> out = new ArrayList<>();
        try (PreparedStatement ps = db.prepareStatement(
                "SELECT id, method, question, created_ms FROM traces ORDER BY created_ms DESC, rowid DESC LIMIT ?")) {
            ps.setInt(1, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.add(new Summary(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot list traces: " + e.getMessage(), e);
        }
        return out;
    }

    public synchronized int count() {
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM traces")) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot count traces: " + e.getMessage(), e);
        }
    }

    @Override public synchronized void close() {
        try {
            db.close();
        } catch (SQLException e) {
            // closing at shutdown: nothing useful to do
        }
    }
}
