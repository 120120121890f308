package dev.gamagent.eval;

import dev.gamagent.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** The report opens in headless Chromium and its plots are real PNG images. CI installs /usr/bin/chromium. */
class HtmlReportBrowserTest {
    /** /usr/bin/chromium (Debian), else chromium or chromium-browser on the PATH. */
    static final Path CHROMIUM = locate();

    private static Path locate() {
        Path debian = Path.of("/usr/bin/chromium");
        if (Files.isExecutable(debian)) return debian;
        for (String dirName : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            for (String exe : List.of("chromium", "chromium-browser")) {
                Path p = Path.of(dirName.isEmpty() ? "." : dirName, exe);
                if (Files.isExecutable(p)) return p;
            }
        }
        return debian;
    }
    @TempDir Path dir;

    private String chromium(String... args) throws Exception {
        if (!Files.isExecutable(CHROMIUM)) {
            fail("this test needs headless Chromium (looked for /usr/bin/chromium, then chromium or chromium-browser on the PATH); "
                    + "install it with `apt-get install chromium` (.ci/run does)");
        }
        List<String> cmd = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-dev-shm-usage", "--user-data-dir=" + dir.resolve("profile")));
        cmd.addAll(List.of(args));
        Path out = dir.resolve("chromium.out");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(dir.resolve("chromium.err").toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("chromium did not finish in 120 s: " + Files.readString(dir.resolve("chromium.err")));
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    @Test void theReportRendersInChromiumWithEveryPlotADecodablePng() throws Exception {
        List<ResultRecord> records = new ArrayList<>(MethodMetricsTest.records());
        records.add(new ResultRecord("1", "1", 0, "single", "cat", "l2", "correct", "A", "A", "a", "A", 0.8, 0.2, 0, "single",
                50, 5, false, 1, 400, "method", null, "local", null));
        records.add(new ResultRecord("2", "2", 0, "single", "cat", "l2", "wrong", "B", "A", "b", "B", 0.7, 0.3, 0, "single",
                50, 5, false, 1, 400, "method", null, "local", null));
        RunSummary s = RunSummary.compute("bench.tsv", List.of("single", "gam"), false, 4, List.of(new SkippedRow("7", "bad <base64>")),
                records, PriceTable.from(Config.defaults()), 0.5, "gam eval --data bench.tsv --methods single,gam --out run");
        Path html = dir.resolve("report.html");
        HtmlReport.write(html, s);

        String dom = chromium("--dump-dom", html.toUri().toString());
        assertThat(dom).contains("Evaluation of bench.tsv").contains("bad &lt;base64&gt;");
        Matcher m = Pattern.compile("<img alt=\"([^\"]+)\" src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\"").matcher(dom);
        List<String> alts = new ArrayList<>();
        while (m.find()) {
            BufferedImage img = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(m.group(2))));
            assertThat(img).as("plot %s decodes", m.group(1)).isNotNull();
            assertThat(img.getWidth()).isEqualTo(Charts.WIDTH);
            alts.add(m.group(1));
        }
        assertThat(alts).contains("accuracy vs tokens", "reliability diagram", "U_sys per round", "expert weights per round: gam",
                "termination reasons", "DREAM branch shares");

        Path shot = dir.resolve("shot.png");
        chromium("--screenshot=" + shot, "--window-size=1200,1600", html.toUri().toString());
        BufferedImage page = ImageIO.read(shot.toFile());
        assertThat(page).as("screenshot written").isNotNull();
        // the page is not blank: count distinct colours (plots add many)
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < page.getHeight(); y += 4) for (int x = 0; x < page.getWidth(); x += 4) colours.add(page.getRGB(x, y));
        assertThat(colours.size()).isGreaterThan(20);
    }
}
