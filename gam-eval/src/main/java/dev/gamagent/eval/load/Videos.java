package dev.gamagent.eval.load;

import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.internal.VideoFrames;

import java.nio.file.Path;

/**
 * How a run's videos become frames: the ONE {@link VideoFrames} every question's video is decoded through (so
 * its on-disk {@link dev.gamagent.image.internal.FrameCache} and its per-video locks are shared by the questions in
 * flight), the frames per video ({@code --frames N}; 0: the benchmark's default, VLMEvalKit's for MVBench), and
 * which of a layout's names a directory is read as (e.g. {@code MVBench_64frame}; null: the layout's default), the
 * policy for videos given as URLs, and the URL fetches under way (shared as the frames are).
 */
public record Videos(VideoFrames frames, int count, String dataset, VideoUrls urls, VideoUrls.InFlight inFlight) {
    /** Frames taken from a row's video when no decoder says otherwise (VLMEvalKit's MVBench_8frame). */
    public static final int DEFAULT_FRAMES = 8;

    public Videos {
        java.util.Objects.requireNonNull(frames, "frames");
        if (count < 0) throw new IllegalArgumentException("frames per video must be positive (or 0 for the benchmark's default), not " + count);
        if (urls == null) urls = VideoUrls.NONE;
        if (inFlight == null) inFlight = new VideoUrls.InFlight();
    }

    public Videos(VideoFrames frames, int count, String dataset, VideoUrls urls) { this(frames, count, dataset, urls, null); }

    /** Without video URLs from any host. */
    public Videos(VideoFrames frames, int count, String dataset) { this(frames, count, dataset, VideoUrls.NONE); }

    /** The local file a row's {@code video} names: a path relative to the data file, or an allowed URL fetched once ({@link VideoUrls}). */
    Path file(String video, Path baseDir) {
        return VideoUrls.isUrl(video) ? urls.fetch(video, frames.cache().root(), inFlight) : RowPaths.videoFile(video, baseDir);
    }

    /** Videos decoded with ffmpeg from PATH through {@code loader}, into the default frame cache. */
    public static Videos over(ImageLoader loader) { return new Videos(new VideoFrames(System.getenv("PATH"), loader), 0, null); }

    /** {@link #count}, or {@code otherwise} when it is 0. */
    public int countOr(int otherwise) { return count > 0 ? count : otherwise; }
}
