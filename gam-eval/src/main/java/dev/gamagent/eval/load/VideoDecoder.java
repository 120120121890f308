package dev.gamagent.eval.load;

import dev.gamagent.image.ImageLoader;
import dev.gamagent.image.Picture;
import dev.gamagent.image.internal.VideoFrames;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Turns the video a row names (its {@code video} column: a file or a directory of frames, relative to the data
 * file) into the question's frames, when the question starts. The row's other fields are given for decoders
 * that read bounds or a frame rate from them.
 */
@FunctionalInterface
public interface VideoDecoder {
    List<Picture> frames(String source, Path video, Map<String, String> row, ImageLoader loader);

    /** {@link Videos#DEFAULT_FRAMES} frames sampled uniformly ({@link VideoFrames}, ffmpeg for video files), a new VideoFrames per call. */
    VideoDecoder FRAMES = (source, video, row, loader) -> new VideoFrames(System.getenv("PATH"), loader).frames(video, Videos.DEFAULT_FRAMES);
}
