package dev.gamagent.eval.data;

import java.util.List;

/**
 * One benchmark gam knows by name (an entry of {@code datasets/catalogue.json}).
 *
 * @param name      the name users type ({@code --data MMBench_DEV_EN}); VLMEvalKit's own where VLMEvalKit has it
 * @param kind      how its files are stored and located ({@link DatasetKind#name()})
 * @param file      where it lives inside the data directory ({@code MMBench_DEV_EN.tsv}, VLMEvalKit's layout)
 * @param url       its official download location, or null when there is none (M3MAD-Bench builds its files locally)
 * @param md5       the published md5 of the official file, or null when none is published
 * @param bytes     the official file's size when known (a download may not grow much past it), else null
 * @param grading   how its answers are graded: {@code multiple-choice}, {@code yes-no}, {@code mathvista}, {@code open}, {@code m3mad},
 *                  {@code mvbench}, or one of VLMEvalKit's rules in {@code eval.grade.VlmEvalKitVqa} and {@code VlmEvalKitLetters}
 *                  ({@code vqa-score}, {@code anls}, {@code spatial-mcq}, …)
 * @param answers   false for a test split whose answers are not public
 * @param standIn   the split that stands in for a test split without answers (null otherwise)
 * @param submitTo  where predictions on a test split without answers are graded (null when unknown)
 * @param papers    which paper of ours uses it, as the paper names it (empty: none)
 * @param definedIn where its URL and md5 come from (file and class)
 * @param build     for a benchmark without a download: the command that builds it
 * @param note      anything a user must know (how it deviates from its source, what VLMEvalKit grades with a judge)
 */
public record DatasetEntry(String name, String kind, String file, String url, String md5, Long bytes, String grading, boolean answers,
                           String standIn, String submitTo, List<String> papers, String definedIn, String build, String note) {
    public DatasetEntry {
        papers = papers == null ? List.of() : List.copyOf(papers);
    }

    /** The file name of the official URL (VLMEvalKit's legacy local name), or null without a URL. */
    public String urlFileName() {
        if (url == null) return null;
        String path = java.net.URI.create(url).getPath();
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** Whether a published md5 exists to check a file against. */
    public boolean hasPublishedMd5() { return md5 != null; }
}
