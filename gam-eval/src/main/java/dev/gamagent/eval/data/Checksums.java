package dev.gamagent.eval.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.util.AtomicFiles;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

/**
 * A benchmark file's md5 (what VLMEvalKit publishes) and sha256 (what we record where nothing is
 * published), read in one pass and remembered beside the file in {@code <file>.checksums.json} with the
 * size and modification time they belong to, so a multi-GB file is hashed again only when it changed.
 * The sidecar also keeps the sha256 the file had when gam first saw it (downloaded or found), the value
 * later runs are checked against when no md5 is published — unless the download came through a redirect off the
 * mirror's host, which is recorded as {@code untrusted} instead, so that no later run takes it for a baseline. A data
 * directory gam cannot write to is only read: the sums are then computed on every run. {@link #verify} reads the whole
 * file every time: the size and modification time only say when the remembered sums may be reused, never that the
 * content is unchanged (they can be restored after an edit).
 */
public final class Checksums {
    /** The suffix of the sidecar file. */
    public static final String SIDECAR = ".checksums.json";

    private Checksums() { }

    /**
     * A file's sums, and the sha256 recorded when gam first saw it ({@code firstSha256}, with how:
     * {@code firstSeen}), null when nothing was recorded; {@code untrusted} says why none may be (its download was
     * redirected off the mirror's host), else null.
     */
    public record Sums(long size, String md5, String sha256, String firstSha256, String firstSeen, boolean firstRecordedNow, String untrusted) {
        /** Sums without a reason to distrust them. */
        public Sums(long size, String md5, String sha256, String firstSha256, String firstSeen, boolean firstRecordedNow) {
            this(size, md5, sha256, firstSha256, firstSeen, firstRecordedNow, null);
        }

        /** Whether the file still has the sha256 it had when gam first saw it (true when nothing was recorded before). */
        public boolean sameAsFirst() { return firstSha256 == null || firstSha256.equals(sha256); }
    }

    /** The sidecar of {@code file}. */
    public static Path sidecar(Path file) { return file.resolveSibling(file.getFileName() + SIDECAR); }

    /**
     * The sums of {@code file}, from its sidecar when the size and modification time still match, else
     * computed (and stored). {@code firstSeen} describes how gam came by the file, recorded with its sha256
     * the first time.
     */
    public static Sums of(Path file, String firstSeen) { return of(file, firstSeen, true); }

    /** As {@link #of(Path, String)}; with {@code remember} false nothing is read from or written beside the file. */
    public static Sums of(Path file, String firstSeen, boolean remember) { return of(file, firstSeen, remember, true); }

    /**
     * The sums of {@code file} read from its whole content, never from the sidecar (whose current sums are replaced by
     * these; the first sha256 stays); what {@code gam data verify} checks with.
     */
    public static Sums verify(Path file, String firstSeen, boolean remember) { return of(file, firstSeen, remember, false); }

    private static Sums of(Path file, String firstSeen, boolean remember, boolean reuse) {
        try {
            long size = Files.size(file);
            long modified = Files.getLastModifiedTime(file).toMillis();
            Path side = sidecar(file);
            ObjectNode stored = remember ? read(side) : null;
            if (reuse && stored != null && stored.path("size").asLong(-1) == size && stored.path("modified").asLong(-1) == modified
                    && stored.hasNonNull("md5") && stored.hasNonNull("sha256")) {
                return new Sums(size, stored.get("md5").asText(), stored.get("sha256").asText(),
                        stored.path("first_sha256").asText(null), stored.path("first_seen").asText(null), false,
                        stored.path("untrusted").asText(null));
            }
            String[] h = hash(file);
            if (!remember) return new Sums(size, h[0], h[1], null, null, false);
            return record(file, size, modified, h[0], h[1], firstSeen, stored);
        } catch (IOException e) {
            throw new DataException("cannot read " + file + " to check it: " + e.getMessage(), e);
        }
    }

    /**
     * Records sums already computed (a download hashes what it wrote) as the file's current and first ones,
     * replacing an older sidecar; with {@code untrusted} (why the download cannot vouch for its content) they are
     * recorded as current only, and no later run records a first sha256 either.
     */
    public static Sums recordDownload(Path file, String md5, String sha256, String firstSeen, String untrusted) {
        try {
            ObjectNode fresh = Json.MAPPER.createObjectNode();
            if (untrusted != null) fresh.put("untrusted", untrusted + ", " + Instant.now());
            return record(file, Files.size(file), Files.getLastModifiedTime(file).toMillis(), md5, sha256, firstSeen, fresh);
        } catch (IOException e) {
            throw new DataException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static Sums record(Path file, long size, long modified, String md5, String sha256, String firstSeen, ObjectNode stored) {
        ObjectNode o = stored != null ? stored : Json.MAPPER.createObjectNode();
        o.put("size", size);
        o.put("modified", modified);
        o.put("md5", md5);
        o.put("sha256", sha256);
        String untrusted = o.path("untrusted").asText(null);
        boolean now = !o.hasNonNull("first_sha256") && untrusted == null;
        if (now) {
            o.put("first_sha256", sha256);
            o.put("first_seen", firstSeen + ", " + Instant.now());
        }
        write(sidecar(file), o);
        return new Sums(size, md5, sha256, o.path("first_sha256").asText(null), o.path("first_seen").asText(null), now, untrusted);
    }

    /** md5 and sha256 of a file, in one pass. */
    public static String[] hash(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md5 = MessageDigest.getInstance("MD5"), sha = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 20];
            int n;
            while ((n = in.read(buf)) > 0) {
                md5.update(buf, 0, n);
                sha.update(buf, 0, n);
            }
            return new String[]{HexFormat.of().formatHex(md5.digest()), HexFormat.of().formatHex(sha.digest())};
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java runtime lacks MD5 or SHA-256", e);
        }
    }

    private static ObjectNode read(Path side) {
        if (!Files.isRegularFile(side)) return null;
        try {
            JsonNode n = Json.MAPPER.readTree(side.toFile());
            return n instanceof ObjectNode o ? o : null;
        } catch (IOException e) {
            return null; // a torn or edited sidecar: compute again
        }
    }

    private static void write(Path side, ObjectNode o) {
        try {
            AtomicFiles.writeString(side, Json.writePretty(o));
        } catch (IOException | UnsupportedOperationException e) {
            // a read-only data directory: the sums are computed again next time
        }
    }
}
