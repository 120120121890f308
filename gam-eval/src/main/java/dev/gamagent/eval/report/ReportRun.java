package dev.gamagent.eval.report;

import dev.gamagent.eval.store.ResultRecord;

import java.util.List;
import java.util.Map;

/**
 * One run a report shows ({@link HtmlReport}): its name (empty for a single run), summary, the records behind it (may be
 * empty), and small images of its questions by question id (may be empty) for the trace viewer to draw claim regions on.
 */
public record ReportRun(String name, RunSummary summary, List<ResultRecord> records, Map<String, String> images) {
    public ReportRun(String name, RunSummary summary, List<ResultRecord> records) { this(name, summary, records, Map.of()); }
}
