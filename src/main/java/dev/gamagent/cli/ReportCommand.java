package dev.gamagent.cli;

import dev.gamagent.eval.HtmlReport;
import dev.gamagent.eval.RunSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code gam report}: several eval runs side by side (an HTML page and a table on stdout). */
@Command(name = "report", mixinStandardHelpOptions = true, description = "Compare gam eval runs side by side.")
public final class ReportCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", description = "gam eval output directories")
    List<Path> dirs = new ArrayList<>();

    @Option(names = "--out", defaultValue = "comparison.html", description = "HTML file to write (default: ${DEFAULT-VALUE})")
    Path out;

    @Override public Integer call() throws Exception {
        System.setProperty("java.awt.headless", "true");
        Map<String, RunSummary> runs = new LinkedHashMap<>();
        for (Path d : dirs) {
            Path f = d.resolve("summary.json");
            if (!Files.isRegularFile(f)) throw new IllegalArgumentException(d + " holds no summary.json; run `gam eval ... --out " + d + "` first");
            String name = d.getFileName() == null ? d.toString() : d.getFileName().toString();
            if (runs.containsKey(name)) name = d.toString();
            runs.put(name, RunSummary.read(f));
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        Files.writeString(out, HtmlReport.renderComparison(runs));
        System.out.print(SummaryTable.render(runs, true));
        System.out.println("wrote " + out);
        return 0;
    }
}
