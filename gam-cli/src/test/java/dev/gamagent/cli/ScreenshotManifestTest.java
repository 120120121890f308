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
 * The README's pictures cannot go stale silently (issues 27, 42): bench/screenshots.sh makes them and writes
 * docs/img/screenshots.json with the hashes of every file under the paths bench/screenshot-sources.txt names (the
 * pages' scripts and styles, the report's Java), the ECharts version, the demo's figures and what each picture shows.
 * When a source changes, the pages use a script outside those paths, the README's demo table no longer shows the
 * figures the pictures were made from, or a caption does not name what its picture shows, this test fails and says to
 * rerun the script (pixels and file times are not stable enough to compare).
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
        List<String> expected = pictureSources();
        List<String> changed = new ArrayList<>();
        for (String f : expected) {
            JsonNode hash = sources.get(f);
            if (hash == null || !sha256(Path.of(f)).equals(hash.asText())) changed.add(f);
        }
        for (var it = sources.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!expected.contains(f)) changed.add(f + " (gone, or no longer under bench/screenshot-sources.txt)");
        }
        assertThat(changed).as("sources changed, added or removed since the README's screenshots were made" + RERUN).isEmpty();
        assertThat(manifest().path("echarts").asText()).as("the ECharts version the pictures were drawn with" + RERUN).isEqualTo(echartsVersion());
    }

    /**
     * The list is derived, not kept by hand: the pages' scripts and style sheets must all lie under the listed paths —
     * every resource the report page inlines (named in its script comments, its style sheets found by their text) and
     * every one the serve page's index.html loads.
     */
    @Test void everyScriptAndStyleThePagesUseIsASourceOfThePictures() throws Exception {
        List<String> sources = pictureSources();
        List<Path> web = new ArrayList<>();
        for (String module : List.of("gam-eval", "gam-web", "gam-server")) {
            try (var files = Files.list(Path.of(module + "/src/main/resources/web"))) {
                web.addAll(files.toList());
            }
        }
        String report = dev.gamagent.eval.report.HtmlReport.render(dev.gamagent.eval.report.RunSummary.compute("b.tsv", List.of("single"), false, 0,
                List.of(), List.of(), dev.gamagent.eval.report.PriceTable.from(dev.gamagent.config.Config.defaults()), 0.5, null));
        List<String> used = new ArrayList<>();
        Matcher inlined = Pattern.compile("<script>/\\* ([\\w.-]+) \\*/").matcher(report);
        while (inlined.find()) used.add(inlined.group(1));
        assertThat(used).as("the report page names the scripts it inlines").contains("report.js", "viewer.js");
        for (Path p : web) {
            String name = p.getFileName().toString();
            if (name.endsWith(".css") && report.contains(Files.readString(p).strip())) used.add(name);
        }
        assertThat(used).as("the report page's style sheets").contains("report.css", "viewer.css");
        Matcher loaded = Pattern.compile("(?:src|href)=\"/ui/([^\"]+)\"").matcher(Files.readString(Path.of("gam-server/src/main/resources/web/index.html")));
        while (loaded.find()) used.add(loaded.group(1));
        used.add("index.html");
        for (String name : used) {
            if (name.equals("echarts.js")) continue; // the webjar's, by version
            List<String> found = web.stream().filter(p -> p.getFileName().toString().equals(name)).map(p -> p.toString().replace('\\', '/')).toList();
            assertThat(found).as(name + ", which a page uses, is a file of a module's web folder").isNotEmpty();
            assertThat(sources).as(found + " is under a path of bench/screenshot-sources.txt").containsAll(found);
        }
        assertThat(sources).as("the token plot's numbers and the report's Java").contains(
                "gam-eval/src/main/java/dev/gamagent/eval/report/MethodMetrics.java", "gam-eval/src/main/java/dev/gamagent/eval/report/HtmlReport.java");
    }

    /** Every file under the paths bench/screenshot-sources.txt names (folders walked, echarts.js aside), sorted. */
    static List<String> pictureSources() throws Exception {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("bench/screenshot-sources.txt"))) {
            String path = line.replaceAll("#.*", "").strip();
            if (path.isEmpty()) continue;
            Path p = Path.of(path);
            assertThat(p).as("bench/screenshot-sources.txt names " + path).exists();
            try (var walk = Files.walk(p)) {
                walk.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals("echarts.js"))
                        .forEach(f -> out.add(f.toString().replace('\\', '/')));
            }
        }
        return out.stream().distinct().sorted().toList();
    }

    /** The ECharts version the build bundles (the root pom's echarts.version). */
    static String echartsVersion() throws Exception {
        Matcher m = Pattern.compile("<echarts.version>([^<]+)</echarts.version>").matcher(Files.readString(Path.of("pom.xml")));
        assertThat(m.find()).as("pom.xml sets echarts.version").isTrue();
        return m.group(1);
    }

    @Test void everyPictureTheReadmeShowsWasMadeByTheScriptAndItsCaptionNamesWhatItShows() throws Exception {
        JsonNode images = manifest().path("images");
        Matcher m = Pattern.compile("!\\[([^\\]]*)\\]\\((docs/img/[^)]+\\.png)\\)").matcher(Files.readString(Path.of("README.md")));
        int shown = 0;
        List<String> unnamed = new ArrayList<>();
        while (m.find()) {
            shown++;
            Path img = Path.of(m.group(2));
            assertThat(img).exists();
            String name = img.getFileName().toString();
            assertThat(images.has(name)).as(img + " is made by bench/screenshots.sh" + RERUN).isTrue();
            JsonNode shows = images.path(name).path("shows");
            assertThat(shows.isArray()).as(name + ": what it shows, in the manifest" + RERUN).isTrue();
            String caption = m.group(1).toLowerCase(Locale.ROOT);
            for (JsonNode s : shows) if (!caption.contains(s.asText().toLowerCase(Locale.ROOT))) unnamed.add(name + ": \"" + s.asText() + "\"");
        }
        assertThat(shown).isGreaterThanOrEqualTo(4);
        assertThat(unnamed).as("what a picture shows (its headings and chart titles) that the README's caption of it does not name; "
                + "write the caption from the picture").isEmpty();
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
