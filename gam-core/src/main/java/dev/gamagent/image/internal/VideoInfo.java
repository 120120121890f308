package dev.gamagent.image.internal;

/**
 * What a video file holds, as ffprobe reads it from the container without decoding: the number of
 * frames (packets of the first video stream, which is what decord's {@code len(VideoReader)} counts),
 * the average frame rate ({@code avg_frame_rate}, else {@code r_frame_rate}: decord's {@code get_avg_fps}),
 * the frame size, the codec and the container's format names.
 */
public record VideoInfo(int frames, double fps, int width, int height, String codec, String format) {
    public VideoInfo {
        if (frames < 0) throw new IllegalArgumentException("frames must be >= 0, got " + frames);
    }

    /** Seconds of video: frames / fps (0 when the rate is unknown). */
    public double seconds() { return fps > 0 ? frames / fps : 0; }

    /** This video with {@code frames} frames (after counting the frames that decode, when packets overstate them). */
    VideoInfo withFrames(int frames) { return new VideoInfo(frames, fps, width, height, codec, format); }
}
