package dev.gamagent.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Traces of answered questions in SQLite, newest {@code retention} kept. Each row holds the trace JSON and
 * a small PNG of the first image, so the web viewer can draw claim regions over it.
 */
public final class TraceStore implements AutoCloseable {
    /** One row of the recent-traces list. */
    public record Summary(String id, String method, String question, long time) { }

    private final Connection db;
    private final int retention;

    public TraceStore(Path file, int retention) {
        this.retention = retention;
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            db = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
            try (Statement st = db.createStatement()) {
                st.execute("PRAGMA journal_mode=WAL");
                st.execute("CREATE TABLE IF NOT EXISTS traces (id TEXT PRIMARY KEY, method TEXT, question TEXT, "
                        + "created_ms INTEGER, json TEXT NOT NULL, image BLOB)");
                st.execute("CREATE INDEX IF NOT EXISTS traces_created ON traces(created_ms)");
            }
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
            ps.setLong(4, System.currentTimeMillis());
            ps.setString(5, json);
            ps.setBytes(6, imagePng);
            ps.executeUpdate();
            try (PreparedStatement del = db.prepareStatement(
                    "DELETE FROM traces WHERE id NOT IN (SELECT id FROM traces ORDER BY created_ms DESC, rowid DESC LIMIT ?)")) {
                del.setInt(1, retention);
                del.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot store trace " + id + ": " + e.getMessage(), e);
        }
    }

    public synchronized Optional<String> json(String id) {
        try (PreparedStatement ps = db.prepareStatement("SELECT json FROM traces WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read trace " + id + ": " + e.getMessage(), e);
        }
    }

    public synchronized Optional<byte[]> image(String id) {
        try (PreparedStatement ps = db.prepareStatement("SELECT image FROM traces WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getBytes(1)) : Optional.empty();
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
