package dev.gamagent.eval.load;

import java.nio.file.Path;
import java.util.Locale;

/** The kinds of benchmark file, by extension. */
enum FileFormat {
    TSV, JSONL, M3MAD;

    static FileFormat of(Path file) {
        String lower = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (lower.endsWith(".jsonl")) return JSONL;
        if (lower.endsWith(".json")) return M3MAD;
        if (lower.endsWith(".tsv")) return TSV;
        throw new IllegalArgumentException("benchmark file " + file + ": unknown format; use .tsv (VLMEvalKit), .json (M3MAD) or .jsonl");
    }
}
