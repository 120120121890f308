package dev.gamagent.eval.data.m3mad;

import dev.gamagent.eval.data.DataFiles;
import dev.gamagent.eval.data.DatasetEntry;
import dev.gamagent.util.AtomicFiles;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Builds one of M3MAD-Bench's six multimodal sets as its authors' {@code datasets/build_test_dataset.py} (liaolea/M3MAD-Bench
 * 2fda509) does, from the same sources, without Python: the rows of the Hugging Face dataset's split in its Parquet files'
 * order (MME-Reasoning: VLMEvalKit's TSV, read as pandas reads it), each turned into {@code image_path, query, gt, tag,
 * source} with the script's own strings; duplicates of a query dropped (the first kept); shuffled by CPython's
 * {@code random.shuffle} after {@code random.seed(2024)} ({@link PythonRandom}); the first {@code num2sample} (500) kept.
 * The file is {@code M3MAD/<set>.json} in the data directory, written as the script's {@code json.dump(..., indent=4)}
 * writes it, and the kept rows' images are beside it under {@code M3MAD/<set>/}, named as the script names them, the
 * JSON naming them relative to its own folder (the script writes absolute paths of its authors' machine).
 *
 * <p>Images: where the source image is already in the format the name's extension says (and in RGB where the script
 * converts to RGB) its bytes are written as they are; otherwise it is decoded and written in that format (dropping an alpha
 * channel where the script converts to RGB), as PIL's {@code save} would, so the pixels are the script's, the bytes may
 * not be. Only the kept rows' images are written (the script writes every row's).
 */
public final class M3madBuilder {
    /** The script's {@code random.seed}. */
    public static final long SEED = 2024;
    /** The script's default {@code --num2sample}. */
    public static final int NUM2SAMPLE = 500;

    private M3madBuilder() { }

    /** What a build did. */
    public record Result(M3madSet set, Path json, List<Path> sources, int read, int duplicates, int written) {
        public String describe() {
            return set.benchmark() + ": " + written + " questions written to " + json + " (read " + read + " rows from "
                    + (sources.size() == 1 ? sources.get(0) : sources.size() + " files under " + sources.get(0).getParent()) + ", "
                    + duplicates + " duplicate queries dropped, shuffled with seed " + SEED + ")";
        }
    }

    /** A row before the selection: what the JSON says, and where its image is. */
    private record Item(String imagePath, String query, String gt, List<String> tag, int file, int row) { }

    /**
     * Builds {@code set} from {@code source} (a directory holding the Hugging Face dataset's Parquet files, or for
     * MME-reasoning the TSV file) into {@code dataDir}.
     */
    public static Result build(M3madSet set, Path source, Path dataDir, int num2sample, PrintStream log) {
        if (num2sample <= 0) throw new IllegalArgumentException("--num2sample must be positive, got " + num2sample);
        Path json = dataDir.resolve("M3MAD").resolve(set.dataset() + ".json");
        Path images = json.resolveSibling(set.dataset());
        List<Item> items = new ArrayList<>();
        List<Path> files;
        PandasTsv tsv = null;
        List<ParquetFile> parquet = new ArrayList<>();
        if (set == M3madSet.MME_REASONING) {
            files = List.of(source);
            tsv = mmeReasoning(source, items);
        } else {
            files = parquetFiles(set, source);
            for (Path f : files) parquet.add(ParquetFile.open(f));
            for (int i = 0; i < parquet.size(); i++) rows(set, parquet.get(i), i, items);
        }
        int read = items.size();
        List<Item> unique = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Item it : items) if (seen.add(it.query)) unique.add(it);
        new PythonRandom(SEED).shuffle(unique);
        List<Item> kept = unique.subList(0, Math.min(num2sample, unique.size()));
        log.println(set.benchmark() + ": " + read + " rows read, " + (read - unique.size()) + " duplicate queries dropped, "
                + kept.size() + " kept; writing their images under " + images);
        try {
            Files.createDirectories(images);
            writeImages(set, kept, parquet, tsv, source, images);
            Files.deleteIfExists(dev.gamagent.eval.data.Checksums.sidecar(json)); // a rebuilt file starts a new record
            AtomicFiles.writeString(json, PythonJson.dump(kept.stream().map(it -> record(set, it)).toList()));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write " + json + " or its images: " + e.getMessage(), e);
        }
        return new Result(set, json, files, read, read - unique.size(), kept.size());
    }

    /** Where {@code set}'s source is looked for when none is given: {@code <data dir>/M3MAD/sources/<owner>/<name>}. */
    public static Path defaultSource(M3madSet set, Path dataDir) {
        return dataDir.resolve("M3MAD").resolve("sources").resolve(set.repository());
    }

    /**
     * {@code set}'s source: {@code given} when not null; else for MME-reasoning the catalogue's MME-Reasoning file in the
     * data directory; else {@link #defaultSource}, then a snapshot in a Hugging Face hub cache ({@code
     * datasets--<owner>--<name>/snapshots/<revision>}, the newest holding the split). None found: one line naming where it
     * looked and the command that gets it.
     */
    public static Path source(M3madSet set, Path given, DataFiles files, List<Path> hubCaches) {
        if (given != null) return given;
        if (set == M3madSet.MME_REASONING) {
            DatasetEntry e = files.catalogue().require(M3madSet.MME_REASONING_SOURCE);
            DataFiles.DataFile f = files.locate(e);
            if (f == null) {
                throw new IllegalArgumentException(set.benchmark() + ": its source, VLMEvalKit's MME-Reasoning file (MME_Reasoning.tsv), is not in "
                        + files.dir().path() + "; get it with 'gam data fetch " + M3madSet.MME_REASONING_SOURCE + "' (" + set.page()
                        + "), or pass --source FILE");
            }
            return f.path();
        }
        Path local = defaultSource(set, files.dir().path());
        if (Files.isDirectory(local)) return local;
        List<String> looked = new ArrayList<>(List.of(local.toString()));
        Path best = null;
        long newest = Long.MIN_VALUE;
        for (Path cache : hubCaches) {
            Path snaps = cache.resolve("datasets--" + set.repository().replace("/", "--")).resolve("snapshots");
            looked.add(snaps.toString());
            if (!Files.isDirectory(snaps)) continue;
            try (Stream<Path> s = Files.list(snaps)) {
                for (Path rev : s.filter(Files::isDirectory).toList()) {
                    try {
                        parquetFiles(set, rev);
                    } catch (IllegalArgumentException e) {
                        continue; // a revision without this split
                    }
                    long t = Files.getLastModifiedTime(rev).toMillis();
                    if (t > newest) {
                        newest = t;
                        best = rev;
                    }
                }
            } catch (IOException e) {
                throw new IllegalArgumentException(set.benchmark() + ": cannot read " + snaps + ": " + e.getMessage(), e);
            }
        }
        if (best != null) return best;
        throw new IllegalArgumentException(set.benchmark() + ": its source, the Hugging Face dataset " + set.repository() + " ('" + set.split()
                + "' split), is not in " + String.join(" nor ", looked) + "; get it with '" + set.download(local) + "' (" + set.page()
                + "), or pass --source DIR");
    }

    private static Map<String, Object> record(M3madSet set, Item it) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("image_path", set.dataset() + "/" + it.imagePath);
        m.put("query", it.query);
        m.put("gt", it.gt);
        m.put("tag", it.tag);
        m.put("source", set.dataset());
        return m;
    }

    /** The split's Parquet files under {@code dir} ({@code <split>-*.parquet}, or {@code *.parquet} in a folder named as the split), in name order. */
    static List<Path> parquetFiles(M3madSet set, Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(set.benchmark() + ": the source " + dir + " is not a directory; get " + set.repository() + " with '"
                    + set.download(dir) + "' (" + set.page() + ")");
        }
        List<Path> out;
        try (Stream<Path> s = Files.walk(dir, FileVisitOption.FOLLOW_LINKS)) {
            out = s.filter(p -> p.getFileName().toString().endsWith(".parquet") && Files.isRegularFile(p))
                    .filter(p -> p.getFileName().toString().startsWith(set.split() + "-")
                            || (p.getParent() != null && p.getParent().getFileName().toString().equals(set.split())))
                    .sorted(Comparator.comparing(p -> dir.relativize(p).toString().replace('\\', '/'))).toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new IllegalArgumentException(set.benchmark() + ": cannot read " + dir + ": " + e.getMessage(), e);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(set.benchmark() + ": no Parquet file of " + set.repository() + "'s '" + set.split() + "' split ("
                    + set.split() + "-*.parquet) under " + dir + "; get it with '" + set.download(dir) + "' (" + set.page() + ")");
        }
        return out;
    }

    private static String text(List<Object> col, int i) { return PythonJson.str(col.get(i)); }

    private static List<Object> col(M3madSet set, ParquetFile f, String name) {
        if (!f.fields().contains(name)) {
            throw new IllegalArgumentException(set.benchmark() + ": " + f.path() + " has no column '" + name + "' (it has " + f.fields()
                    + "): not " + set.repository() + "'s '" + set.split() + "' split as the script reads it (" + set.page() + ")");
        }
        return f.column(name, r -> true);
    }

    /** The script's rows of one Parquet file, in order. */
    private static void rows(M3madSet set, ParquetFile f, int file, List<Item> out) {
        int n = Math.toIntExact(f.rows());
        int counter = out.size(); // PathVQA and VisualPuzzles number images from 1 across the whole split
        switch (set) {
            case MME -> {
                List<Object> id = col(set, f, "question_id"), q = col(set, f, "question"), a = col(set, f, "answer"), c = col(set, f, "category");
                need(set, f, "image");
                for (int i = 0; i < n; i++) {
                    out.add(new Item(safe(set, f, text(id, i)), text(q, i), text(a, i), List.of("MME", "comprehensive", text(c, i)), file, i));
                }
            }
            case MATHVISTA -> {
                List<Object> img = col(set, f, "image"), q = col(set, f, "query"), a = col(set, f, "answer"), t = col(set, f, "question_type"),
                        ch = col(set, f, "choices");
                need(set, f, "decoded_image");
                for (int i = 0; i < n; i++) {
                    String gt = text(a, i);
                    if ("multi_choice".equals(t.get(i))) {
                        List<?> choices = ch.get(i) instanceof List<?> l ? l : List.of();
                        int k = choices.indexOf(a.get(i));
                        if (k < 0) throw new IllegalArgumentException(set.benchmark() + ": " + f.path() + " row " + i + ": the answer '" + gt
                                + "' is not one of its choices " + choices + " (the script stops here too)");
                        gt = "(" + (char) ('A' + k) + ")";
                    }
                    out.add(new Item(safe(set, f, text(img, i)), text(q, i), gt, List.of("math"), file, i));
                }
            }
            case MATHVISION -> {
                List<Object> img = col(set, f, "image"), q = col(set, f, "question"), a = col(set, f, "answer"), o = col(set, f, "options"),
                        s = col(set, f, "subject"), lv = col(set, f, "level");
                need(set, f, "decoded_image");
                for (int i = 0; i < n; i++) {
                    List<?> options = o.get(i) instanceof List<?> l ? l : List.of();
                    String query, gt;
                    if (options.size() > 1 && !"A".equals(options.get(0))) {
                        query = withOptions(text(q, i), options);
                        gt = "(" + text(a, i) + ")";
                    } else if (options.size() > 1) {
                        query = "The following is a multiple-choice question: \n" + text(q, i) + " \n\nChoose the correct answer from the image.";
                        gt = "(" + text(a, i) + ")";
                    } else {
                        query = text(q, i);
                        gt = text(a, i);
                    }
                    out.add(new Item(safe(set, f, text(img, i)), query, gt, List.of("math", text(s, i), "level:" + text(lv, i)), file, i));
                }
            }
            case PATHVQA -> {
                List<Object> q = col(set, f, "question"), a = col(set, f, "answer");
                need(set, f, "image");
                for (int i = 0; i < n; i++) {
                    out.add(new Item("image_" + (counter + i + 1) + ".png", text(q, i), text(a, i), List.of("medical"), file, i));
                }
            }
            case VISUALPUZZLES -> {
                List<Object> q = col(set, f, "question"), a = col(set, f, "answer"), o = col(set, f, "options"), c = col(set, f, "category");
                need(set, f, "image");
                for (int i = 0; i < n; i++) {
                    String query = o.get(i) != null ? withOptions(text(q, i), (List<?>) o.get(i))
                            : "The following is a multiple-choice question: \n" + text(q, i) + " \n\nChoose the correct answer from the image.";
                    out.add(new Item("image_" + (counter + i + 1) + ".png", query, "(" + text(a, i) + ")", List.of(text(c, i), "reasoning"), file, i));
                }
            }
            default -> throw new IllegalStateException(set + " is not read from Parquet");
        }
    }

    private static void need(M3madSet set, ParquetFile f, String column) {
        if (!f.fields().contains(column)) col(set, f, column);
    }

    /** The script's {@code format_dynamic_*_query}: the question, then each option as {@code (A) text}. */
    private static String withOptions(String question, List<?> options) {
        StringBuilder b = new StringBuilder("The following is a multiple-choice question:\n").append(question)
                .append("\n\nChoose the correct answer from the following options:");
        for (int i = 0; i < options.size(); i++) b.append("\n(").append((char) ('A' + i)).append(") ").append(PythonJson.str(options.get(i)));
        return b.toString();
    }

    /** An image name from the source, checked to stay inside the set's folder. */
    private static String safe(M3madSet set, ParquetFile f, String name) {
        Path p = Path.of(name).normalize();
        if (name.isBlank() || p.isAbsolute() || p.startsWith("..") || name.contains("\\")) {
            throw new IllegalArgumentException(set.benchmark() + ": " + f.path() + " names an image '" + name + "' outside the set's folder");
        }
        return p.toString().replace('\\', '/');
    }

    private static final List<String> MME_REASONING_COLUMNS = List.of("image", "question", "answer", "question_type", "difficulty",
            "reasoning_type", "capability");

    private static PandasTsv mmeReasoning(Path tsvFile, List<Item> out) {
        M3madSet set = M3madSet.MME_REASONING;
        if (!Files.isRegularFile(tsvFile)) {
            throw new IllegalArgumentException(set.benchmark() + ": the source " + tsvFile + " is not a file; get VLMEvalKit's MME_Reasoning.tsv with '"
                    + set.download(tsvFile) + "' (" + set.page() + ")");
        }
        PandasTsv t = PandasTsv.read(tsvFile, "image", r -> false);
        for (String c : MME_REASONING_COLUMNS) {
            if (!t.header.contains(c)) {
                throw new IllegalArgumentException(set.benchmark() + ": " + tsvFile + " has no column '" + c + "' (it has " + t.header
                        + "): not VLMEvalKit's MME_Reasoning.tsv (" + set.page() + ")");
            }
        }
        List<String> q = t.text("question"), a = t.text("answer"), type = t.text("question_type"), d = t.text("difficulty"),
                rt = t.text("reasoning_type"), cap = t.text("capability");
        for (int i = 0; i < t.rows.size(); i++) {
            String query = "choice".equals(type.get(i))
                    ? "The following is a multiple-choice question: \n" + q.get(i) + " \nChoose the correct answer from the image." : q.get(i);
            out.add(new Item(String.format(Locale.ROOT, "MME_%05d.png", i), query, a.get(i), List.of(d.get(i), "reasoning", rt.get(i), cap.get(i)), 0, i));
        }
        return t;
    }

    private static void writeImages(M3madSet set, List<Item> kept, List<ParquetFile> parquet, PandasTsv tsv, Path source, Path dir)
            throws IOException {
        boolean rgb = set != M3madSet.MME; // the script converts to RGB for every set but MME
        if (set == M3madSet.MME_REASONING) {
            Map<Integer, Item> byRow = new LinkedHashMap<>();
            kept.forEach(it -> byRow.put(it.row, it));
            PandasTsv withImages = PandasTsv.read(source, "image", byRow::containsKey);
            for (Item it : kept) {
                String cell = withImages.cell(it.row, "image");
                byte[] bytes;
                try {
                    bytes = Base64.getMimeDecoder().decode(cell == null ? "" : cell.strip());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(set.benchmark() + ": " + source + " row " + it.row + ": its image is not base64 ("
                            + e.getMessage() + ")", e);
                }
                Images.write(bytes, dir.resolve(it.imagePath), true, set.benchmark() + ": " + source + " row " + it.row);
            }
            return;
        }
        String column = set == M3madSet.MATHVISTA || set == M3madSet.MATHVISION ? "decoded_image" : "image";
        for (int fi = 0; fi < parquet.size(); fi++) {
            int file = fi;
            List<Item> mine = kept.stream().filter(it -> it.file == file).toList();
            if (mine.isEmpty()) continue;
            Set<Long> rows = new HashSet<>();
            mine.forEach(it -> rows.add((long) it.row));
            ParquetFile f = parquet.get(fi);
            List<Object> col = f.column(column, rows::contains);
            for (Item it : mine) {
                String where = set.benchmark() + ": " + f.path() + " row " + it.row;
                Object v = col.get(it.row);
                byte[] bytes = v instanceof Map<?, ?> m && m.get("bytes") instanceof byte[] b ? b : v instanceof byte[] b2 ? b2 : null;
                if (bytes == null) throw new IllegalArgumentException(where + ": its " + column + " holds no image bytes");
                Path target = dir.resolve(it.imagePath);
                Files.createDirectories(target.getParent());
                Images.write(bytes, target, rgb, where);
            }
        }
    }

    /** Writing an image as PIL's {@code save(path)} would, by the name's extension. */
    static final class Images {
        private Images() { }

        static void write(byte[] src, Path target, boolean rgb, String where) throws IOException {
            String name = target.getFileName().toString().toLowerCase(Locale.ROOT);
            String want = name.endsWith(".png") ? "png" : name.endsWith(".jpg") || name.endsWith(".jpeg") ? "jpeg" : null;
            if (want == null) throw new IllegalArgumentException(where + ": the image name " + target.getFileName() + " is neither .png nor .jpg");
            String have = isPng(src) ? "png" : isJpeg(src) ? "jpeg" : null;
            if (want.equals(have) && (!rgb || isRgb(src, have))) {
                AtomicFiles.write(target, src);
                return;
            }
            BufferedImage img = ImageIO.read(new ByteArrayInputStream(src));
            if (img == null) throw new IllegalArgumentException(where + ": its image cannot be decoded (not PNG, JPEG, GIF or BMP)");
            if (rgb || want.equals("jpeg")) img = dropAlpha(img);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            if (!ImageIO.write(img, want.equals("png") ? "png" : "jpg", out)) throw new IllegalStateException("no ImageIO writer for " + want);
            AtomicFiles.write(target, out.toByteArray());
        }

        static boolean isPng(byte[] b) {
            return b.length > 26 && (b[0] & 0xff) == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G';
        }

        static boolean isJpeg(byte[] b) { return b.length > 3 && (b[0] & 0xff) == 0xff && (b[1] & 0xff) == 0xd8 && (b[2] & 0xff) == 0xff; }

        /** An 8-bit RGB PNG (colour type 2), or a JPEG of three components: what PIL calls mode RGB. */
        static boolean isRgb(byte[] b, String format) {
            if (format.equals("png")) return b[24] == 8 && b[25] == 2;
            int p = 2;
            while (p + 9 < b.length) {
                if ((b[p] & 0xff) != 0xff) return false;
                int m = b[p + 1] & 0xff;
                if (m == 0xff) {
                    p++;
                    continue;
                }
                int len = (b[p + 2] & 0xff) << 8 | (b[p + 3] & 0xff);
                if (m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc) return (b[p + 9] & 0xff) == 3;
                p += 2 + len;
            }
            return false;
        }

        /** PIL's {@code convert('RGB')}: the colours kept, an alpha channel dropped (not blended). */
        static BufferedImage dropAlpha(BufferedImage img) {
            if (img.getType() == BufferedImage.TYPE_INT_RGB || img.getType() == BufferedImage.TYPE_3BYTE_BGR) return img;
            BufferedImage out = new BufferedImage(img.getWidth(), img.getHeight(), BufferedImage.TYPE_INT_RGB);
            for (int y = 0; y < img.getHeight(); y++) {
                for (int x = 0; x < img.getWidth(); x++) out.setRGB(x, y, img.getRGB(x, y) & 0xffffff);
            }
            return out;
        }
    }
}
