package dev.gamagent.cli;

import dev.gamagent.eval.data.DataFiles;
import dev.gamagent.eval.data.DatasetEntry;

import java.io.PrintStream;
import java.nio.file.Path;

/** {@code gam eval --data}: a file, or a benchmark's name resolved to its file (found or downloaded) before the loader sees it. */
final class BenchmarkByName {
    private BenchmarkByName() { }

    /** The file {@code data} names, checked; a file the catalogue does not know is passed on as it is. */
    static DataFiles.DataFile resolve(Path data, DataOptions options, PrintStream err) {
        DataFiles f = options.files(err);
        DataFiles.DataFile file = f.resolve(data.toString());
        DatasetEntry e = file.entry();
        if (e != null && !e.answers()) {
            throw new IllegalArgumentException(e.name() + " has no public answers, so gam eval cannot grade it"
                    + (e.standIn() != null ? "; evaluate its dev split " + e.standIn() + " instead (--data " + e.standIn() + ")" : "")
                    + (e.submitTo() != null ? "; the official figures come from predictions submitted to " + e.submitTo()
                    + " (writing the submission file is not supported yet)" : ""));
        }
        if (e != null) {
            err.println((file.check().warns() ? "warning: " : "data: ") + file.describe());
            if (e.note() != null) err.println("note: " + e.name() + ": " + e.note());
        }
        return file;
    }

    /** Adds what is known about the file (md5, whether it is the official one) to {@code out/summary.json}. */
    static void record(DataFiles.DataFile file, Path out) {
        dev.gamagent.eval.data.SummaryData.addTo(out.resolve("summary.json"),
                file.provenance(dev.gamagent.eval.data.DatasetCatalogue.builtIn()));
    }
}
