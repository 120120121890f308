package dev.gamagent.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** report.html carries one compact row per answer; the debates go to the sidecar folder, so the page stays small at any n. */
class HtmlReportSidecarTest {
    @TempDir Path dir;

    /** A trace of about 6 kB, as a gam debate with claims makes. */
    static JsonNode bulkyTrace(String id) throws Exception {
        StringBuilder claims = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            if (i > 0) claims.append(',');
            claims.append("{\"n\":").append(i).append(",\"text\":\"DEBATE-ONLY claim text number ").append(i)
                    .append(" about the picture, long enough to weigh\",\"confidence\":0.8}");
        }
        return Json.MAPPER.readTree("{\"question\":{\"id\":\"" + id + "\",\"text\":\"What is shown in " + id + "?\"},\"rounds\":[{\"k\":0,"
                + "\"agents\":[{\"id\":\"e1\",\"claims\":[" + claims + "]}]}]}");
    }

    static List<ResultRecord> records(int questions) throws Exception {
        List<ResultRecord> rs = new ArrayList<>();
        for (int i = 0; i < questions; i++) {
            for (String m : List.of("single", "gam")) {
                rs.add(Records.record("q" + i, m).group("q" + i).category("cat" + i % 3)
                        .outcome(i % 2 == 0 ? "correct" : "wrong").predicted("A").groundTruth("A").answer("a")
                        .option("A").confidence(0.8).uncertainty(0.2).termination("single").promptTokens(10)
                        .completionTokens(1).calls(1).millis(5).rule("vlmevalkit-2026:option").backend("scripted")
                        .trace(bulkyTrace("q" + i)).build());
            }
        }
        return rs;
    }

    @Test void thePageHoldsCompactRowsAndTheSidecarHoldsTheDebates() throws Exception {
        List<ResultRecord> rs = records(1000);
        RunSummary s = RunSummary.compute("b.tsv", List.of("single", "gam"), false, 1000, List.of(), rs, PriceTable.from(Config.defaults()), 0.5, null);
        Path html = dir.resolve("report.html");
        HtmlReport.write(html, s, rs, Map.of("q7", "data:image/jpeg;base64,AAAA"));
        String page = Files.readString(html);
        assertThat(page).doesNotContain("DEBATE-ONLY").contains("What is shown in q999?");
        // 2,000 answers of ~6 kB debates: the page grows by well under 100 bytes an answer (the debates would add 12 MB);
        // measured as the growth from 1,000 answers to 2,000, so the page's fixed parts (scripts, styles, definitions) do not count
        List<ResultRecord> half = records(500);
        Path smaller = dir.resolve("half").resolve("report.html");
        Files.createDirectories(smaller.getParent());
        HtmlReport.write(smaller, RunSummary.compute("b.tsv", List.of("single", "gam"), false, 500, List.of(), half,
                PriceTable.from(Config.defaults()), 0.5, null), half, Map.of("q7", "data:image/jpeg;base64,AAAA"));
        assertThat((Files.size(html) - Files.size(smaller)) / 1000.0).as("bytes per answer in the page").isLessThan(100);
        Path side = dir.resolve("report-debates");
        try (Stream<Path> parts = Files.list(side)) {
            assertThat(parts.map(p -> p.getFileName().toString()).sorted().toList()).hasSize(20).startsWith("part-0000.js").endsWith("part-0019.js");
        }
        String first = Files.readString(side.resolve("part-0000.js"));
        assertThat(first).startsWith("gamDebates(0, ").contains("DEBATE-ONLY").contains("\"0|q7\":\"data:image/jpeg;base64,AAAA\"");
        // rows in question order (natural: q2 before q10), the methods in order within a question; 100 rows a part
        JsonNode data = Json.MAPPER.readTree(page.substring(page.indexOf("<script id=gam-data type=\"application/json\">") + 44, page.indexOf("</script>",
                page.indexOf("<script id=gam-data"))));
        JsonNode rows = data.at("/answers/rows");
        assertThat(rows.get(0).get(0).asText() + rows.get(1).get(0).asText() + rows.get(4).get(0).asText()).isEqualTo("q0q0q2");
        assertThat(rows.get(20).get(0).asText()).isEqualTo("q10");
        assertThat(data.at("/answers/partRows").asInt()).isEqualTo(100);
        assertThat(Files.readString(side.resolve("part-0001.js"))).contains("\"100\":{").doesNotContain("\"99\":{");

        // a smaller run in the same place leaves no stale parts behind
        List<ResultRecord> few = records(10);
        HtmlReport.write(html, RunSummary.compute("b.tsv", List.of("single", "gam"), false, 10, List.of(), few, PriceTable.from(Config.defaults()), 0.5, null),
                few, Map.of());
        try (Stream<Path> parts = Files.list(side)) {
            assertThat(parts.count()).isEqualTo(1);
        }
        HtmlReport.write(html, s);
        assertThat(side).as("no answers, no sidecar").doesNotExist();
    }

    @Test void questionIdsSortNaturally() {
        List<String> ids = new ArrayList<>(List.of("q10", "q2", "q1", "a", "q02b", "q2a", "10", "9"));
        ids.sort(dev.gamagent.util.NaturalOrder.COMPARATOR);
        assertThat(ids).containsExactly("9", "10", "a", "q1", "q2", "q2a", "q02b", "q10");
    }

    @Test void thumbnailsAreAtMost420PixelsWideInQuestionOrder() throws Exception {
        List<EvalQuestion> qs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            var img = new java.awt.image.BufferedImage(i == 1 ? 200 : 840, i == 1 ? 100 : 630, java.awt.image.BufferedImage.TYPE_INT_ARGB);
            List<dev.gamagent.image.Picture> pics = i == 3 ? List.of() : List.of(new dev.gamagent.image.Picture("p" + i, img));
            qs.add(new EvalQuestion(KeyedQuestion.unkeyed(dev.gamagent.api.Question.of("q" + i, pics, "q", Map.of("A", "a"))), "q" + i, 0, null));
        }
        Map<String, String> thumbs = HtmlReport.thumbnails(qs);
        assertThat(thumbs.keySet()).as("q3 has no image").containsExactly("q0", "q1", "q2", "q4");
        for (var e : thumbs.entrySet()) {
            assertThat(e.getValue()).startsWith("data:image/jpeg;base64,");
            var img = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(java.util.Base64.getDecoder().decode(e.getValue().substring(23))));
            assertThat(img.getWidth()).isEqualTo(e.getKey().equals("q1") ? 200 : 420);
            assertThat(img.getHeight()).isEqualTo(e.getKey().equals("q1") ? 100 : 315);
        }
    }

    @Test void aSmallImageReadFromBytesIsEmbeddedAsItIsWithoutDecoding() throws Exception {
        var img = new java.awt.image.BufferedImage(500, 300, java.awt.image.BufferedImage.TYPE_INT_RGB);
        var bytes = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(img, "png", bytes);
        var decoded = new java.util.concurrent.atomic.AtomicInteger();
        var p = dev.gamagent.image.Picture.encoded("small", bytes.toByteArray(), null, "image/png", 500, 300, b -> {
            decoded.incrementAndGet();
            return img;
        });
        var q = new EvalQuestion(KeyedQuestion.unkeyed(dev.gamagent.api.Question.of("q", List.of(p), "q", Map.of("A", "a"))), "q", 0, null);
        assertThat(HtmlReport.thumbnail(q)).isEqualTo(p.dataUrl()).startsWith("data:image/png;base64,");
        assertThat(decoded.get()).as("never decoded").isZero();
    }

    @Test void aVideoQuestionsThumbnailIsItsFramesSideBySideInTimeOrder() throws Exception {
        // 3 frames of 640×360, frame f filled with grey 60·f: the viewer cuts the strip into 3 equal tiles, tile k = frame k
        List<dev.gamagent.image.Picture> frames = new ArrayList<>();
        for (int f = 1; f <= 3; f++) {
            var img = new java.awt.image.BufferedImage(640, 360, java.awt.image.BufferedImage.TYPE_INT_RGB);
            var g = img.createGraphics();
            g.setColor(new java.awt.Color(60 * f, 60 * f, 60 * f));
            g.fillRect(0, 0, 640, 360);
            g.dispose();
            frames.add(new dev.gamagent.image.Picture("clip.mp4#frame-" + f, img));
        }
        var q = new EvalQuestion(KeyedQuestion.unkeyed(dev.gamagent.api.Question.of("v", frames, "q", Map.of("A", "a"))), "v", 0, null);
        String url = HtmlReport.thumbnail(q);
        assertThat(url).startsWith("data:image/jpeg;base64,");
        var strip = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(java.util.Base64.getDecoder().decode(url.substring(23))));
        int tile = dev.gamagent.image.internal.FrameStrip.tileWidth(3);
        assertThat(strip.getWidth()).isEqualTo(3 * tile);
        assertThat(strip.getHeight()).isEqualTo(Math.round(tile * 360 / 640f));
        for (int k = 0; k < 3; k++) {
            assertThat(strip.getRGB(k * tile + tile / 2, strip.getHeight() / 2) & 0xff).as("tile %d", k + 1).isBetween(60 * (k + 1) - 3, 60 * (k + 1) + 3);
        }
        // 64 frames still fit the strip's width
        assertThat(dev.gamagent.image.internal.FrameStrip.tileWidth(64) * 64).isLessThanOrEqualTo(dev.gamagent.image.internal.FrameStrip.MAX_WIDTH);
    }
}
