package dev.gamagent.eval.report;

import dev.gamagent.eval.store.ResultRecord;

import java.util.List;
import java.util.Map;

/**
 * One run a report shows ({@link HtmlReport}): its name (empty for a single run), summary, the records behind it (may be
 * empty), small images of its questions by question id (may be empty) for the trace viewer to draw claim regions on,
 * the paper's figures a reproduction marks beside ours (or null), and where its figures come from (or null).
 */
public record ReportRun(String name, RunSummary summary, List<ResultRecord> records, Map<String, String> images,
                        com.fasterxml.jackson.databind.JsonNode paperFigures, Provenance provenance) {
    public ReportRun(String name, RunSummary summary, List<ResultRecord> records) { this(name, summary, records, Map.of(), null, null); }

    public ReportRun(String name, RunSummary summary, List<ResultRecord> records, Map<String, String> images,
                     com.fasterxml.jackson.databind.JsonNode paperFigures) {
        this(name, summary, records, images, paperFigures, null);
    }
}
