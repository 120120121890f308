package dev.gamagent.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gamagent.util.Json;

import javax.imageio.ImageIO;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.IntConsumer;

/**
 * {@code gam bench generate --families video[,...]}: a JSONL benchmark whose video items are rows naming their clip in
 * the {@code video} column, a folder of PNG frames ({@code <stem>_videos/<index>/frame-00.png} ...), which the loader
 * reads like any video (8 frames sampled uniformly by default: one per step of the clip); image families in the same
 * list are written as {@link BenchmarkWriter} writes them in JSONL ({@code image_path}). Items cycle through the list
 * in order, item {@code i} drawn from (seed, i) only, so a seed fixes the file. Written as drawn: one item's frames at
 * a time, one frame in memory at a time.
 */
public final class VideoRows {
    /** The name {@code --families} gives the video family. */
    public static final String FAMILY = "video";

    private VideoRows() { }

    /** One entry of {@code --families}: an image family, or the video family (null). */
    public static Family parse(String name) {
        return FAMILY.equals(name.strip().toLowerCase(Locale.ROOT)) ? null : Family.parse(name);
    }

    /**
     * Writes {@code n} items cycling through {@code families} (null entries are video items) to {@code out}, a .jsonl
     * file; {@code progress} is told each index written.
     */
    public static int generate(BenchmarkGenerator images, int n, List<Family> families, Path out, IntConsumer progress) throws IOException {
        if (n < 0) throw new IllegalArgumentException("--n must be >= 0, got " + n);
        if (families.isEmpty()) throw new IllegalArgumentException("--families must name at least one family");
        if (BenchmarkWriter.formatOf(out) != BenchmarkWriter.Format.JSONL) {
            throw new IllegalArgumentException("--out " + out + ": the video family is written as rows naming their clips, in a .jsonl file; "
                    + "end the file name with .jsonl");
        }
        VideoGenerator videos = new VideoGenerator(images.seed(), images.hardFraction(), images.render());
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path clips = parent.resolve(stem(out) + "_videos");
        int written = 0;
        Path imageDir = null;
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (int i = 0; i < n; i++) {
                Family f = families.get(i % families.size());
                String line;
                if (f == null) {
                    VideoItem it = videos.generate(i);
                    line = Json.write(record(it, parent.relativize(writeFrames(it, clips.resolve(Integer.toString(i)))).toString().replace('\\', '/')));
                } else {
                    if (imageDir == null) imageDir = BenchmarkWriter.imageDir(out);
                    BenchItem it = images.generate(i, f);
                    line = Json.write(BenchmarkWriter.jsonlRecord(it, BenchmarkWriter.writeImage(it, out, imageDir)));
                }
                w.write(line);
                w.write('\n');
                written++;
                progress.accept(i);
            }
        }
        return written;
    }

    /**
     * Writes {@code items} as a .jsonl benchmark at {@code out}: one row per item (its {@code index} the item's own),
     * each naming its folder of PNG frames in {@code <stem>_videos/<index>/}, as {@link #generate} writes them.
     * {@code gam demo} writes its video questions this way.
     */
    public static Path write(List<VideoItem> items, Path out) throws IOException {
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path clips = parent.resolve(stem(out) + "_videos");
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (VideoItem it : items) {
                Path dir = writeFrames(it, clips.resolve(Integer.toString(it.index())));
                w.write(Json.write(record(it, parent.relativize(dir).toString().replace('\\', '/'))));
                w.write('\n');
            }
        }
        return out;
    }

    /** The item's frames as PNG files {@code frame-00.png} ... in {@code dir}, drawn one at a time. */
    static Path writeFrames(VideoItem it, Path dir) throws IOException {
        Files.createDirectories(dir);
        for (int f = 0; f < it.frames(); f++) {
            if (!ImageIO.write(it.frame(f), "png", dir.resolve(String.format(Locale.ROOT, "frame-%02d.png", f)).toFile())) {
                throw new IOException("no PNG writer available");
            }
        }
        return dir;
    }

    /** The row of a video item: the JSONL columns of an image item with {@code video} in place of {@code image_path}. */
    static ObjectNode record(VideoItem it, String video) {
        ObjectNode o = new BenchmarkWriter.JsonlColumns(it.index(), it.question(), it.hint(), it.options(), it.answer(), VideoItem.CATEGORY,
                VideoItem.L2_CATEGORY, it.difficulty()).row("video", video);
        o.put("kind", it.kind().name().toLowerCase(Locale.ROOT));
        return o;
    }

    private static String stem(Path out) {
        String name = out.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }
}
