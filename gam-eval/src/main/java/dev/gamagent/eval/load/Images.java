package dev.gamagent.eval.load;

import dev.gamagent.config.Config;
import dev.gamagent.image.DecodeBudget;
import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.gamagent.image.internal.VideoFrames;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * How a file's images are checked and decoded: the loader (per-image limit, decode budget, the size kept in
 * memory), the most pixels one question's images may hold together (0 = no limit), how a row's {@code video}
 * becomes frames (null: through {@code videos}), and the videos' settings.
 */
public record Images(ImageLoader loader, long maxQuestionPixels, String totalSetting, VideoDecoder video, Videos videos) {
    /** The defaults of config section {@code image} (defaults.json), without a decode budget; new videos (frames, URL fetches) each call. */
    public static Images defaults() {
        return new Images(new ImageLoader(ImageLoader.DEFAULT_MAX_PIXELS),
                Math.round(Config.defaults().number("image.max_question_megapixels") * 1e6), "image.max_question_megapixels");
    }

    public Images {
        if (videos == null) videos = Videos.over(loader);
    }

    public Images(ImageLoader loader, long maxQuestionPixels, String totalSetting) {
        this(loader, maxQuestionPixels, totalSetting, null, Videos.over(loader));
    }

    public Images(ImageLoader loader, long maxQuestionPixels, String totalSetting, VideoDecoder video) {
        this(loader, maxQuestionPixels, totalSetting, video, Videos.over(loader));
    }

    /**
     * Limits from config {@code image.max_megapixels} (per image) and {@code image.max_question_megapixels}
     * (all images of one question), decoding within {@code budget} and keeping at most {@code keepPixels}
     * per image (what the backend can use).
     */
    public static Images from(Config config, DecodeBudget budget, long keepPixels) {
        ImageLoader loader = ImageLoader.withMaxMegapixels(config.number("image.max_megapixels"))
                .withBudget(budget).keepingAtMost(keepPixels);
        double total = config.number("image.max_question_megapixels");
        // a row's video URL follows the policy of remote images (server.allowed_image_hosts, max_body_mb, image_fetch_timeout_s)
        return new Images(loader, total <= 0 ? 0 : Math.round(total * 1e6), "image.max_question_megapixels", null,
                new Videos(new VideoFrames(System.getenv("PATH"), loader), 0, null, VideoUrls.from(config)));
    }

    /** The same limits with another way of turning a row's video into frames. */
    public Images withVideo(VideoDecoder decoder) { return new Images(loader, maxQuestionPixels, totalSetting, decoder, videos); }

    /** The same limits and the same {@link VideoFrames}, taking {@code count} frames per video (0: the benchmark's default) and reading a layout as {@code dataset} (null: its default). */
    public Images withVideos(int count, String dataset) {
        return new Images(loader, maxQuestionPixels, totalSetting, video, new Videos(videos.frames(), count, dataset, videos.urls(), videos.inFlight()));
    }

    /** The frames of the video a row names: its decoder's, else {@link Videos#count} (default {@value Videos#DEFAULT_FRAMES}) sampled uniformly. */
    List<Picture> frames(String source, Path file, Map<String, String> row) {
        if (video != null) return video.frames(source, file, row, loader);
        return videos.frames().frames(file, videos.countOr(Videos.DEFAULT_FRAMES));
    }
}
