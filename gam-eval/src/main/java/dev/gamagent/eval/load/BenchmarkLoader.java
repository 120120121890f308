package dev.gamagent.eval.load;

import dev.gamagent.eval.load.mvbench.MvBenchDirectory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The one entry point for benchmark data: VLMEvalKit TSV ({@code .tsv}), M3MAD JSON ({@code .json}) and JSONL with
 * the TSV field names ({@code .jsonl}), and directories in a layout a {@link DirectoryLayout} knows.
 *
 * <p>A file is indexed, not held: its first megabyte is checked (a file that is not a benchmark at all is refused
 * in one line naming it and what is wrong), then it is read once from start to end, in chunks, to find each row's
 * byte range and check its text, and hashed on the way ({@link Dataset#sha256()}). Each question keeps only where
 * its row lies; its text is read again and its images decoded when it starts, and dropped when it ends, so memory
 * follows the questions in flight, not the file. Rows that cannot be used are skipped and reported with their
 * index and line; the rest load. A byte that is not UTF-8 skips its row, naming the offset; a row of a
 * multiple-choice file without options is skipped rather than graded as an open question.
 *
 * <p>The three formats share one row pipeline: {@link IndexPass} reads each format's rows into TSV-style fields, where
 * they differ (a TSV line, a JSONL object, an M3MAD record), and from there every row goes the same way: its text
 * through {@link RowFields}, its images through {@link RowImages}, what is kept of it into {@link KeptRows} (a few
 * dozen bytes a row, bounded by {@code --limit} and by half of the heap); {@link BenchmarkFile} reads a row again when
 * its question starts.
 */
public final class BenchmarkLoader {
    private BenchmarkLoader() { }

    public static Dataset load(Path file) { return load(file, RowFilter.ALL); }

    /** Loads by file extension; an unreadable file (not a bad row) throws with the file's name. */
    public static Dataset load(Path file, RowFilter filter) { return load(file, filter, Images.defaults()); }

    public static Dataset load(Path file, RowFilter filter, Images images) { return load(file, filter, images, Progress.NONE); }

    /** Told how far the index pass has read the file: bytes so far, and the file's size. */
    @FunctionalInterface
    public interface Progress {
        void read(long bytes, long size);

        Progress NONE = (bytes, size) -> { };
    }

    /** The directory layouts gam reads as datasets, in the order they are tried. */
    public static List<DirectoryLayout> layouts() { return List.of(new MvBenchDirectory()); }

    /** As {@link #load(Path, RowFilter, Images)}, telling {@code progress} how far the one read of the file has come. */
    public static Dataset load(Path file, RowFilter filter, Images images, Progress progress) { return load(file, filter, images, progress, layouts()); }

    /** As {@link #load(Path, RowFilter, Images, Progress)}, reading a directory in the first of {@code layouts} that matches it. */
    public static Dataset load(Path file, RowFilter filter, Images images, Progress progress, List<DirectoryLayout> layouts) {
        if (Files.isDirectory(file)) return directory(file, filter, images, layouts);
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException("benchmark file " + file + " does not exist");
        if (!Files.isReadable(file)) throw new IllegalArgumentException("benchmark file " + file + " is not readable; check its permissions");
        FileFormat format;
        try {
            format = FileFormat.of(file);
        } catch (IllegalArgumentException unknown) {
            String binary = FormatCheck.binary(DataBytes.of(file), file.toString());
            throw binary != null ? new IllegalArgumentException(binary) : unknown; // an image given as --data is said to be one
        }
        DataBytes data = DataBytes.of(file);
        long size = data.size();
        data.onProgress(bytes -> progress.read(bytes, size));
        return IndexPass.index(data, format, file.getFileName().toString(), file.toAbsolutePath().getParent(), filter, images);
    }

    /** A directory is a dataset only in a layout some {@link DirectoryLayout} reads; otherwise say what it lacks. */
    private static Dataset directory(Path dir, RowFilter filter, Images images, List<DirectoryLayout> layouts) {
        for (DirectoryLayout l : layouts) if (l.matches(dir)) return l.load(dir, filter, images);
        List<String> files = new ArrayList<>();
        int entries = 0;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                entries++;
                String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
                if (Files.isRegularFile(p) && (n.endsWith(".tsv") || n.endsWith(".json") || n.endsWith(".jsonl"))) files.add(p.getFileName().toString());
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("--data " + dir + " is a directory that cannot be listed: " + e.getMessage());
        }
        String known = layouts.isEmpty() ? "none is installed in this build"
                : String.join("; ", layouts.stream().map(l -> {
                    String lacks = l.lacks(dir);
                    return l.name() + ": " + l.expects() + (lacks == null ? "" : "; this directory: " + lacks);
                }).toList());
        String holds = entries == 0 ? "it is empty"
                : files.isEmpty() ? "it holds no .tsv, .json or .jsonl file"
                : "it holds " + String.join(", ", files.subList(0, Math.min(3, files.size()))) + (files.size() > 3 ? " and " + (files.size() - 3)
                + " more" : "") + ": pass one of them, e.g. --data " + dir.resolve(files.get(0));
        throw new IllegalArgumentException("--data " + dir + " is a directory, not a benchmark file, and not in a layout gam reads as a "
                + "dataset (" + known + "); " + holds);
    }

    /** VLMEvalKit TSV text (header row, then one row per question), e.g. a bundled benchmark. */
    public static Dataset fromTsv(String name, String text, Path baseDir, RowFilter filter) {
        return fromBytes(name, text.getBytes(StandardCharsets.UTF_8), FileFormat.TSV, baseDir, filter, Images.defaults());
    }

    /** JSONL text: one JSON object per line with the TSV field names. */
    public static Dataset fromJsonl(String name, String text, Path baseDir, RowFilter filter) {
        return fromBytes(name, text.getBytes(StandardCharsets.UTF_8), FileFormat.JSONL, baseDir, filter, Images.defaults());
    }

    /**
     * M3MAD JSON text: an array (or {@code {"data": [...]}}) of objects with {@code image_path, query, gt, tag,
     * source}. Options are the query's "A. text" lines; {@code tag} becomes the category, {@code source} the l2-category.
     */
    public static Dataset fromM3mad(String name, String text, Path baseDir, RowFilter filter) {
        return fromBytes(name, text.getBytes(StandardCharsets.UTF_8), FileFormat.M3MAD, baseDir, filter, Images.defaults());
    }

    /** A benchmark held in memory, read exactly as a file of that format would be. */
    static Dataset fromBytes(String name, byte[] bytes, FileFormat format, Path baseDir, RowFilter filter, Images images) {
        return IndexPass.index(DataBytes.of(name, bytes), format, name, baseDir, filter, images);
    }
}
