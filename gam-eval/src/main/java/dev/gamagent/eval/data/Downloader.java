package dev.gamagent.eval.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Downloads one URL into a partial file, resuming where an earlier attempt stopped ({@code Range}); a
 * server that ignores the range sends the whole file, which then replaces the partial one. The caller
 * checks and moves the finished file. An interrupted transfer keeps what arrived and says how to resume.
 */
public final class Downloader {
    private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+|\\*)");
    private final HttpClient client;
    private final Duration timeout;

    public Downloader(Duration timeout) {
        this.client = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NORMAL).build();
        this.timeout = timeout;
    }

    /** Reports a download's progress. */
    public interface Progress {
        /** The transfer starts at {@code from} bytes (a resume when above 0) of {@code total} (-1 when unknown). */
        void started(long from, long total);

        /** {@code done} bytes of {@code total} are in the partial file. */
        void advanced(long done, long total);

        Progress NONE = new Progress() {
            @Override public void started(long from, long total) { }

            @Override public void advanced(long done, long total) { }
        };
    }

    /**
     * Fetches {@code uri} into {@code part}, appending to what it holds. Returns the bytes in {@code part};
     * throws a {@link DataException} naming the URL when the server refuses or the transfer breaks off (then
     * {@code part} keeps what arrived, for the next attempt to resume).
     */
    public long fetch(URI uri, Path part, Progress progress) {
        long have = sizeOf(part);
        HttpResponse<InputStream> r = send(uri, have);
        if (r.statusCode() == 416 && have > 0) {
            // the partial file is as long as the file or longer (the file changed on the server): start again
            close(r);
            truncate(part);
            have = 0;
            r = send(uri, 0);
        }
        int code = r.statusCode();
        if (code != 200 && code != 206) {
            close(r);
            throw new DataException("download of " + uri + " failed: HTTP " + code + (code == 404 ? " (not found)" : "")
                    + "; nothing was written" + (have > 0 ? " (the partial file " + part + " is kept)" : ""));
        }
        boolean append = false;
        long total = r.headers().firstValueAsLong("content-length").orElse(-1);
        if (code == 206) {
            Matcher m = CONTENT_RANGE.matcher(r.headers().firstValue("content-range").orElse(""));
            if (!m.matches() || Long.parseLong(m.group(1)) != have) {
                // a range we did not ask for: fetch the whole file instead
                close(r);
                truncate(part);
                have = 0;
                r = send(uri, 0);
                if (r.statusCode() != 200) {
                    close(r);
                    throw new DataException("download of " + uri + " failed: HTTP " + r.statusCode() + " when asked for the whole file");
                }
                total = r.headers().firstValueAsLong("content-length").orElse(-1);
            } else {
                append = true;
                total = m.group(3).equals("*") ? -1 : Long.parseLong(m.group(3));
            }
        }
        if (!append) truncate(part);
        long done = append ? have : 0;
        progress.started(done, total);
        try (InputStream in = r.body();
             FileChannel out = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            byte[] buf = new byte[1 << 16];
            int n;
            while ((n = in.read(buf)) > 0) {
                ByteBuffer b = ByteBuffer.wrap(buf, 0, n);
                while (b.hasRemaining()) out.write(b);
                done += n;
                progress.advanced(done, total);
            }
        } catch (IOException e) {
            throw new DataException(String.format(Locale.ROOT, "download of %s broke off after %s%s (%s); the partial file %s is kept: "
                    + "run the same command again to resume", uri, Bytes.format(done), total > 0 ? " of " + Bytes.format(total) : "",
                    e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), part), e);
        }
        if (total >= 0 && done < total) {
            throw new DataException("download of " + uri + " ended after " + Bytes.format(done) + " of " + Bytes.format(total)
                    + "; the partial file " + part + " is kept: run the same command again to resume");
        }
        return done;
    }

    private HttpResponse<InputStream> send(URI uri, long from) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout).GET().header("User-Agent", "gam-agent");
        if (from > 0) b.header("Range", "bytes=" + from + "-");
        try {
            return client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new DataException("cannot download " + uri + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                    + " (no network? point --data-mirror at a copy, or put the file in the data directory yourself)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DataException("download of " + uri + " was interrupted", e);
        }
    }

    private static void close(HttpResponse<InputStream> r) {
        try {
            r.body().close();
        } catch (IOException e) {
            // nothing to keep from a refused request
        }
    }

    private static long sizeOf(Path p) {
        try {
            return Files.isRegularFile(p) ? Files.size(p) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private static void truncate(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new DataException("cannot replace the partial file " + p + ": " + e.getMessage(), e);
        }
    }

    /** Byte counts for people. */
    public static final class Bytes {
        private Bytes() { }

        public static String format(long n) {
            if (n < 1024) return n + " B";
            if (n < 1024L * 1024) return String.format(Locale.ROOT, "%.1f KB", n / 1024.0);
            if (n < 1024L * 1024 * 1024) return String.format(Locale.ROOT, "%.1f MB", n / (1024.0 * 1024));
            return String.format(Locale.ROOT, "%.2f GB", n / (1024.0 * 1024 * 1024));
        }
    }

    /** Progress as lines on a stream: one at the start, then about every 10 % (or 64 MB when the size is unknown), and the end. */
    public static Progress lines(PrintStream out, String what) {
        return new Progress() {
            long nextReport;
            long step;

            @Override public void started(long from, long total) {
                step = total > 0 ? Math.max(1, total / 10) : 64L << 20;
                nextReport = from + step;
                out.println((from > 0 ? "resuming " + what + " at " + Bytes.format(from) : "downloading " + what)
                        + (total > 0 ? " (" + Bytes.format(total) + ")" : ""));
            }

            @Override public void advanced(long done, long total) {
                if (done < nextReport && done != total) return;
                nextReport = done + step;
                out.println("  " + what + ": " + Bytes.format(done) + (total > 0
                        ? String.format(Locale.ROOT, " of %s (%d%%)", Bytes.format(total), Math.round(100.0 * done / total)) : ""));
            }
        };
    }
}
