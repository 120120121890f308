package dev.gamagent.image.internal;

import dev.gamagent.testing.TestVideos;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.gamagent.image.ImageException;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;

/** Decoding with the real ffmpeg (the tests fail without it; ./test installs it) and frame directories. */
class VideoFramesTest {
    /** Frame files sort by NaturalOrder; names equal there (leading zeros only) fall back to text order, so the order is total. */
    @Test
    void frameNamesSortNaturallyWithTiesInTextOrder() {
        List<String> names = new ArrayList<>(List.of("frame10.jpg", "frame1.jpg", "frame2.jpg", "frame01.jpg"));
        names.sort(VideoFrames::compareNatural);
        assertThat(names).containsExactly("frame01.jpg", "frame1.jpg", "frame2.jpg", "frame10.jpg");
        for (String a : names) {
            for (String b : names) {
                int n = dev.gamagent.util.NaturalOrder.compare(a, b);
                assertThat(Integer.signum(VideoFrames.compareNatural(a, b))).isEqualTo(n != 0 ? Integer.signum(n) : Integer.signum(a.compareTo(b)));
            }
        }
    }

    @TempDir Path dir;

    private VideoFrames frames() { return frames(System.getenv("PATH")); }

    private VideoFrames frames(String searchPath) {
        return new VideoFrames(searchPath, new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS), new FrameCache(dir.resolve("cache")));
    }

    private static List<Integer> numbers(List<Picture> pictures) {
        return pictures.stream().map(p -> TestVideos.number(p.image())).toList();
    }

    private Path clip() throws IOException {
        Path d = TestVideos.frameDir(dir.resolve("clip"), 20, 0, "frame%d.png");
        Files.writeString(d.resolve("notes.txt"), "not a frame");
        return d;
    }

    @Test void aFrameDirectoryIsReadInNaturalNameOrder() throws IOException {
        List<Picture> all = frames().frames(clip(), 100);
        assertThat(all.get(10).isDecoded()).as("frames are kept as their bytes until something needs pixels").isFalse();
        assertThat(numbers(all)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19);
        assertThat(all.get(10).source()).isEqualTo("clip/frame10.png");
    }

    @Test void aFrameDirectoryIsSampledAsVlmEvalKitSamplesAVideo() throws IOException {
        assertThat(numbers(frames().frames(clip(), 4))).containsExactly(2, 7, 12, 16);
        assertThat(numbers(frames().frames(clip(), FrameSelection.uniform(4).within(1.0, 5.0)))).as("3 fps: frames 3..15").containsExactly(4, 7, 10, 13);
    }

    @Test void anMvBenchFrameFolderCountsItsFramesFromOne() throws IOException {
        Path tvqa = TestVideos.frameDir(dir.resolve("tvqa"), 10, 1, "%05d.jpg");
        List<Picture> got = frames().frames(tvqa, FrameSelection.uniform(8).folder(3, 1));
        // frame numbers 1, 2, 3, 4, 5, 7, 8, 9 (see FrameSelectionTest) are files 00001.jpg ... (frames 0 ...)
        assertThat(numbers(got)).containsExactly(0, 1, 2, 3, 4, 6, 7, 8);
        assertThat(got.get(0).source()).isEqualTo("tvqa/00001.jpg");
    }

    @Test void aFrameDirectoryHasNothingToProbe() throws IOException {
        Path d = clip();
        assertThatThrownBy(() -> frames().probe(d)).isInstanceOf(ImageException.class).hasMessageContaining("no video stream to probe");
    }

    @Test void anEmptyFrameDirectorySaysWhatItExpected() throws IOException {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        assertThatThrownBy(() -> frames().frames(empty, 8)).isInstanceOf(ImageException.class)
                .hasMessageContaining("no frame images").hasMessageContaining("png");
    }

    @Test void aMissingSourceIsNamed() {
        assertThatThrownBy(() -> frames().frames(dir.resolve("gone.mp4"), 8)).hasMessageContaining("gone.mp4")
                .hasMessageContaining("no such video file or frame directory");
    }

    @Test void aBadFrameNamesTheFrameFile() throws IOException {
        Path d = clip();
        Files.write(d.resolve("frame1.png"), new byte[0]);
        assertThatThrownBy(() -> frames().frames(d, 100)).hasMessageContaining("frame1.png").hasMessageContaining("empty");
    }

    @Test void aVideoFileWithoutFfmpegIsOneLineSayingWhatToInstall() throws IOException {
        Path video = Files.write(dir.resolve("clip.mp4"), new byte[]{0, 0, 0, 24, 'f', 't', 'y', 'p'});
        VideoFrames noTools = frames(dir.resolve("no-bin").toString());
        assertThat(noTools.decoderAvailable()).isFalse();
        assertThatThrownBy(() -> noTools.frames(video, 8)).isInstanceOf(ImageException.class)
                .hasMessageContaining("clip.mp4").hasMessageContaining("needs ffmpeg").hasMessageContaining("apt-get install ffmpeg")
                .hasMessageContaining("directory of frame images").hasMessageNotContaining("\n");
        assertThatThrownBy(() -> noTools.check(video)).hasMessageContaining("needs ffmpeg");
    }

    @ParameterizedTest @EnumSource(TestVideos.Kind.class)
    void everyContainerDecodesToTheFramesVlmEvalKitWouldTake(TestVideos.Kind kind) throws Exception {
        Path video = TestVideos.make(dir.resolve("test." + kind.extension()), kind, 30, 10);
        VideoFrames vf = frames();
        VideoInfo info = vf.probe(video);
        assertThat(info.frames()).isEqualTo(30);
        assertThat(info.fps()).isEqualTo(10.0);
        assertThat(info.width()).isEqualTo(32);
        List<Picture> five = vf.frames(video, 5);
        // get_index(None, 10, 29, 5) = [2, 8, 14, 19, 25]
        assertThat(numbers(five)).containsExactly(2, 8, 14, 19, 25);
        // named by the video's frame number and its time (frame / fps), which prompts and the trace viewer show
        assertThat(five).extracting(Picture::source).containsExactly("test." + kind.extension() + "#frame-2@0.2s",
                "test." + kind.extension() + "#frame-8@0.8s", "test." + kind.extension() + "#frame-14@1.4s",
                "test." + kind.extension() + "#frame-19@1.9s", "test." + kind.extension() + "#frame-25@2.5s");
        assertThat(five.get(0).width()).isEqualTo(32);
        assertThat(numbers(vf.frames(video, FrameSelection.uniform(4).within(0.25, 2.25)))).containsExactly(4, 9, 14, 19);
        assertThat(numbers(vf.frames(video, FrameSelection.rate(2)))).containsExactly(0, 5, 10, 15, 20, 25);
    }

    @Test void aDecodedVideoIsCachedByItsBytesSoASecondAskRunsNoDecoder() throws Exception {
        Path video = TestVideos.make(dir.resolve("a.mp4"), TestVideos.Kind.MP4_H264, 30, 10);
        Path tools = TestVideos.countingTools(dir.resolve("bin"));
        VideoFrames vf = frames(tools.toString());
        assertThat(numbers(vf.frames(video, 8))).hasSize(8);
        assertThat(TestVideos.calls(tools)).containsExactly("ffprobe", "ffmpeg");

        assertThat(numbers(vf.frames(video, 8))).hasSize(8);
        Path copy = Files.copy(video, dir.resolve("renamed.mp4"));
        List<Picture> again = frames(tools.toString()).frames(copy, 8);
        assertThat(again.get(0).source()).startsWith("renamed.mp4#frame-");
        assertThat(TestVideos.calls(tools)).as("the same bytes, another name, a new instance: all from the cache").hasSize(2);

        // another selection runs one more decode, for only the frames the cache does not hold yet
        List<Integer> sixteen = numbers(vf.frames(video, 16));
        assertThat(sixteen).hasSize(16);
        assertThat(TestVideos.calls(tools)).containsExactly("ffprobe", "ffmpeg", "ffmpeg");
        try (var s = Files.list(vf.cache().dir(vf.cache().hash(video)))) {
            assertThat(s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("work-")).toList())
                    .as("no work directory is left behind").isEmpty();
        }
    }

    @Test void threadsAskingForOneVideoAtOnceWaitForOneDecode() throws Exception {
        Path video = TestVideos.make(dir.resolve("shared.webm"), TestVideos.Kind.WEBM_VP9, 30, 10);
        Path tools = TestVideos.countingTools(dir.resolve("bin"));
        VideoFrames vf = frames(tools.toString());
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<List<Integer>>> all = new ArrayList<>();
            for (int i = 0; i < 6; i++) all.add(pool.submit(() -> numbers(vf.frames(video, 5))));
            for (var f : all) assertThat(f.get()).containsExactly(2, 8, 14, 19, 25);
        } finally {
            pool.shutdownNow();
        }
        assertThat(TestVideos.calls(tools)).containsExactly("ffprobe", "ffmpeg");
    }

    @Test void aFileThatIsNotAVideoIsANamedError() throws IOException {
        Path notVideo = Files.writeString(dir.resolve("fake.mp4"), "plain text, not a video");
        assertThatThrownBy(() -> frames().frames(notVideo, 5)).isInstanceOf(ImageException.class)
                .hasMessageContaining("fake.mp4").hasMessageContaining("cannot read it as a video").hasMessageNotContaining("\n");
        Path empty = Files.write(dir.resolve("empty.webm"), new byte[0]);
        assertThatThrownBy(() -> frames().frames(empty, 5)).hasMessageContaining("empty.webm").hasMessageContaining("empty file");
    }

    @Test void aTruncatedVideoGivesTheFramesItHoldsOrANamedError() throws Exception {
        Path whole = TestVideos.make(dir.resolve("whole.webm"), TestVideos.Kind.WEBM_VP9, 30, 10);
        byte[] bytes = Files.readAllBytes(whole);
        Path cut = Files.write(dir.resolve("cut.webm"), java.util.Arrays.copyOf(bytes, bytes.length * 2 / 3));
        List<Picture> got;
        try {
            got = frames().frames(cut, 5);
        } catch (ImageException e) {
            assertThat(e.getMessage()).contains("cut.webm");
            return;
        }
        // what the container still lists decodes: the frames are in order and each is a frame of the clip
        List<Integer> n = numbers(got);
        assertThat(n).isSorted().allMatch(i -> i >= 0 && i < 30);
    }

    @Test void aDamagedVideoThatDoesNotDecodeIsANamedError() throws Exception {
        Path video = TestVideos.make(dir.resolve("damaged.mp4"), TestVideos.Kind.MP4_H264, 30, 10);
        byte[] b = Files.readAllBytes(video);
        int mdat = new String(b, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf("mdat");
        int size = java.nio.ByteBuffer.wrap(b, mdat - 4, 4).getInt();
        for (int i = mdat + 4; i < mdat - 4 + size; i++) b[i] = (byte) (i * 37); // every frame's data overwritten, the index kept
        Files.write(video, b);
        assertThatThrownBy(() -> frames().frames(video, 5)).isInstanceOf(ImageException.class)
                .hasMessageContaining("damaged.mp4").hasMessageContaining("ffmpeg cannot decode it").hasMessageNotContaining("\n");
    }

    @Test void whenTheContainerListsMoreFramesThanDecodeTheDecodableOnesAreCountedAndChosenFrom() throws Exception {
        Path video = TestVideos.make(dir.resolve("overstated.mp4"), TestVideos.Kind.MP4_H264, 30, 10);
        // an ffprobe that reports 34 packets for this 30-frame video, as a container with broken packets would
        Path tools = TestVideos.countingTools(dir.resolve("bin"));
        Path probe = tools.resolve("ffprobe");
        Files.writeString(probe, "#!/bin/sh\necho ffprobe >> '" + tools.resolve("calls.log") + "'\n'" + TestVideos.ffprobe()
                + "' \"$@\" | sed 's/\"nb_read_packets\": \"30\"/\"nb_read_packets\": \"34\"/'\n");
        VideoFrames vf = frames(tools.toString());
        // get_index(None, 10, 33, 8) would ask for frames 27 and 31, beyond the last; over the 30 that decode:
        assertThat(numbers(vf.frames(video, 8))).containsExactly(1, 5, 8, 12, 15, 19, 23, 26);
        assertThat(vf.cache().info(vf.cache().hash(video)).orElseThrow().frames()).as("the count is corrected in the cache").isEqualTo(30);
        assertThat(TestVideos.calls(tools)).containsExactly("ffprobe", "ffmpeg", "ffprobe", "ffmpeg");
    }

    @Test void bothVideoFileNamesAndAnimatedGifsAreVideos() {
        assertThat(VideoFrames.isVideoFileName("clip.MP4")).isTrue();
        assertThat(VideoFrames.isVideoFileName("a.webm")).isTrue();
        assertThat(VideoFrames.isVideoFileName("S001C001P001R001A001_rgb.avi")).isTrue();
        assertThat(VideoFrames.isVideoFileName("blink.gif")).isTrue();
        assertThat(VideoFrames.isVideoFileName("photo.jpg")).isFalse();
        assertThat(VideoFrames.rate("30000/1001")).isCloseTo(29.97, org.assertj.core.data.Offset.offset(0.001));
        assertThat(VideoFrames.rate("0/0")).isZero();
    }

    @Test void aFramesTimeIsItsNumberOverTheFrameRateToTheMillisecond() {
        assertThat(VideoFrames.time(45, 30)).isEqualTo("@1.5s");
        assertThat(VideoFrames.time(0, 25)).isEqualTo("@0s");
        assertThat(VideoFrames.time(1, 3)).isEqualTo("@0.333s");
        assertThat(VideoFrames.time(7, 0)).as("no frame rate, no time").isEmpty();
    }
}
