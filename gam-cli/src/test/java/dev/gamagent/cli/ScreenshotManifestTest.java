package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's pictures cannot go stale silently (issue 27): bench/screenshots.sh makes them and writes
 * docs/img/screenshots.json with the hashes of the report and viewer sources and the demo's figures. When a source
 * changes, or the README's demo table no longer shows the figures the pictures were made from, this test fails and
 * says to rerun the script (pixels and file times are not stable enough to compare).
 */
class ScreenshotManifestTest {
    static final Path MANIFEST = Path.of("docs/img/screenshots.json");
    static final String RERUN = "; rerun bench/screenshots.sh (it regenerates docs/img/*.png and the manifest)";

    static JsonNode manifest() throws Exception {
        assertThat(MANIFEST).as("docs/img/screenshots.json, written by bench/screenshots.sh").exists();
        return Json.MAPPER.readTree(MANIFEST.toFile());
    }

    @Test void theReportAndViewerSourcesAreTheOnesThePicturesWereMadeFrom() throws Exception {
        JsonNode sources = manifest().path("sources");
        assertThat(sources.size()).as("sources listed in the manifest").isGreaterThanOrEqualTo(8);
        List<String> changed = new ArrayList<>();
        for (var e : (Iterable<Map.Entry<String, JsonNode>>) sources::fields) {
            Path f = Path.of(e.getKey());
            if (!Files.isRegularFile(f) || !sha256(f).equals(e.getValue().asText())) changed.add(e.getKey());
        }
        assertThat(changed).as("sources changed since the README's screenshots were made" + RERUN).isEmpty();
        // every web source of the report, the viewer and the server's page is covered
        for (String module : List.of("gam-eval", "gam-web", "gam-server")) {
            try (var web = Files.list(Path.of(module + "/src/main/resources/web"))) {
                for (Path p : web.filter(p -> !p.getFileName().toString().equals("echarts.js")).toList()) {
                    assertThat(sources.has(p.toString().replace('\\', '/'))).as(p + " is hashed in the manifest" + RERUN).isTrue();
                }
            }
        }
    }

    @Test void everyPictureTheReadmeShowsWasMadeByTheScript() throws Exception {
        JsonNode images = manifest().path("images");
        Matcher m = Pattern.compile("\\]\\((docs/img/[^)]+\\.png)\\)").matcher(Files.readString(Path.of("README.md")));
        int shown = 0;
        while (m.find()) {
            shown++;
            Path img = Path.of(m.group(1));
            assertThat(img).exists();
            assertThat(images.has(img.getFileName().toString())).as(img + " is made by bench/screenshots.sh" + RERUN).isTrue();
        }
        assertThat(shown).isGreaterThanOrEqualTo(4);
    }

    /** The pictures show the demo's figures: the same accuracies as the README's demo table. */
    @Test void thePicturesShowTheFiguresOfTheReadmesDemoTable() throws Exception {
        Map<String, String> readme = readmeDemoAccuracies();
        assertThat(readme).as("the README's demo table").isNotEmpty();
        Map<String, String> pictured = new LinkedHashMap<>();
        manifest().path("demo").fields().forEachRemaining(e ->
                pictured.put(e.getKey(), String.format(Locale.ROOT, "%.1f%%", 100 * e.getValue().path("accuracy").asDouble())));
        assertThat(pictured).as("the demo's accuracies in the screenshots vs the README's table" + RERUN).isEqualTo(readme);
    }

    /** method → acc, from the README's "What the demo prints" table. */
    static Map<String, String> readmeDemoAccuracies() throws Exception {
        Matcher block = Pattern.compile("## What the demo prints.*?```\\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(Path.of("README.md")));
        assertThat(block.find()).as("README.md has the demo's table").isTrue();
        Map<String, String> out = new LinkedHashMap<>();
        List<String> header = null;
        for (String line : block.group(1).lines().toList()) {
            List<String> cells = List.of(line.trim().split("\\s+"));
            if (header == null) {
                if (!cells.isEmpty() && cells.get(0).equals("method")) header = cells;
                continue;
            }
            if (line.isBlank() || cells.size() != header.size()) break;
            out.put(cells.get(0), cells.get(header.indexOf("acc")));
        }
        return out;
    }

    static String sha256(Path f) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
    }
}
