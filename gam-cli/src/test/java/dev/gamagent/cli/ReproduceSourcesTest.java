package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.eval.data.FileServer;
import dev.gamagent.local.LocalBackend;
import dev.gamagent.local.LocalChatServer;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 41: who answered, where each column's figures come from, and which benchmarks a reproduction runs. Through
 * {@code gam local-server}'s own server class on 127.0.0.1, a run with {@code --model Qwen/Qwen2.5-VL-7B-Instruct} is labelled
 * as not the paper's model; a file whose md5 differs and a {@code --limit} run are marked in the paper's table; {@code
 * --benchmarks} takes a stand-in's name and a file; {@code --dry-run} lists every missing benchmark and fetches nothing.
 */
class ReproduceSourcesTest {
    @TempDir Path dir;

    /** A generated benchmark (gam bench generate) as {@code name} in a fresh data directory: its md5 is not the published one. */
    private Path dataDir(String name, int n, long seed) {
        Path data = dir.resolve("LMUData");
        assertThat(Main.run("bench", "generate", "--n", Integer.toString(n), "--seed", Long.toString(seed), "--out",
                data.resolve(name).toString())).isZero();
        return data;
    }

    private static JsonNode json(Path p) throws IOException { return Json.MAPPER.readTree(p.toFile()); }

    @Test void throughGamLocalServerWithAQwenModelNameTheTableSaysItIsNotTheModelRun() throws Exception {
        Path data = dataDir("MMBench_DEV_EN_V11.tsv", 3, 41);
        Path out = dir.resolve("out");
        // the server gam local-server starts: the built-in model over the OpenAI wire format, naming itself gam-perception
        try (LocalBackend backend = LocalBackend.create(Config.defaults());
             LocalChatServer server = new LocalChatServer(backend, LocalBackend.MODEL, 0, 2).start()) {
            CommandRun r = CommandRun.main("reproduce", "gam-agent-debate-rounds", "--methods", "Base-Debate (3 rounds)", "--out", out.toString(),
                    "--data-dir", data.toString(), "--limit", "2", "--backend", "openai", "--base-url", server.baseUrl(),
                    "--model", "Qwen/Qwen2.5-VL-7B-Instruct");
            assertThat(r.code()).as(r.err()).isZero();
            // said at start, on one line
            assertThat(r.err()).contains("note: the server at " + server.baseUrl() + " says it serves gam-perception, not --model Qwen/Qwen2.5-VL-7B-Instruct");
            assertThat(r.out()).contains("‡ Paper column: paper, Qwen2.5VL-7B — NOT the model run here (the built-in model (gam-perception) served at "
                    + server.baseUrl(), "| paper ‡ | Δ |", "Who answered: the server (GET /models) and its replies (each reply's model) named gam-perception");
            JsonNode table = json(out.resolve("paper-table.json"));
            assertThat(table.get("paperIsModelRun").asBoolean()).isFalse();
            assertThat(table.get("servedModels").toString()).contains("gam-perception");
            JsonNode pf = json(out.resolve("MMBench_V11_Test").resolve("summary.json")).get("paper_figures");
            assertThat(pf.get("paper_is_model_run").asBoolean()).isFalse();
            assertThat(pf.get("model_requested").asText()).isEqualTo("Qwen/Qwen2.5-VL-7B-Instruct");
            assertThat(pf.get("served_models").toString()).contains("gam-perception");
            assertThat(Files.readString(out.resolve("paper-table.md"))).contains("NOT the model run here");
        }
    }

    @Test void aFileThatIsNotTheOfficialOneAndALimitedRunAreMarkedInThePapersTable() throws Exception {
        // the generated file sits under the official name; its md5 is not the published one
        Path data = dataDir("MMBench_DEV_EN_V11.tsv", 5, 42);
        Path out = dir.resolve("out");
        CommandRun r = CommandRun.likeMain(new ReproduceCommand((spec, config) -> ScriptedBackend.text(req -> "A")), "gam-agent-debate-rounds",
                "--methods", "Base-Debate (3 rounds)", "--out", out.toString(), "--data-dir", data.toString(), "--limit", "3",
                "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "my-vlm");
        assertThat(r.code()).as(r.err()).isZero();
        String md = Files.readString(out.resolve("paper-table.md"));
        // the cell carries both marks, and the notes under the table say what each means for this column
        assertThat(md).containsPattern("\\| Base-Debate \\(3 rounds\\) \\| [0-9.]+ \\([0-9.–]+, n=3\\) \\[u,p\\] \\|");
        assertThat(md).contains("- Data, MMBench_V11_Test: MMBench_DEV_EN_V11.tsv; md5 differs from the published one; 3 of 5 questions (--limit 3); "
                        + "stand-in: MMBench_V11_Test has no public answers",
                "- [u] MMBench_V11_Test: MMBench_DEV_EN_V11.tsv is not the official file (its md5 differs from the published one)",
                "- [p] MMBench_V11_Test: 3 of 5 questions (--limit 3); a figure on part of the benchmark is not the benchmark's");
        JsonNode table = json(out.resolve("paper-table.json"));
        JsonNode p = table.get("provenance").get(0);
        assertThat(p.get("md5").asText()).isEqualTo("differs");
        assertThat(p.get("rowsRun").asInt()).isEqualTo(3);
        assertThat(p.get("rowsInFile").asInt()).isEqualTo(5);
        assertThat(table.get("cells").get(0).get("marks").toString()).isEqualTo("[\"u\",\"p\"]");
        // the run's own summary and report header say the same
        JsonNode summary = json(out.resolve("MMBench_V11_Test").resolve("summary.json"));
        assertThat(summary.get("provenance").get("md5").asText()).isEqualTo("differs");
        assertThat(Files.readString(out.resolve("MMBench_V11_Test").resolve("report.html")))
                .contains("<p class=provenance id=provenance>Run: model ", "; MMBench_DEV_EN_V11.tsv; md5 differs from the published one; 3 of 5 questions (--limit 3)",
                        "<b>[p]</b> MMBench_V11_Test: 3 of 5 questions");
    }

    @Test void benchmarksTakeTheStandInsNameAndAFile() throws Exception {
        Path data = dataDir("MMBench_DEV_EN_V11.tsv", 4, 43);
        ReproduceCommand scripted = new ReproduceCommand((spec, config) -> ScriptedBackend.text(req -> "A"));
        String[] backend = {"--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "my-vlm"};
        // the stand-in's name, as gam prints it, picks the column it stands in for
        Path byName = dir.resolve("by-name");
        CommandRun named = CommandRun.main("reproduce", "gam-agent-main", "--benchmarks", "MMBench_DEV_EN_V11", "--methods", "Base model",
                "--out", byName.toString(), "--data-dir", data.toString(), "--dry-run", "--backend", "local");
        assertThat(named.code()).as(named.err()).isZero();
        assertThat(named.out()).contains("MMBench_V11_Test = MMBench_DEV_EN_V11 (MMBench_DEV_EN_V11.tsv)").doesNotContain("MMMU =");

        // a file named as the stand-in's, elsewhere, runs in that column from that file
        Path elsewhere = Files.createDirectories(dir.resolve("mine")).resolve("MMBench_DEV_EN_V11.tsv");
        Files.copy(data.resolve("MMBench_DEV_EN_V11.tsv"), elsewhere);
        Path byFile = dir.resolve("by-file");
        CommandRun file = CommandRun.likeMain(scripted, concat(new String[]{"gam-agent-main", "--benchmarks", elsewhere.toString(), "--methods",
                "Base model", "--out", byFile.toString(), "--data-dir", dir.resolve("empty").toString(), "--limit", "2"}, backend));
        assertThat(file.code()).as(file.err()).isZero();
        assertThat(file.out()).contains("| Base model |", "MMBench_V11_Test†", "run from the file " + elsewhere + " given to --benchmarks");
        JsonNode summary = json(byFile.resolve("MMBench_V11_Test").resolve("summary.json"));
        assertThat(summary.get("data_file").get("file").asText()).isEqualTo(elsewhere.toString());
        assertThat(summary.get("provenance").get("md5").asText()).isEqualTo("differs");

        // any other file gets a column of its own, marked as a file gam does not know
        Path own = Files.copy(data.resolve("MMBench_DEV_EN_V11.tsv"), dir.resolve("mine").resolve("my_bench.tsv"));
        Path ownOut = dir.resolve("own");
        CommandRun mine = CommandRun.likeMain(new ReproduceCommand((spec, config) -> ScriptedBackend.text(req -> "A")),
                concat(new String[]{"gam-agent-main", "--benchmarks", own.toString(), "--methods", "Base model", "--out", ownOut.toString(),
                        "--data-dir", data.toString(), "--limit", "2"}, backend));
        assertThat(mine.code()).as(mine.err()).isZero();
        assertThat(mine.out()).contains("my_bench ours (95 % CI)", "[u] my_bench: my_bench.tsv is a file gam does not know");
        assertThat(ownOut.resolve("my_bench").resolve("summary.json")).exists();

        // a path that does not exist is named
        CommandRun missing = CommandRun.main("reproduce", "gam-agent-main", "--benchmarks", dir.resolve("nope.tsv").toString(), "--out",
                dir.resolve("x").toString(), "--dry-run");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).contains("--benchmarks " + dir.resolve("nope.tsv") + ": no such file");
    }

    @Test void aDryRunListsEveryMissingBenchmarkWithWhatGetsItAndFetchesNothing() throws Exception {
        Path data = Files.createDirectories(dir.resolve("LMUData"));
        // a mirror that holds the three files, and a model server: the dry run asks neither
        try (FileServer mirror = new FileServer(); FileServer server = new FileServer()) {
            for (String f : new String[]{"MMMU_DEV_VAL.tsv", "MMBench_DEV_EN_V11.tsv", "VStarBench.tsv"}) mirror.put("/" + f, "index\tquestion\n".getBytes());
            Path out = dir.resolve("out");
            CommandRun r = CommandRun.main("reproduce", "gam-agent-main", "--benchmarks", "MMMU,MMBench_V11_Test,V*Bench", "--out", out.toString(),
                    "--data-dir", data.toString(), "--data-mirror", mirror.base(), "--dry-run", "--backend", "openai", "--base-url", server.base() + "/v1",
                    "--model", "Qwen/Qwen2.5-VL-7B-Instruct");
            assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
            String flags = " --data-dir " + data + " --data-mirror " + mirror.base();
            assertThat(r.out()).contains("Missing (3 of 3 benchmarks; not planned above):",
                    "  MMMU (MMMU_DEV_VAL): gam data fetch MMMU_DEV_VAL" + flags,
                    "  MMBench_V11_Test (MMBench_DEV_EN_V11): gam data fetch MMBench_DEV_EN_V11" + flags,
                    "  V*Bench (VStarBench): gam data fetch VStarBench" + flags,
                    "dry run: nothing was asked or downloaded");
            assertThat(mirror.requests()).isEmpty();
            assertThat(server.requests()).isEmpty();
            try (Stream<Path> files = Files.list(data)) {
                assertThat(files.toList()).isEmpty();
            }
            JsonNode plan = json(out.resolve("plan.json"));
            assertThat(plan.get("missing")).hasSize(3);
        }
        // DREAM's sets are built, not downloaded: each is named with the step that builds it, and a run stops before anything is asked
        Path out = dir.resolve("dream");
        CommandRun dream = CommandRun.main("reproduce", "dream-table1", "--benchmarks", "MME,MVt,MVs", "--out", out.toString(),
                "--data-dir", data.toString(), "--dry-run", "--backend", "local");
        assertThat(dream.code()).isEqualTo(1);
        assertThat(dream.out()).contains("Missing (3 of 3 benchmarks",
                "MME (M3MAD_MME): huggingface-cli download lmms-lab/MME --repo-type dataset --local-dir "
                        + data.resolve("M3MAD").resolve("sources").resolve("lmms-lab").resolve("MME") + " && gam data build M3MAD_MME --data-dir " + data,
                "MVt (M3MAD_MathVista): huggingface-cli download AI4Math/MathVista", "&& gam data build M3MAD_MathVista",
                "MVs (M3MAD_MathVision): huggingface-cli download MathLLMs/MathVision", "&& gam data build M3MAD_MathVision");
        CommandRun run = CommandRun.main("reproduce", "dream-table1", "--benchmarks", "MME,MVt,MVs", "--out", out.toString(),
                "--data-dir", data.toString(), "--backend", "local");
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).contains("3 benchmarks of dream-table1 cannot be downloaded and are not in the data directory: MME (M3MAD_MME)",
                "MVs (M3MAD_MathVision)");
        assertThat(out.resolve("MME")).doesNotExist();
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
