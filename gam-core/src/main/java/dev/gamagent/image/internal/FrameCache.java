package dev.gamagent.image.internal;

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
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import dev.gamagent.image.ImageException;

/**
 * Decoded video frames on disk, so a video is decoded once however many questions, methods and runs use
 * it. Keyed by the SHA-256 of the file's bytes (a renamed or copied video hits the cache; an edited one
 * does not) and the frame number: {@code <root>/<sha256>/frame-<number>.jpg}, beside {@code info.json}
 * (what ffprobe said, so a cache hit runs no subprocess). Every selection of frames (a count, bounds, a
 * rate) takes the frames it has in common with earlier ones from here and decodes only the others.
 * A frame is written into a work directory and moved into place in one step, so readers never see half a
 * file and several processes may share the cache. Nothing is evicted: delete the directory to reclaim it.
 */
public final class FrameCache {
    private static final int HASH_MEMO = 4096;

    private final Path root;
    /** path|size|mtime → sha256, so a file is not read again to hash it while it is unchanged. */
    private final Map<String, String> hashes = new LinkedHashMap<>(64, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<String, String> e) { return size() > HASH_MEMO; }
    };

    public FrameCache(Path root) { this.root = root.toAbsolutePath(); }

    /** {@code $XDG_CACHE_HOME/gam-agent/frames}, else {@code ~/.cache/gam-agent/frames}. */
    public static Path defaultRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("gam-agent").resolve("frames");
    }

    public Path root() { return root; }

    /** The SHA-256 of the file's bytes, in hex (read once while the file's size and modification time stay the same). */
    public String hash(Path file) {
        String memoKey;
        try {
            memoKey = file.toAbsolutePath() + "|" + Files.size(file) + "|" + Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            throw new ImageException(file + ": cannot be read (" + e.getMessage() + ")", e);
        }
        synchronized (hashes) {
            String h = hashes.get(memoKey);
            if (h != null) return h;
        }
        String h = sha256(file);
        synchronized (hashes) {
            hashes.put(memoKey, h);
        }
        return h;
    }

    private static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            throw new ImageException(file + ": cannot be read (" + e.getMessage() + ")", e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** Where the frames of the video with this hash live. */
    public Path dir(String hash) { return root.resolve(hash); }

    /** The cached frame {@code number} of the video with this hash (it may not exist yet). */
    public Path frame(String hash, int number) { return dir(hash).resolve(String.format("frame-%08d.jpg", number)); }

    /** What ffprobe said about the video with this hash, when it has been asked before. */
    public Optional<VideoInfo> info(String hash) {
        Path f = dir(hash).resolve("info.json");
        if (!Files.isRegularFile(f)) return Optional.empty();
        try {
            JsonNode n = Json.MAPPER.readTree(f.toFile());
            return Optional.of(new VideoInfo(n.path("frames").asInt(), n.path("fps").asDouble(), n.path("width").asInt(),
                    n.path("height").asInt(), n.path("codec").asText(""), n.path("format").asText("")));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // unreadable: probe again and overwrite it
        }
    }

    public void putInfo(String hash, VideoInfo info) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("frames", info.frames()).put("fps", info.fps()).put("width", info.width()).put("height", info.height())
                .put("codec", info.codec()).put("format", info.format());
        try {
            Path dir = Files.createDirectories(dir(hash));
            AtomicFiles.writeString(dir.resolve("info.json"), Json.write(n));
        } catch (IOException e) {
            throw new ImageException("cannot write to the frame cache " + root + " (" + e.getMessage() + "); "
                    + "make it writable or choose another directory", e);
        }
    }

    /** A fresh directory beside the frames of {@code hash} for a decoder to write into. */
    Path workDir(String hash) {
        try {
            return Files.createDirectories(dir(hash).resolve("work-" + UUID.randomUUID()));
        } catch (IOException e) {
            throw new ImageException("cannot write to the frame cache " + root + " (" + e.getMessage() + "); "
                    + "make it writable or choose another directory", e);
        }
    }

    /** Moves a decoded frame into place in one step (replacing a copy another process may have put there). */
    void store(Path decoded, String hash, int number) {
        try {
            AtomicFiles.move(decoded, frame(hash, number));
        } catch (IOException e) {
            throw new ImageException("cannot write to the frame cache " + root + " (" + e.getMessage() + ")", e);
        }
    }
}
