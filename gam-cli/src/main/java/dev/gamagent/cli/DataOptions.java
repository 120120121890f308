package dev.gamagent.cli;

import dev.gamagent.config.Config;
import dev.gamagent.eval.data.DataDirectory;
import dev.gamagent.eval.data.DataFiles;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;

/** Where benchmark files are kept and fetched from: shared by {@code gam data} and {@code gam eval}. */
public final class DataOptions {
    @Option(names = "--data-dir", description = "where benchmark files are kept (default: $LMUData, else ~/LMUData, as in VLMEvalKit)")
    Path dataDir;

    @Option(names = "--data-mirror", description = "base URL of a server holding a data directory's files (e.g. http://host:8000 "
            + "serving MMBench_DEV_EN.tsv), used instead of the official locations (default: $" + DataFiles.MIRROR_ENV + ")")
    String mirror;

    /** The data directory and mirror of this command line, downloads limited by {@code config} and reported on {@code log}. */
    public DataFiles files(Config config, PrintStream log) {
        DataDirectory dir = DataDirectory.of(dataDir);
        if (dir.note() != null) log.println("note: " + dir.note());
        return DataFiles.open(dir, mirror != null ? mirror : System.getenv(DataFiles.MIRROR_ENV), config, log);
    }
}
