package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.store.Records;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.eval.store.ResultStore;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** gam report compares every series with every other across runs, on the questions both answered (paired by question id). */
class ReportPairsAcrossRunsTest {
    @TempDir Path dir;

    static ResultRecord rec(String method, String id, boolean right) {
        return Records.record(id, method).group(id).category("c").outcome(right ? "correct" : "wrong").predicted("A")
                .groundTruth("A").answer("a").option("A").confidence(0.8).uncertainty(0.2).termination("single")
                .promptTokens(10).completionTokens(1).calls(1).millis(5).rule("vlmevalkit-2026:option")
                .backend("scripted").build();
    }

    /** Run "base": single right on q0..q19 of q0..q39. Run "tuned": gam on q10..q49, right on all but q45..q49. */
    Path[] runs() {
        Path base = dir.resolve("base"), tuned = dir.resolve("tuned");
        try (ResultStore s = new ResultStore(base)) {
            for (int i = 0; i < 40; i++) s.put(rec("single", "q" + i, i < 20));
        }
        try (ResultStore s = new ResultStore(tuned)) {
            for (int i = 10; i < 50; i++) s.put(rec("gam", "q" + i, i < 45));
        }
        return new Path[]{base, tuned};
    }

    private String report(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream o = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertThat(new CommandLine(new ReportCommand()).execute(args)).isZero();
        } finally {
            System.setOut(o);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test void seriesOfDifferentRunsArePairedByQuestionId() throws Exception {
        Path[] r = runs();
        Path html = dir.resolve("cmp.html");
        String table = report(r[0].toString(), r[1].toString(), "--out", html.toString());
        // shared: q10..q39 (30); gam right on all of them, single on q10..q19: 20 only for gam, 0 only for single
        String pair = table.lines().filter(l -> l.startsWith("tuned / gam vs base / single")).findFirst().orElseThrow();
        assertThat(pair).contains(" 30 ", "+66.7", "20 vs 0", "<0.0001", "significant");
        String page = Files.readString(html);
        JsonNode data = Json.MAPPER.readTree(page.substring(page.indexOf("type=\"application/json\">") + 24,
                page.indexOf("</script>", page.indexOf("type=\"application/json\">"))));
        JsonNode p = data.at("/pairs/pairs/0");
        assertThat(p.path("method").asText()).isEqualTo("tuned / gam");
        assertThat(p.path("n").asInt()).isEqualTo(30);
        assertThat(p.path("p").asDouble()).isCloseTo(2.0 / (1 << 20), within(1e-15));
        assertThat(page).contains("id=pairs-table", "paired by question id across runs");
    }

    @Test void bootstrapIntervalsAreAvailableAndSaySo() {
        Path[] r = runs();
        String table = report(r[0].toString(), r[1].toString(), "--out", dir.resolve("b.html").toString(), "--interval", "bootstrap");
        assertThat(table).contains("percentile bootstrap, 2000 resamples").contains("paired percentile bootstrap");
    }
}
