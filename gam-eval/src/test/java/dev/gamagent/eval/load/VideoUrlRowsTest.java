package dev.gamagent.eval.load;

import com.sun.net.httpserver.HttpServer;
import dev.gamagent.config.Config;
import dev.gamagent.eval.EvalRunner;
import dev.gamagent.image.internal.FrameCache;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.gamagent.image.internal.VideoFrames;
import dev.gamagent.testing.TestVideos;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A benchmark row whose {@code video} is an http(s) URL: checked against the remote-image policy when the file is
 * indexed, fetched once when its question starts into the frame cache's side, then decoded as a file; a 404, a file
 * over the size cap and a host not allowed are named bad rows. Served from 127.0.0.1 on an ephemeral port.
 */
class VideoUrlRowsTest {
    @TempDir Path dir;
    private HttpServer server;
    private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
    private String base;
    private long clipBytes;

    @BeforeEach void serve() throws Exception {
        Path clip = TestVideos.make(Files.createDirectories(dir.resolve("served")).resolve("clip.mp4"), TestVideos.Kind.MP4_H264, 24, 8);
        byte[] bytes = Files.readAllBytes(clip);
        clipBytes = bytes.length;
        byte[] big = new byte[(int) clipBytes * 4];
        System.arraycopy(bytes, 0, big, 0, bytes.length);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            String path = ex.getRequestURI().getPath();
            hits.computeIfAbsent(path, k -> new AtomicInteger()).incrementAndGet();
            byte[] body = switch (path) {
                case "/clip.mp4", "/again/clip.mp4" -> bytes;
                case "/big.mp4" -> big;
                default -> null;
            };
            if (body == null) {
                ex.sendResponseHeaders(404, -1);
            } else {
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
            }
            ex.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach void stop() { if (server != null) server.stop(0); }

    private Images images(Path cache) {
        // twice the clip's size: the clip passes, big.mp4 (4×) does not
        Config c = Config.defaults().withOverrides(Map.of("server.allowed_image_hosts", "[\"127.0.0.1\"]",
                "server.max_body_mb", Double.toString(2.0 * clipBytes / (1024 * 1024))));
        ImageLoader loader = new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS);
        return new Images(loader, 0, "image.max_question_megapixels", null,
                new Videos(new VideoFrames(System.getenv("PATH"), loader, new FrameCache(cache)), 0, null, VideoUrls.from(c)));
    }

    private Path benchmark() throws Exception {
        StringBuilder s = new StringBuilder();
        String[][] rows = {{"1", base + "/clip.mp4"}, {"2", base + "/missing.mp4"}, {"3", base + "/big.mp4"},
                {"4", "http://localhost:" + server.getAddress().getPort() + "/clip.mp4"}, {"5", base + "/again/clip.mp4"}};
        for (String[] r : rows) {
            s.append("{\"index\": \"").append(r[0]).append("\", \"video\": \"").append(r[1])
                    .append("\", \"question\": \"Which way does it move?\", \"A\": \"left\", \"B\": \"right\", \"answer\": \"A\"}\n");
        }
        return Files.writeString(dir.resolve("videos.jsonl"), s);
    }

    @Test void anAllowedUrlIsFetchedOnceIntoTheCacheAndDecodedAsAFile() throws Exception {
        Path cache = dir.resolve("frames");
        Path file = benchmark();
        Dataset d = BenchmarkLoader.load(file, RowFilter.ALL, images(cache));
        // the host not allowed is refused when the file is indexed, nothing fetched
        Map<String, String> skipped = d.skipped().stream().collect(Collectors.toMap(SkippedRow::index, SkippedRow::reason));
        assertThat(skipped).containsOnlyKeys("4");
        assertThat(skipped.get("4")).contains("host localhost is not allowed", "server.allowed_image_hosts");
        assertThat(hits).isEmpty();

        EvalQuestion q1 = d.questions().stream().filter(q -> q.id().equals("1")).findFirst().orElseThrow();
        List<Picture> frames = q1.question().images();
        assertThat(frames).hasSize(Videos.DEFAULT_FRAMES);
        assertThat(frames.stream().map(p -> TestVideos.number(p.image())).toList()).containsExactly(1, 4, 7, 10, 13, 15, 18, 21);
        q1.question();
        // a second load of the benchmark (another run) finds the fetched file on disk
        Dataset again = BenchmarkLoader.load(file, RowFilter.ALL, images(cache));
        again.questions().get(0).question();
        assertThat(hits.get("/clip.mp4").get()).isEqualTo(1);
        try (var s = Files.list(cache.resolve(VideoUrls.FOLDER))) {
            assertThat(s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".mp4")).toList()).hasSize(1).allMatch(n -> n.matches("[0-9a-f]{64}\\.mp4"));
        }
        // another URL with the same content is fetched (by URL), kept once (by content hash)
        EvalQuestion q5 = d.questions().stream().filter(q -> q.id().equals("5")).findFirst().orElseThrow();
        assertThat(q5.question().images()).hasSize(8);
        try (var s = Files.list(cache.resolve(VideoUrls.FOLDER))) {
            assertThat(s.filter(p -> p.getFileName().toString().endsWith(".mp4")).count()).isEqualTo(1);
        }
        // the dry run's sizes of a URL row: the fetched file's stream, 8 frames
        assertThat(q1.imageSizes()).hasSize(8).allSatisfy(h -> assertThat(h.width()).isEqualTo(frames.get(0).width()));
    }

    @Test void a404AndAnOversizedVideoAreNamedBadRows() throws Exception {
        Dataset d = BenchmarkLoader.load(benchmark(), RowFilter.ALL, images(dir.resolve("frames")));
        EvalQuestion missing = d.questions().stream().filter(q -> q.id().equals("2")).findFirst().orElseThrow();
        EvalQuestion big = d.questions().stream().filter(q -> q.id().equals("3")).findFirst().orElseThrow();
        assertThatThrownBy(missing::question).isInstanceOf(BadRowException.class)
                .hasMessageContaining(base + "/missing.mp4 answered HTTP 404")
                .satisfies(e -> assertThat(EvalRunner.isBadInput((RuntimeException) e)).isTrue());
        assertThatThrownBy(big::question).isInstanceOf(BadRowException.class)
                .hasMessageContaining(base + "/big.mp4 is larger than the limit of").hasMessageContaining("server.max_body_mb")
                .satisfies(e -> assertThat(EvalRunner.isBadInput((RuntimeException) e)).isTrue());
        // nothing of them is kept
        try (var s = Files.list(dir.resolve("frames").resolve(VideoUrls.FOLDER))) {
            assertThat(s.toList()).isEmpty();
        }
    }

    @Test void withoutAnAllowedHostNoUrlIsFetched() throws Exception {
        Dataset d = BenchmarkLoader.load(benchmark(), RowFilter.ALL, Images.defaults());
        assertThat(d.questions()).isEmpty();
        assertThat(d.skipped()).hasSize(5).allSatisfy(r -> assertThat(r.reason()).contains("no host is: list it in config server.allowed_image_hosts"));
        assertThat(hits).isEmpty();
    }
}
