package dev.gamagent.eval.store;

import dev.gamagent.util.Json;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's stored records as a list, not held in memory: each read from {@code results.db} by its sequence number when
 * asked for, iteration reading them in batches of {@value #BATCH} ({@link ResultStore#view}).
 */
final class StoredRecords extends java.util.AbstractList<ResultRecord> implements java.util.RandomAccess {
    private static final int BATCH = 256;
    /** The store, whose lock every read of its connection holds. */
    private final Object store;
    private final Connection db;
    private final Path dbFile;
    private final long[] seqs;

    StoredRecords(Object store, Connection db, Path dbFile, long[] seqs) {
        this.store = store;
        this.db = db;
        this.dbFile = dbFile;
        this.seqs = seqs;
    }

    @Override public int size() { return seqs.length; }

    @Override public ResultRecord get(int i) { return batch(i, 1).get(0); }

    @Override public java.util.Iterator<ResultRecord> iterator() {
        return new java.util.Iterator<>() {
            private int next;
            private List<ResultRecord> batch = List.of();
            private int inBatch;

            @Override public boolean hasNext() { return next < seqs.length; }

            @Override public ResultRecord next() {
                if (next >= seqs.length) throw new java.util.NoSuchElementException();
                if (inBatch == batch.size()) {
                    batch = batch(next, Math.min(BATCH, seqs.length - next));
                    inBatch = 0;
                }
                next++;
                return batch.get(inBatch++);
            }
        };
    }

    @Override public java.util.Spliterator<ResultRecord> spliterator() {
        return java.util.Spliterators.spliterator(iterator(), seqs.length, java.util.Spliterator.ORDERED | java.util.Spliterator.SIZED);
    }

    /** Records {@code from .. from + n - 1} of this list, read in one query. */
    private List<ResultRecord> batch(int from, int n) {
        synchronized (store) {
            Map<Long, String> json = new HashMap<>();
            StringBuilder in = new StringBuilder();
            for (int k = 0; k < n; k++) in.append(k == 0 ? "" : ",").append(seqs[from + k]);
            try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT seq, record FROM results WHERE seq IN (" + in + ")")) {
                while (rs.next()) json.put(rs.getLong(1), rs.getString(2));
                List<ResultRecord> out = new ArrayList<>(n);
                for (int k = 0; k < n; k++) {
                    String j = json.get(seqs[from + k]);
                    if (j == null) throw new IllegalStateException("record " + seqs[from + k] + " is no longer in " + dbFile);
                    out.add(Json.MAPPER.readValue(j, ResultRecord.class));
                }
                return out;
            } catch (SQLException | IOException e) {
                throw new IllegalStateException("cannot read " + dbFile + ": " + e.getMessage(), e);
            }
        }
    }
}
