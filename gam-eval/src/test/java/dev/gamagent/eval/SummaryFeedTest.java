package dev.gamagent.eval;

import dev.gamagent.eval.report.PriceTable;
import dev.gamagent.eval.report.RunSummary;
import dev.gamagent.eval.store.ResultRecord;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The summary is computed from stored records whose traces lost their words ({@link Evaluation#forSummary}); every
 * figure must come out as from the whole records. The fixture is a real run of single, gam, dream+gam, debate and mad
 * (6 questions) against the model-server simulator: its traces have the methods' real shape, its replies are synthetic.
 */
class SummaryFeedTest {
    private static List<ResultRecord> records() throws IOException {
        List<ResultRecord> out = new ArrayList<>();
        try (InputStream in = SummaryFeedTest.class.getResourceAsStream("/records/simulator-run.jsonl")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) out.add(Json.MAPPER.readValue(line, ResultRecord.class));
            }
        }
        return out;
    }

    private static String summary(List<ResultRecord> records) {
        RunSummary s = RunSummary.compute("b.tsv", List.of("single", "gam", "dream+gam", "debate", "mad"), false, 6, List.of(), records,
                PriceTable.from(dev.gamagent.config.Config.defaults()), 0.5, "gam eval");
        return Json.writePretty(s);
    }

    @Test void theSummaryOfRecordsWithoutTheirWordsEqualsTheSummaryOfWholeRecords() throws Exception {
        List<ResultRecord> whole = records();
        List<ResultRecord> slim = records().stream().map(Evaluation::forSummary).toList();
        long before = whole.stream().mapToLong(r -> Json.write(r.trace().json()).length()).sum();
        long after = slim.stream().mapToLong(r -> Json.write(r.trace().json()).length()).sum();
        assertThat(after).as("trace text kept for the summary").isLessThan(before * 2 / 3);
        assertThat(summary(slim)).isEqualTo(summary(whole));
    }
}
