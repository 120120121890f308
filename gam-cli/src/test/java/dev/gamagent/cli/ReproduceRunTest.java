package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.bench.sim.ModelServerSimulator;
import dev.gamagent.bench.sim.SimulatorSettings;
import dev.gamagent.eval.data.FileServer;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23 items 2–3: {@code gam reproduce RECIPE} runs a recipe end to end — one resumable gam eval per benchmark, the
 * paper's layout with ours, the paper's figure for the model run (matched by alias), Δ and our interval; the dry run's
 * ranges hold the measured calls and tokens; a pilot's estimate is close to the full run's.
 */
class ReproduceRunTest {
    @TempDir Path dir;

    /** A generated benchmark (gam bench generate) as {@code name} in a fresh data directory. */
    private Path dataDir(String name, int n, long seed) {
        Path data = dir.resolve("LMUData");
        assertThat(Main.run("bench", "generate", "--n", Integer.toString(n), "--seed", Long.toString(seed), "--out",
                data.resolve(name).toString())).isZero();
        return data;
    }

    private static JsonNode json(Path p) throws IOException { return Json.MAPPER.readTree(p.toFile()); }

    private static JsonNode cell(JsonNode table, String row) {
        for (JsonNode c : table.get("cells")) if (c.get("row").asText().equals(row)) return c;
        throw new AssertionError("no cell for " + row + " in " + table);
    }

    @Test void onTheBuiltInModelTheRecipeRunsEndToEndAndThePaperColumnIsEmptyOrLabelled() throws IOException {
        Path data = dataDir("MMBench_DEV_EN_V11.tsv", 6, 31);
        Path out = dir.resolve("out");
        CommandRun dry = CommandRun.main("reproduce", "gam-agent-debate-rounds", "--out", out.toString(), "--data-dir", data.toString(),
                "--limit", "3", "--dry-run");
        assertThat(dry.code()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("MMBench_V11_Test = MMBench_DEV_EN_V11", "12 questions", "stands in for it", "self-debate", "gam",
                "3–21", "total: calls", "dry run: nothing was asked");
        assertThat(out.resolve("MMBench_V11_Test")).doesNotExist();
        JsonNode plan = json(out.resolve("plan.json"));

        CommandRun r = CommandRun.main("reproduce", "gam-agent-debate-rounds", "--out", out.toString(), "--data-dir", data.toString(), "--limit", "3");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("| Base-Debate (3 rounds) |", "| GAM-Agent (3 rounds) |", "MMBench_V11_Test†",
                "its dev split MMBench_DEV_EN_V11 stands in", "The paper reports no figures for the built-in model");
        assertThat(out.resolve("MMBench_V11_Test").resolve("summary.json")).exists();
        JsonNode table = json(out.resolve("paper-table.json"));
        assertThat(table.get("paperModel")).isNull();
        JsonNode gam = cell(table, "GAM-Agent (3 rounds)");
        assertThat(gam.get("n").asInt()).isEqualTo(3);
        assertThat(gam.get("ci").get("lo").asDouble()).isLessThanOrEqualTo(gam.get("ours").asDouble());
        assertThat(gam.has("paper")).isFalse();
        assertThat(Files.readString(out.resolve("paper-table.md"))).contains("| GAM-Agent (3 rounds) |");
        // every measured count falls inside the dry run's ranges
        assertThat(table.get("actuals")).hasSize(2);
        for (JsonNode a : table.get("actuals")) {
            for (String k : List.of("calls", "promptTokens", "completionTokens")) assertThat(a.get(k).get("inside").asBoolean()).as(a.toString()).isTrue();
            JsonNode planned = null;
            for (JsonNode m : plan.get("runs").get(0).get("methods")) if (m.get("method").asText().equals(a.get("method").asText())) planned = m;
            assertThat(planned).isNotNull();
            assertThat(a.get("promptTokens").get("estimateHigh").asDouble()).isEqualTo(Math.ceil(planned.get("promptTokens").get("high").asDouble()));
        }

        // the same run again resumes (nothing new is asked) and --paper-model puts the paper's figures beside ours, labelled
        CommandRun again = CommandRun.main("reproduce", "gam-agent-debate-rounds", "--out", out.toString(), "--data-dir", data.toString(),
                "--limit", "3", "--paper-model", "Qwen2.5VL-7B");
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(again.err()).contains("resum");
        assertThat(again.out()).contains("paper, Qwen2.5VL-7B — NOT the model run here (the built-in model)", "| 89.02 |", "for reference only");
    }

    @Test void aModelThePaperReportsFillsThePaperColumnByAliasWithDelta() throws IOException {
        Path data = dataDir("MMBench_DEV_EN_V11.tsv", 4, 32);
        Path out = dir.resolve("out");
        List<String> models = new ArrayList<>();
        // a test tool standing in for a served Qwen2.5-VL-7B: it always answers A, and its replies name the model as a server's do
        ReproduceCommand cmd = new ReproduceCommand((spec, config) -> {
            models.add(spec.model());
            return new ScriptedBackend("scripted", new dev.gamagent.backend.Capabilities(true, false, 0, true, true, 0),
                    req -> new dev.gamagent.backend.ChatResult(List.of(new dev.gamagent.backend.Choice("A", List.of(), "stop")),
                            new dev.gamagent.backend.Usage(10, 1, false), Duration.ofMillis(1), spec.model()));
        });
        CommandRun r = CommandRun.likeMain(cmd, "gam-agent-debate-rounds", "--methods", "Base-Debate (3 rounds)", "--out", out.toString(),
                "--data-dir", data.toString(), "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "Qwen/Qwen2.5-VL-7B-Instruct");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(models).contains("Qwen/Qwen2.5-VL-7B-Instruct");
        JsonNode table = json(out.resolve("paper-table.json"));
        assertThat(table.get("paperModel").asText()).isEqualTo("Qwen2.5VL-7B");
        assertThat(table.get("paperIsModelRun").asBoolean()).isTrue();
        JsonNode c = cell(table, "Base-Debate (3 rounds)");
        assertThat(c.get("paper").asText()).isEqualTo("86.50");
        assertThat(c.get("delta").asDouble()).isCloseTo(c.get("ours").asDouble() - 86.50, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.out()).contains("| paper, Qwen2.5VL-7B | Δ |").doesNotContain("NOT the model run");
        // the run's summary.json carries the paper's figures for reports to mark
        JsonNode pf = json(out.resolve("MMBench_V11_Test").resolve("summary.json")).get("paper_figures");
        assertThat(pf.get("paper_model").asText()).isEqualTo("Qwen2.5VL-7B");
        assertThat(pf.get("rows").get(0).get("method").asText()).isEqualTo("self-debate");
        assertThat(pf.get("rows").get(0).get("paper").asText()).isEqualTo("86.50");
        // and so does its report.html, whose accuracy plot marks them (PaperFiguresBrowserTest)
        assertThat(Files.readString(out.resolve("MMBench_V11_Test").resolve("report.html"))).contains("\"paperFigures\":{", "\"paper\":\"86.50\"");
        // the row not asked for stays empty
        assertThat(cell(table, "GAM-Agent (3 rounds)").has("ours")).isFalse();
        // a model the paper does not report: the paper column is empty, the run is the same
        CommandRun other = CommandRun.likeMain(new ReproduceCommand((spec, config) -> ScriptedBackend.text(req -> "A")), "gam-agent-debate-rounds",
                "--methods", "self-debate", "--out", dir.resolve("other").toString(), "--data-dir", data.toString(), "--backend", "openai",
                "--base-url", "http://127.0.0.1:9/v1", "--model", "my-own-vlm");
        assertThat(other.code()).as(other.err()).isZero();
        assertThat(other.out()).contains("The paper reports no figures for openai:my-own-vlm");
        assertThat(json(dir.resolve("other").resolve("paper-table.json")).get("paperModel")).isNull();
    }

    @Test void onTheSimulatorThePaperColumnIsLabelledAsNotThePapersModel() throws IOException {
        Path data = dataDir("MMBench_DEV_EN_V11.tsv", 3, 33);
        Path out = dir.resolve("out");
        SimulatorSettings s = SimulatorSettings.fixed(Duration.ZERO, 4);
        try (ModelServerSimulator sim = new ModelServerSimulator(s)) {
            CommandRun r = CommandRun.main("reproduce", "gam-agent-debate-rounds", "--out", out.toString(), "--data-dir", data.toString(),
                    "--limit", "2", "--backend", "openai", "--base-url", sim.baseUrl(), "--model", "Qwen/Qwen2.5-VL-7B-Instruct");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).contains("‡ Paper column: paper, Qwen2.5VL-7B — NOT the model run here (gam bench serve-sim, the model-server simulator", "| paper ‡ | Δ |",
                    "| 86.50 |", "| 89.02 |");
            JsonNode table = json(out.resolve("paper-table.json"));
            assertThat(table.get("paperIsModelRun").asBoolean()).isFalse();
            for (JsonNode a : table.get("actuals")) {
                for (String k : List.of("calls", "promptTokens", "completionTokens")) assertThat(a.get(k).get("inside").asBoolean()).as(a.toString()).isTrue();
            }
        }
    }

    /**
     * A held-out generated benchmark (seed 4711, used nowhere else) served over HTTP from 127.0.0.1 as DREAM's MME file:
     * downloaded once; a 10-question pilot's estimate of prompt tokens and calls is within 25 % of what the full run spends.
     */
    @Test void aPilotOfTenEstimatesTheFullRunWithinAQuarter() throws IOException {
        Path gen = dir.resolve("gen");
        assertThat(Main.run("bench", "generate", "--n", "30", "--seed", "4711", "--out", gen.resolve("M3MAD").resolve("MME.json").toString())).isZero();
        Path data = Files.createDirectories(dir.resolve("LMUData").resolve("M3MAD"));
        Files.move(gen.resolve("M3MAD").resolve("MME_images"), data.resolve("MME_images"));
        try (FileServer mirror = new FileServer()) {
            mirror.put("/M3MAD/MME.json", Files.readAllBytes(gen.resolve("M3MAD").resolve("MME.json")));
            Path out = dir.resolve("out");
            String[] common = {"reproduce", "dream-table1", "--benchmarks", "MME", "--methods", "IO,LLM Debate", "--out", out.toString(),
                    "--data-dir", dir.resolve("LMUData").toString(), "--data-mirror", mirror.base()};
            CommandRun pilot = CommandRun.main(concat(common, "--pilot", "10"));
            assertThat(pilot.code()).as(pilot.err()).isZero();
            assertThat(pilot.out()).contains("Narrowed by the pilot (10 questions", "from 10 answers");
            JsonNode plan = json(out.resolve("plan.json"));
            CommandRun full = CommandRun.main(common);
            assertThat(full.code()).as(full.err()).isZero();
            assertThat(mirror.requests()).hasSize(1);
            JsonNode table = json(out.resolve("paper-table.json"));
            for (JsonNode a : table.get("actuals")) {
                assertThat(a.get("answers").asInt()).isEqualTo(30);
                JsonNode est = null;
                for (JsonNode m : plan.get("runs").get(0).get("methods")) if (m.get("method").asText().equals(a.get("method").asText())) est = m.get("pilot");
                assertThat(est).as(plan.toString()).isNotNull();
                double prompt = a.get("promptTokens").get("actual").asDouble(), calls = a.get("calls").get("actual").asDouble();
                assertThat(Math.abs(est.get("promptTokens").asDouble() - prompt) / prompt).as(a + " vs " + est).isLessThanOrEqualTo(0.25);
                assertThat(Math.abs(est.get("calls").asDouble() - calls) / calls).as(a + " vs " + est).isLessThanOrEqualTo(0.25);
                for (String k : List.of("calls", "promptTokens", "completionTokens")) assertThat(a.get(k).get("inside").asBoolean()).as(a.toString()).isTrue();
            }
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
