package dev.gamagent.eval.store;

import dev.gamagent.util.AtomicFiles;
import dev.gamagent.util.Json;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * A run's results: {@code results.db} (SQLite in WAL mode; a finished question × method is committed
 * before {@link #put} returns, so a killed process loses only what was in flight; records finished at the
 * same moment share a transaction, committed by one writer thread) and {@code results.jsonl} (one line per record, flushed with each
 * commit, rebuilt from the database whenever it lags or holds superseded lines).
 */
public final class ResultStore implements AutoCloseable {
    private final Path dir;
    private final Path jsonl;
    private final Connection db;
    private final RunLock lock;
    private BufferedWriter jsonlOut;
    private boolean superseded;

    public ResultStore(Path dir) {
        this.dir = dir;
        this.jsonl = dir.resolve("results.jsonl");
        this.lock = RunLock.take(dir); // one writer per directory: a second run is told so, not SQLITE_BUSY later
        try {
            Files.createDirectories(dir);
            db = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("results.db").toAbsolutePath());
            try (Statement s = db.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=NORMAL");
                s.execute("PRAGMA busy_timeout=10000");
                s.execute("CREATE TABLE IF NOT EXISTS results (seq INTEGER PRIMARY KEY AUTOINCREMENT, "
                        + "question_id TEXT NOT NULL, method TEXT NOT NULL, outcome TEXT NOT NULL, record TEXT NOT NULL, "
                        + "UNIQUE(question_id, method))");
                s.execute("CREATE TABLE IF NOT EXISTS run (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
                s.execute("CREATE TABLE IF NOT EXISTS thumbnails (question_id TEXT PRIMARY KEY, data_url TEXT NOT NULL)");
            }
            if (jsonlLags()) rebuildJsonl();
            jsonlOut = Files.newBufferedWriter(jsonl, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (SQLException e) {
            lock.close();
            throw new IllegalStateException("cannot open results database " + dir.resolve("results.db") + ": " + e.getMessage(), e);
        } catch (IOException e) {
            lock.close();
            throw new UncheckedIOException("cannot open run directory " + dir + ": " + e.getMessage(), e);
        }
    }

    public Path dir() { return dir; }

    /** The run identity stored with these results, or null for a new directory or one written before identities. */
    public synchronized RunIdentity identity() {
        try (PreparedStatement q = db.prepareStatement("SELECT value FROM run WHERE key = 'identity'");
             ResultSet rs = q.executeQuery()) {
            return rs.next() ? RunIdentity.fromJson(rs.getString(1)) : null;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read " + dir.resolve("results.db") + ": " + e.getMessage(), e);
        }
    }

    public synchronized void identity(RunIdentity id) {
        try (PreparedStatement p = db.prepareStatement("INSERT OR REPLACE INTO run (key, value) VALUES ('identity', ?)")) {
            p.setString(1, id.toJson());
            p.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot store the run identity in " + dir.resolve("results.db") + ": " + e.getMessage(), e);
        }
    }

    /** How many records are stored (finished or failed). */
    public synchronized int size() {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM results")) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read " + dir.resolve("results.db") + ": " + e.getMessage(), e);
        }
    }

    /** The files a run writes into its directory; {@code --force-new} moves them aside. */
    public static final List<String> RUN_FILES = List.of("results.db", "results.db-wal", "results.db-shm", "results.jsonl",
            "summary.json", "report.html", "report-debates");

    /**
     * Moves an earlier run's files from {@code dir} into a new {@code dir/discarded-<time>/} and returns it,
     * or returns null when there was nothing to move. Nothing is deleted.
     */
    public static Path moveAside(Path dir) {
        List<Path> present = RUN_FILES.stream().map(dir::resolve).filter(Files::exists).toList();
        if (present.isEmpty()) return null;
        String stamp = java.time.LocalDateTime.now().format(java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path target = dir.resolve("discarded-" + stamp);
        for (int i = 2; Files.exists(target); i++) target = dir.resolve("discarded-" + stamp + "-" + i);
        try {
            Files.createDirectories(target);
            for (Path f : present) Files.move(f, target.resolve(f.getFileName()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move the earlier run in " + dir + " aside: " + e.getMessage(), e);
        }
        return target;
    }

    /** A record waiting for the writer, and the verdict its caller waits for. */
    private record Pending(ResultRecord record, String json, CompletableFuture<Void> done) { }

    private final LinkedBlockingQueue<Pending> waiting = new LinkedBlockingQueue<>();
    private Thread writer;

    /**
     * Stores one record (replacing an earlier attempt of the same pair) and appends it to the JSONL; when
     * this returns the record is committed. One writer thread commits whatever has queued in one transaction
     * (group commit): the callers, often virtual threads, wait without holding a carrier thread through
     * SQLite's native calls, and records finished at the same moment share a transaction.
     */
    public void put(ResultRecord r) {
        Pending mine = new Pending(r, Json.write(r), new CompletableFuture<>()); // serialise on the caller's thread
        synchronized (this) {
            if (writer == null) {
                writer = new Thread(this::writeLoop, "gam-results-writer");
                writer.setDaemon(true);
                writer.start();
            }
        }
        waiting.add(mine);
        try {
            mine.done().join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : e;
        }
    }

    private void writeLoop() {
        while (true) {
            List<Pending> batch = new ArrayList<>();
            try {
                batch.add(waiting.take());
            } catch (InterruptedException e) {
                return; // closing
            }
            waiting.drainTo(batch);
            if (batch.get(batch.size() - 1).record() == null) {
                batch.remove(batch.size() - 1); // the close marker: commit the rest, then stop
                if (!batch.isEmpty()) commitBatch(batch);
                return;
            }
            commitBatch(batch);
        }
    }

    private void commitBatch(List<Pending> batch) {
        RuntimeException failure;
        try {
            synchronized (this) {
                failure = commitWaiting(batch);
            }
        } catch (RuntimeException | Error e) {
            failure = new IllegalStateException("cannot store results in " + dir + ": " + e, e); // the waiting callers must learn it
        }
        for (Pending p : batch) {
            if (failure == null) p.done().complete(null);
            else p.done().completeExceptionally(failure);
        }
    }

    /** Commits the records in one transaction, then appends their lines and flushes once; returns the failure, if any. */
    private RuntimeException commitWaiting(List<Pending> batch) {
        RuntimeException failure = null;
        try {
            db.setAutoCommit(false);
            boolean existed = false;
            try (PreparedStatement q = db.prepareStatement("SELECT 1 FROM results WHERE question_id=? AND method=?");
                 PreparedStatement ins = db.prepareStatement("INSERT OR REPLACE INTO results (question_id, method, outcome, record) VALUES (?,?,?,?)")) {
                for (Pending p : batch) {
                    q.setString(1, p.record().question().id());
                    q.setString(2, p.record().method());
                    try (ResultSet rs = q.executeQuery()) { existed |= rs.next(); }
                    ins.setString(1, p.record().question().id());
                    ins.setString(2, p.record().method());
                    ins.setString(3, p.record().grade().outcome());
                    ins.setString(4, p.json());
                    ins.executeUpdate();
                }
            }
            db.commit();
            superseded |= existed;
        } catch (SQLException e) {
            try { db.rollback(); } catch (SQLException ignored) { /* the original error matters */ }
            ResultRecord r = batch.get(0).record();
            failure = new IllegalStateException("cannot store result for question " + r.question().id() + " × " + r.method()
                    + (batch.size() > 1 ? " (and " + (batch.size() - 1) + " more finished at the same time)" : "") + ": " + e.getMessage(), e);
        } finally {
            try { db.setAutoCommit(true); } catch (SQLException ignored) { /* connection is closing */ }
        }
        if (failure == null) {
            try {
                for (Pending p : batch) {
                    jsonlOut.write(p.json());
                    jsonlOut.newLine();
                }
                jsonlOut.flush();
            } catch (IOException e) {
                failure = new UncheckedIOException("cannot append to " + jsonl + ": " + e.getMessage(), e);
            }
        }
        return failure;
    }

    /** Pairs already finished ({@code questionId + '\t' + method}); errors are not finished, they are retried. */
    public synchronized Set<String> finishedPairs() {
        Set<String> out = new HashSet<>();
        try (Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT question_id, method FROM results WHERE outcome <> 'error'")) {
            while (rs.next()) out.add(key(rs.getString(1), rs.getString(2)));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read " + dir.resolve("results.db") + ": " + e.getMessage(), e);
        }
        return out;
    }

    public static String key(String questionId, String method) { return questionId + "\t" + method; }

    /** Every stored record in the order first stored. */
    public synchronized List<ResultRecord> all() {
        List<ResultRecord> out = new ArrayList<>();
        forEach(null, null, out::add);
        return out;
    }

    /**
     * Hands each stored record of these questions and methods (null = all) to {@code each} in the order first stored,
     * one at a time: a summary or a report made this way holds no more records than it keeps.
     */
    public synchronized void forEach(Set<String> questionIds, Set<String> methods, Consumer<ResultRecord> each) {
        try (Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT question_id, method, record FROM results ORDER BY seq")) {
            while (rs.next()) {
                if (questionIds != null && !questionIds.contains(rs.getString(1))) continue;
                if (methods != null && !methods.contains(rs.getString(2))) continue;
                each.accept(Json.MAPPER.readValue(rs.getString(3), ResultRecord.class));
            }
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("cannot read " + dir.resolve("results.db") + ": " + e.getMessage(), e);
        }
    }

    /**
     * The stored records of these questions and methods as a list that reads each record from the database when it
     * is reached and keeps none: iterating it twice reads twice. Valid while the store is open.
     */
    public synchronized List<ResultRecord> view(Set<String> questionIds, Set<String> methods) {
        List<Long> seqs = new ArrayList<>();
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT seq, question_id, method FROM results ORDER BY seq")) {
            while (rs.next()) {
                if (questionIds != null && !questionIds.contains(rs.getString(2))) continue;
                if (methods != null && !methods.contains(rs.getString(3))) continue;
                seqs.add(rs.getLong(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read " + dir.resolve("results.db") + ": " + e.getMessage(), e);
        }
        long[] order = seqs.stream().mapToLong(Long::longValue).toArray();
        return new StoredRecords(this, db, dir.resolve("results.db"), order);
    }

    /** Keeps a question's report thumbnail (a data URL) with the results, so a resumed run need not decode its image again. */
    public synchronized void putThumbnail(String questionId, String dataUrl) {
        try (PreparedStatement p = db.prepareStatement("INSERT OR REPLACE INTO thumbnails (question_id, data_url) VALUES (?, ?)")) {
            p.setString(1, questionId);
            p.setString(2, dataUrl);
            p.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot store a thumbnail in " + dir.resolve("results.db") + ": " + e.getMessage(), e);
        }
    }

    /** The thumbnails kept for these questions, by question id. */
    public synchronized Map<String, String> thumbnails(Set<String> questionIds) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT question_id, data_url FROM thumbnails")) {
            while (rs.next()) if (questionIds.contains(rs.getString(1))) out.put(rs.getString(1), rs.getString(2));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read " + dir.resolve("results.db") + ": " + e.getMessage(), e);
        }
        return out;
    }

    /** Reads a finished run's records without opening it for writing. */
    public static List<ResultRecord> read(Path dir) {
        Path dbFile = dir.resolve("results.db");
        if (!Files.isRegularFile(dbFile)) throw new IllegalArgumentException(dir + " holds no results.db; is it a `gam eval` output directory?");
        try (ResultStore s = new ResultStore(dir)) {
            return s.all();
        }
    }

    /** True when results.jsonl misses a stored pair, holds a torn or superseded line, or is absent. */
    private boolean jsonlLags() throws SQLException, IOException {
        Map<String, String> stored = new HashMap<>();
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT question_id, method, outcome FROM results")) {
            while (rs.next()) stored.put(key(rs.getString(1), rs.getString(2)), rs.getString(3));
        }
        if (!Files.exists(jsonl)) return !stored.isEmpty();
        Map<String, String> lines = new HashMap<>();
        try (java.io.BufferedReader r = Files.newBufferedReader(jsonl, StandardCharsets.UTF_8)) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank()) continue;
                String[] key = keyOf(line);
                if (key == null) return true; // a line cut short by a kill
                if (lines.put(key(key[0], key[1]), key[2]) != null) return true; // a superseded attempt
            }
        }
        return !lines.equals(stored);
    }

    /**
     * A results line's question id, method and outcome, read without building its trace (a resumed run of thousands
     * of debates reads its JSONL line by line); null for a line that is not whole JSON.
     */
    private static String[] keyOf(String line) {
        String[] out = {"", "", ""};
        try (com.fasterxml.jackson.core.JsonParser p = Json.MAPPER.getFactory().createParser(line)) {
            if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT) return null;
            for (var t = p.nextToken(); t == com.fasterxml.jackson.core.JsonToken.FIELD_NAME; t = p.nextToken()) {
                String f = p.currentName();
                var v = p.nextToken();
                switch (f) {
                    case "questionId" -> out[0] = v.isScalarValue() ? p.getText() : "";
                    case "method" -> out[1] = v.isScalarValue() ? p.getText() : "";
                    case "outcome" -> out[2] = v.isScalarValue() ? p.getText() : "";
                    default -> p.skipChildren();
                }
            }
            return p.nextToken() == null ? out : null;
        } catch (IOException torn) {
            return null;
        }
    }

    /** Rewrites results.jsonl from the database (one line per pair, the latest attempt), atomically. */
    public synchronized void rebuildJsonl() {
        try {
            if (jsonlOut != null) jsonlOut.close();
            AtomicFiles.write(jsonl, out -> {
                Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
                try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT record FROM results ORDER BY seq")) {
                    // the stored JSON is the line: copied through, one record at a time
                    while (rs.next()) { w.write(rs.getString(1)); w.write(System.lineSeparator()); }
                } catch (SQLException e) {
                    throw new IllegalStateException("cannot read " + dir.resolve("results.db") + ": " + e.getMessage(), e);
                }
                w.flush();
            });
            if (jsonlOut != null) jsonlOut = Files.newBufferedWriter(jsonl, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            superseded = false;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rewrite " + jsonl + ": " + e.getMessage(), e);
        }
    }

    @Override public void close() {
        Thread w;
        synchronized (this) { w = writer; }
        if (w != null) {
            waiting.add(new Pending(null, null, null)); // commits what is queued, then the writer stops
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        closeFiles();
    }

    private synchronized void closeFiles() {
        try {
            if (superseded) rebuildJsonl();
            if (jsonlOut != null) jsonlOut.close();
            db.close();
        } catch (IOException | SQLException e) {
            throw new IllegalStateException("cannot close run directory " + dir + ": " + e.getMessage(), e);
        } finally {
            lock.close();
        }
    }
}
