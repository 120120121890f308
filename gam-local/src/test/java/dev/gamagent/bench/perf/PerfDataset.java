package dev.gamagent.bench.perf;

import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;

/**
 * Benchmark files for the performance suite: the synthetic benchmark's questions with their images
 * enlarged to one megapixel (1155×866) and lightly textured, stored as JPEG (quality 0.9) as photos in
 * VLMEvalKit's TSVs are. {@code distinct} images are stored in full; later rows name an earlier row's
 * index in their {@code image} column (VLMEvalKit's own convention), so a file of thousands of rows stays
 * small while every question still decodes and sends its own copy.
 */
final class PerfDataset {
    static final int WIDTH = 1155, HEIGHT = 866;

    private PerfDataset() { }

    /** Writes {@code rows} questions (seed {@code seed}) to {@code out}; returns the mean JPEG size in bytes. */
    static long write(Path out, int rows, int distinct, long seed) throws IOException {
        List<BenchItem> items = BenchmarkGenerator.withMix(seed, null).generate(Math.min(rows, distinct), Arrays.asList(Family.values()), it -> { });
        String[] b64 = new String[items.size()];
        long bytes = 0;
        Random noise = new Random(seed);
        for (int i = 0; i < items.size(); i++) {
            byte[] jpeg = jpeg(texture(enlarge(items.get(i).image()), noise));
            bytes += jpeg.length;
            b64[i] = Base64.getEncoder().encodeToString(jpeg);
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            w.write("index\timage\tquestion\thint\tA\tB\tC\tD\tanswer\tcategory\tl2-category\tsplit\n");
            for (int r = 0; r < rows; r++) {
                BenchItem it = items.get(r % items.size());
                String image = r < items.size() ? b64[r] : Integer.toString(r % items.size());
                StringBuilder sb = new StringBuilder();
                sb.append(r).append('\t').append(image).append('\t').append(clean(it.question())).append('\t').append(clean(it.hint()));
                for (String l : List.of("A", "B", "C", "D")) sb.append('\t').append(clean(it.options().getOrDefault(l, "")));
                sb.append('\t').append(it.answer()).append('\t').append(it.category()).append('\t').append(it.l2Category()).append("\ttest\n");
                w.write(sb.toString());
            }
        }
        return bytes / items.size();
    }

    /**
     * Writes at least {@code bytes} of benchmark to {@code out}: every row holds its own copy of one of {@code distinct}
     * 1-megapixel JPEGs in its {@code image} column (no references), so the file grows with its rows as a benchmark of
     * photos does. Returns the number of rows.
     */
    static int writeInline(Path out, long bytes, int distinct, long seed) throws IOException {
        List<BenchItem> items = BenchmarkGenerator.withMix(seed, null).generate(distinct, Arrays.asList(Family.values()), it -> { });
        String[] b64 = new String[items.size()];
        Random noise = new Random(seed);
        for (int i = 0; i < items.size(); i++) b64[i] = Base64.getEncoder().encodeToString(jpeg(texture(enlarge(items.get(i).image()), noise)));
        Files.createDirectories(out.toAbsolutePath().getParent());
        long written = 0;
        int rows = 0;
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            String header = "index\timage\tquestion\thint\tA\tB\tC\tD\tanswer\tcategory\tl2-category\tsplit\n";
            w.write(header);
            written += header.length();
            while (written < bytes) {
                BenchItem it = items.get(rows % items.size());
                StringBuilder sb = new StringBuilder();
                sb.append(rows).append('\t').append(b64[rows % items.size()]).append('\t').append(clean(it.question())).append('\t').append(clean(it.hint()));
                for (String l : List.of("A", "B", "C", "D")) sb.append('\t').append(clean(it.options().getOrDefault(l, "")));
                sb.append('\t').append(it.answer()).append('\t').append(it.category()).append('\t').append(it.l2Category()).append("\ttest\n");
                w.write(sb.toString());
                written += sb.length();
                rows++;
            }
        }
        return rows;
    }

    /** {@code bytes} of random bytes: what a benchmark loader must refuse at once. */
    static void writeRandom(Path out, long bytes, long seed) throws IOException {
        byte[] block = new byte[16 << 20];
        new Random(seed).nextBytes(block);
        Files.createDirectories(out.toAbsolutePath().getParent());
        try (var o = Files.newOutputStream(out)) {
            for (long left = bytes; left > 0; left -= block.length) {
                o.write(block, 0, (int) Math.min(left, block.length));
                block[(int) (left % block.length)] ^= 0x5A; // blocks differ
            }
        }
    }

    /** {@code bytes} of lines of tab-separated random tokens: text that is no benchmark. */
    static void writeJunkLines(Path out, long bytes, long seed) throws IOException {
        Random r = new Random(seed);
        StringBuilder block = new StringBuilder();
        while (block.length() < 8 << 20) {
            for (int c = 0; c < 8; c++) block.append(c == 0 ? "" : "\t").append(Long.toString(r.nextLong(), 36));
            block.append('\n');
        }
        byte[] b = block.toString().getBytes(StandardCharsets.UTF_8);
        Files.createDirectories(out.toAbsolutePath().getParent());
        try (var o = Files.newOutputStream(out)) {
            for (long left = bytes; left > 0; left -= b.length) o.write(b, 0, (int) Math.min(left, b.length));
        }
    }

    private static BufferedImage enlarge(BufferedImage in) {
        BufferedImage out = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        var g = out.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.drawImage(in, 0, 0, WIDTH, HEIGHT, null);
        g.dispose();
        return out;
    }

    /** Sensor-like noise (±6 per channel), so the JPEG is as large as a photo's rather than a flat drawing's. */
    private static BufferedImage texture(BufferedImage img, Random rnd) {
        int[] px = img.getRGB(0, 0, WIDTH, HEIGHT, null, 0, WIDTH);
        for (int i = 0; i < px.length; i++) {
            int p = px[i], d = rnd.nextInt(13) - 6;
            int r = clamp(((p >> 16) & 0xff) + d), g = clamp(((p >> 8) & 0xff) + d), b = clamp((p & 0xff) + d);
            px[i] = (r << 16) | (g << 8) | b;
        }
        img.setRGB(0, 0, WIDTH, HEIGHT, px, 0, WIDTH);
        return img;
    }

    private static int clamp(int v) { return Math.max(0, Math.min(255, v)); }

    private static byte[] jpeg(BufferedImage img) throws IOException {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ImageWriteParam p = writer.getDefaultWriteParam();
        p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        p.setCompressionQuality(0.9f);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream ios = new MemoryCacheImageOutputStream(out)) {
            writer.setOutput(ios);
            writer.write(null, new IIOImage(img, null, null), p);
        } finally {
            writer.dispose();
        }
        return out.toByteArray();
    }

    private static String clean(String s) { return s == null ? "" : s.replace('\t', ' ').replace('\n', ' '); }

    public static void main(String[] args) throws IOException {
        long mean = write(Path.of(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2]), 101);
        System.out.println("mean JPEG bytes: " + mean);
    }
}
