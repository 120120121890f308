package dev.gamagent.eval.load;

import java.nio.file.Files;
import java.nio.file.Path;

/** The files a row names ({@code image_path}, {@code video}): relative to the data file's folder, or as given when it has none. */
final class RowPaths {
    private RowPaths() { }

    static Path path(String p, Path baseDir, String column) {
        try {
            return baseDir == null ? Path.of(p) : baseDir.resolve(p);
        } catch (java.nio.file.InvalidPathException e) {
            throw new BadRowException("'" + column + "' is not a valid path (" + e.getReason() + ")");
        }
    }

    /** The video file or frame directory a row's {@code video} names, which must exist. */
    static Path videoFile(String video, Path baseDir) {
        Path f = path(video.strip(), baseDir, "video");
        if (!Files.exists(f)) throw new BadRowException("video " + f + " does not exist");
        return f;
    }
}
