package dev.gamagent.image;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class VideoFramesTest {
    @TempDir Path dir;

    /** A frame whose grey level encodes its number, so we can tell which frames were picked. */
    private static BufferedImage frame(int n) {
        BufferedImage img = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB);
        int g = n * 10;
        for (int y = 0; y < 8; y++) for (int x = 0; x < 8; x++) img.setRGB(x, y, (g << 16) | (g << 8) | g);
        return img;
    }

    private static int number(Picture p) { return (p.image().getRGB(4, 4) & 0xFF) / 10; }

    private Path frames(int count) throws IOException {
        Path d = Files.createDirectory(dir.resolve("clip"));
        for (int i = 0; i < count; i++) ImageIO.write(frame(i), "png", d.resolve("frame" + i + ".png").toFile());
        Files.writeString(d.resolve("notes.txt"), "not a frame");
        return d;
    }

    @Test void aFrameDirectoryIsReadInNaturalNameOrder() throws IOException {
        List<Picture> all = VideoFrames.load(frames(12), 100);
        assertThat(all).extracting(VideoFramesTest::number).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        assertThat(all.get(10).source()).isEqualTo("clip/frame10.png");
    }

    @Test void framesAreSampledUniformlyToTheLimit() throws IOException {
        List<Picture> four = VideoFrames.load(frames(20), 4);
        assertThat(four).extracting(VideoFramesTest::number).containsExactly(2, 7, 12, 17);
        assertThat(VideoFrames.sample(3, 8)).containsExactly(0, 1, 2);
        assertThat(VideoFrames.sample(10, 1)).containsExactly(5);
    }

    @Test void anEmptyFrameDirectorySaysWhatItExpected() throws IOException {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        assertThatThrownBy(() -> VideoFrames.load(empty, 8)).isInstanceOf(ImageException.class)
                .hasMessageContaining("no frame images").hasMessageContaining("png");
    }

    @Test void aMissingSourceIsNamed() {
        assertThatThrownBy(() -> VideoFrames.load(dir.resolve("gone.mp4"), 8)).hasMessageContaining("gone.mp4")
                .hasMessageContaining("no such video file or frame directory");
    }

    @Test void aBadFrameNamesTheFrameFile() throws IOException {
        Path d = frames(3);
        Files.write(d.resolve("frame1.png"), new byte[0]);
        assertThatThrownBy(() -> VideoFrames.load(d, 8)).hasMessageContaining("frame1.png").hasMessageContaining("empty");
    }

    @Test void aVideoFileWithoutFfmpegSaysToInstallItOrPassFrames() throws IOException {
        Path video = Files.write(dir.resolve("clip.mp4"), new byte[]{0, 0, 0, 24, 'f', 't', 'y', 'p'});
        VideoFrames noTools = new VideoFrames(dir.resolve("no-bin").toString(), new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS));
        assertThatThrownBy(() -> noTools.frames(video, 8)).hasMessageContaining("clip.mp4")
                .hasMessageContaining("needs ffmpeg").hasMessageContaining("install").hasMessageContaining("directory of frame images");
    }

    @Test void aVideoFileIsDecodedWithFfmpegWhenInstalled() throws Exception {
        Path ffmpeg = findOnPath("ffmpeg");
        assumeTrue(ffmpeg != null, "ffmpeg is not installed; the frame-directory path is tested above");
        Path video = dir.resolve("test.mp4");
        Process p = new ProcessBuilder(ffmpeg.toString(), "-nostdin", "-v", "error", "-f", "lavfi", "-i",
                "testsrc=duration=3:size=64x48:rate=10", "-c:v", "mpeg4", "-pix_fmt", "yuv420p", video.toString())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(log).isZero();
        List<Picture> frames = VideoFrames.load(video, 5);
        assertThat(frames).hasSize(5);
        assertThat(frames.get(0).width()).isEqualTo(64);
        assertThat(frames.get(0).source()).startsWith("test.mp4#frame_");
        // Not a video: ffmpeg fails and the error names the file.
        Path notVideo = Files.writeString(dir.resolve("fake.mp4"), "plain text");
        assertThatThrownBy(() -> VideoFrames.load(notVideo, 5)).hasMessageContaining("fake.mp4");
    }

    private static Path findOnPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (d.isBlank()) continue;
            Path p = Path.of(d, tool);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }
}
