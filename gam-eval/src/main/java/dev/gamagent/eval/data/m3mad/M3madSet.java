package dev.gamagent.eval.data.m3mad;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The six multimodal sets of M3MAD-Bench (liaolea/M3MAD-Bench {@code datasets/build_test_dataset.py}, commit 2fda509) that
 * DREAM reports: the name its {@code --dataset_name} takes, the Hugging Face dataset and split it loads (MME-Reasoning:
 * VLMEvalKit's TSV, which the script reads from a path on its authors' machine).
 */
public enum M3madSet {
    MME("MME", "lmms-lab/MME", "test"),
    MATHVISTA("MathVista", "AI4Math/MathVista", "testmini"),
    MATHVISION("MathVision", "MathLLMs/MathVision", "test"),
    PATHVQA("PathVQA", "flaviagiammarino/path-vqa", "test"),
    MME_REASONING("MME-reasoning", null, null),
    VISUALPUZZLES("VisualPuzzles", "neulab/VisualPuzzles", "train");

    /** The catalogue benchmark whose file the MME-Reasoning set is built from. */
    public static final String MME_REASONING_SOURCE = "MME-Reasoning";
    /** Where that file comes from (VLMEvalKit's URL for it). */
    public static final String MME_REASONING_URL = "https://huggingface.co/datasets/U4R/MME-Reasoning";

    private final String dataset;
    private final String repository;
    private final String split;

    M3madSet(String dataset, String repository, String split) {
        this.dataset = dataset;
        this.repository = repository;
        this.split = split;
    }

    /** The script's {@code --dataset_name}, and the file's name ({@code M3MAD/<dataset>.json}). */
    public String dataset() { return dataset; }

    /** gam's name for it: {@code M3MAD_<dataset>}. */
    public String benchmark() { return "M3MAD_" + dataset; }

    /** The Hugging Face dataset repository the script loads, or null (MME-reasoning reads a TSV). */
    public String repository() { return repository; }

    /** The split the script loads. */
    public String split() { return split; }

    /** The set gam calls {@code benchmark} ({@code M3MAD_MME}, case ignored). */
    public static Optional<M3madSet> of(String benchmark) {
        return Arrays.stream(values()).filter(s -> s.benchmark().equalsIgnoreCase(benchmark)).findFirst();
    }

    /** Every name, for an error. */
    public static List<String> names() { return Arrays.stream(values()).map(M3madSet::benchmark).toList(); }

    /** How to get the source into {@code dir}, one command. */
    public String download(java.nio.file.Path dir) {
        if (repository == null) return "gam data fetch " + MME_REASONING_SOURCE;
        return "huggingface-cli download " + repository + " --repo-type dataset --local-dir " + dir;
    }

    /** The source's web page. */
    public String page() {
        return repository == null ? MME_REASONING_URL : "https://huggingface.co/datasets/" + repository;
    }
}
