package dev.gamagent.eval.load;

import dev.gamagent.config.Config;
import dev.gamagent.util.AtomicFiles;
import dev.gamagent.util.HttpUrl;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A benchmark row's {@code video} given as an http(s) URL: fetched once, when its question first starts, into a folder
 * beside the frame cache ({@code <frame cache>/url-videos/}: the file under its content's sha256, and a small file per
 * URL naming it), then decoded as a file (its frames cached by that hash, as any video's). The policy is the one the
 * project has for remote images (gam serve's): hosts from {@code server.allowed_image_hosts} only (none by default; an
 * entry starting with '.' matches subdomains; redirects are not followed), at most {@code server.max_body_mb} bytes,
 * and the whole fetch, connection to last byte, within {@code server.image_fetch_timeout_s}. A host not allowed, an
 * answer other than 200, a larger file or a fetch past its deadline makes the row a named bad row.
 *
 * @param hosts    the allowed hosts, lower case
 * @param maxBytes the largest video accepted
 * @param deadline the whole fetch of one video
 */
public record VideoUrls(List<String> hosts, long maxBytes, Duration deadline) {
    /** The server's defaults (defaults.json: no host, 20 MB, 30 s). */
    public static final VideoUrls NONE = from(Config.defaults());
    /** The folder under the frame cache's root that fetched videos go to. */
    public static final String FOLDER = "url-videos";

    /** The fetches under way among the questions of one run: a lock per URL, so that each URL is fetched once at a time. */
    public static final class InFlight {
        private final ConcurrentHashMap<String, Object> locks = new ConcurrentHashMap<>();
    }

    public VideoUrls {
        hosts = hosts == null ? List.of() : hosts.stream().map(h -> h.strip().toLowerCase(Locale.ROOT)).filter(h -> !h.isEmpty()).toList();
        if (maxBytes <= 0) maxBytes = NONE.maxBytes();
        if (deadline == null || deadline.isZero() || deadline.isNegative()) deadline = NONE.deadline();
    }

    /** The policy config gives: {@code server.allowed_image_hosts}, {@code server.max_body_mb}, {@code server.image_fetch_timeout_s}. */
    public static VideoUrls from(Config config) {
        dev.gamagent.config.internal.RemoteMedia media = dev.gamagent.config.internal.RemoteMedia.from(config);
        return new VideoUrls(media.hosts().entries(), media.maxBytes(), media.fetchTimeout());
    }

    /** Whether a row's {@code video} value is a URL (http or https) rather than a path. */
    public static boolean isUrl(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        return v.startsWith("http://") || v.startsWith("https://");
    }

    /** Whether the policy lets videos come from {@code host}. */
    public boolean allowed(String host) { return new dev.gamagent.util.HostPolicy(hosts).allows(host); }

    /** The URL a row names, checked against the policy without fetching it (the index pass: a refused host is a bad row at once). */
    URI check(String value) {
        HttpUrl u;
        try {
            u = HttpUrl.parse(value);
        } catch (HttpUrl.Invalid e) {
            throw new BadRowException("'video' URL: " + e.getMessage());
        }
        if (!allowed(u.host())) {
            throw new BadRowException("'video' URL " + u.uri() + ": host " + u.host() + " is not allowed "
                    + (hosts.isEmpty() ? "(no host is: list it in config server.allowed_image_hosts)" : "(config server.allowed_image_hosts: " + hosts + ")"));
        }
        return u.uri();
    }

    /**
     * The local copy of the video at {@code value}: fetched into {@code cacheRoot/url-videos} the first time, found there
     * afterwards (by URL, then by content hash). One fetch per URL at a time among the questions sharing {@code inFlight}
     * (a run's).
     */
    Path fetch(String value, Path cacheRoot, InFlight inFlight) {
        URI uri = check(value);
        Path dir = cacheRoot.resolve(FOLDER);
        Path byUrl = dir.resolve("url-" + sha256(uri.toString().getBytes(StandardCharsets.UTF_8)));
        Object lock = inFlight.locks.computeIfAbsent(byUrl.toString(), k -> new Object());
        synchronized (lock) {
            try {
                if (Files.isRegularFile(byUrl)) {
                    Path known = dir.resolve(Files.readString(byUrl).strip());
                    if (Files.isRegularFile(known)) return known;
                }
                Files.createDirectories(dir);
                return download(uri, dir, byUrl);
            } catch (IOException e) {
                throw new BadRowException("'video' URL " + uri + ": cannot be kept in " + dir + " (" + e.getMessage() + ")");
            } finally {
                inFlight.locks.remove(byUrl.toString(), lock);
            }
        }
    }

    private Path download(URI uri, Path dir, Path byUrl) throws IOException {
        Path part = Files.createTempFile(dir, "fetch-", ".part");
        try {
            Duration connect = deadline.compareTo(Duration.ofSeconds(10)) < 0 ? deadline : Duration.ofSeconds(10);
            HttpClient client = HttpClient.newBuilder().connectTimeout(connect).followRedirects(HttpClient.Redirect.NEVER).build();
            HttpRequest req = HttpRequest.newBuilder(uri).timeout(deadline).GET().build();
            java.util.concurrent.atomic.AtomicReference<InputStream> stream = new java.util.concurrent.atomic.AtomicReference<>();
            CompletableFuture<String> body = client.sendAsync(req, HttpResponse.BodyHandlers.ofInputStream())
                    .thenApply(r -> {
                        stream.set(r.body());
                        return save(uri, r, part);
                    });
            String sha;
            try {
                sha = body.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                body.cancel(true);
                InputStream in = stream.get();
                if (in != null) in.close(); // ends the read where it is
                throw new BadRowException("'video' URL " + uri + " was not fetched within " + seconds(deadline)
                        + " (config server.image_fetch_timeout_s)");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while fetching " + uri, e);
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                if (c instanceof BadRowException b) throw b;
                if (c instanceof HttpTimeoutException) {
                    throw new BadRowException("'video' URL " + uri + " did not answer within " + seconds(deadline)
                            + " (config server.image_fetch_timeout_s)");
                }
                throw new BadRowException("'video' URL " + uri + " cannot be fetched: " + (c.getMessage() != null ? c.getMessage() : c));
            }
            String name = sha + extension(uri);
            Path target = dir.resolve(name);
            if (!Files.exists(target)) AtomicFiles.move(part, target);
            AtomicFiles.writeString(byUrl, name);
            return target;
        } finally {
            Files.deleteIfExists(part);
        }
    }

    /** Writes a 200 answer's body to {@code part} within the size cap; its sha256. */
    private String save(URI uri, HttpResponse<InputStream> r, Path part) {
        try (InputStream in = r.body()) {
            if (r.statusCode() != 200) {
                throw new BadRowException("'video' URL " + uri + " answered HTTP " + r.statusCode());
            }
            long declared = r.headers().firstValueAsLong("content-length").orElse(-1);
            if (declared > maxBytes) throw tooLarge(uri, declared);
            MessageDigest md = digest();
            long total = 0;
            byte[] buf = new byte[64 * 1024];
            try (OutputStream out = Files.newOutputStream(part)) {
                for (int n; (n = in.read(buf)) > 0; ) {
                    total += n;
                    if (total > maxBytes) throw tooLarge(uri, total);
                    md.update(buf, 0, n);
                    out.write(buf, 0, n);
                }
            }
            if (total == 0) throw new BadRowException("'video' URL " + uri + " answered an empty body");
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private BadRowException tooLarge(URI uri, long bytes) {
        return new BadRowException(String.format(Locale.ROOT, "'video' URL %s is larger than the limit of %.1f MB (%s%d bytes; "
                + "config server.max_body_mb)", uri, maxBytes / (1024.0 * 1024), bytes > maxBytes ? "at least " : "", bytes));
    }

    /** The URL path's video extension (ffmpeg reads by content, the extension only helps people), or none. */
    private static String extension(URI uri) {
        String p = uri.getPath() == null ? "" : uri.getPath();
        int dot = p.lastIndexOf('.'), slash = p.lastIndexOf('/');
        if (dot <= slash) return "";
        String ext = p.substring(dot).toLowerCase(Locale.ROOT);
        return ext.matches("\\.[a-z0-9]{1,5}") ? ext : "";
    }

    private static String seconds(Duration d) { return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() / 1000.0 + " s"; }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(byte[] b) { return HexFormat.of().formatHex(digest().digest(b)); }
}
