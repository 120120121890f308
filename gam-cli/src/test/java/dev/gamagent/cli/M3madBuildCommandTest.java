package dev.gamagent.cli;

import dev.gamagent.testing.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code gam data build}: the sources gam-eval's fixtures hold (Parquet, VLMEvalKit's TSV), built, verified, listed and evaluated by name. */
class M3madBuildCommandTest {
    private static final Path SOURCES = Path.of("gam-eval/src/test/resources/m3mad/sources");
    @TempDir Path dir;

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t); else Files.copy(p, t);
            }
        }
    }

    @Test void aBuiltSetIsVerifiedListedAndEvaluatedByName() {
        Path data = dir.resolve("data");
        CommandRun build = CommandRun.main("data", "build", "M3MAD_PathVQA", "--source", SOURCES.resolve("flaviagiammarino/path-vqa").toString(),
                "--data-dir", data.toString());
        assertThat(build.code()).as(build.err()).isZero();
        assertThat(build.out()).contains("built M3MAD_PathVQA: 6 questions written to " + data.resolve("M3MAD/PathVQA.json"),
                "read 7 rows", "1 duplicate queries dropped", "seed 2024");
        assertThat(data.resolve("M3MAD/PathVQA/image_7.png")).isRegularFile();

        CommandRun verify = CommandRun.main("data", "verify", "M3MAD_PathVQA", "--data-dir", data.toString());
        assertThat(verify.code()).as(verify.out()).isZero();
        CommandRun list = CommandRun.main("data", "list", "--data-dir", data.toString());
        assertThat(list.out()).containsPattern("M3MAD_PathVQA +yes ")
                .doesNotContainPattern("M3MAD_PathVQA +no \\(build\\)");

        CommandRun eval = CommandRun.main("eval", "--data", "M3MAD_PathVQA", "--methods", "single", "--out", dir.resolve("run").toString(),
                "--limit", "2", "--data-dir", data.toString());
        assertThat(eval.code()).as(eval.err()).isZero();
    }

    @Test void theSourceIsFoundInItsDefaultPlaceAndMmeReasoningInTheDataDirectory() throws IOException {
        Path data = dir.resolve("data");
        copyTree(SOURCES.resolve("neulab/VisualPuzzles"), data.resolve("M3MAD/sources/neulab/VisualPuzzles"));
        Files.copy(SOURCES.resolve("MME-Reasoning/MME_Reasoning.tsv"), data.resolve("MME_Reasoning.tsv")); // VLMEvalKit's name for it
        CommandRun r = CommandRun.main("data", "build", "M3MAD_VisualPuzzles", "M3MAD_MME-reasoning", "--data-dir", data.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("built M3MAD_VisualPuzzles: 4 questions", "built M3MAD_MME-reasoning: 4 questions",
                data.resolve("MME_Reasoning.tsv").toString());
        assertThat(data.resolve("M3MAD/MME-reasoning/MME_00004.png")).isRegularFile();
    }

    @Test void aMissingSourceSaysWhereItLookedAndTheCommandThatGetsIt() {
        Path data = dir.resolve("empty");
        CommandRun r = CommandRun.main("data", "build", "M3MAD_MathVision", "M3MAD_MME-reasoning", "--data-dir", data.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("error: M3MAD_MathVision: its source, the Hugging Face dataset MathLLMs/MathVision ('test' split), is not in "
                        + data.resolve("M3MAD/sources/MathLLMs/MathVision"),
                "get it with 'huggingface-cli download MathLLMs/MathVision --repo-type dataset --local-dir " + data.resolve("M3MAD/sources/MathLLMs/MathVision") + "'",
                "(https://huggingface.co/datasets/MathLLMs/MathVision), or pass --source DIR",
                "error: M3MAD_MME-reasoning: its source, VLMEvalKit's MME-Reasoning file (MME_Reasoning.tsv), is not in " + data,
                "'gam data fetch MME-Reasoning'");
        CommandRun other = CommandRun.main("data", "build", "MMStar", "--data-dir", data.toString());
        assertThat(other.code()).isNotZero();
        assertThat(other.err()).contains("'MMStar' is not a set gam data build makes", "M3MAD_MME, M3MAD_MathVista", "('gam data fetch MMStar' fetches it)");
    }
}
