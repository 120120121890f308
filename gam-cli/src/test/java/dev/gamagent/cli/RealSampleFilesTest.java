package dev.gamagent.cli;

import dev.gamagent.eval.load.BenchmarkLoader;
import dev.gamagent.eval.load.Dataset;
import dev.gamagent.eval.load.EvalQuestion;
import dev.gamagent.eval.load.KeyedQuestion;
import dev.gamagent.image.Picture;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The official MMBench / CCBench sample questions (open-compass/MMBench samples/, see NOTICE), a few rows
 * of each kept verbatim: multi-line quoted option cells with doubled quotes, a hint, l2-categories,
 * base64 JPEGs and Chinese text load, and {@code gam eval} runs on them with the built-in model.
 */
class RealSampleFilesTest {
    @TempDir Path dir;

    private static Path sample(String name) throws URISyntaxException {
        return Path.of(RealSampleFilesTest.class.getResource("/realdata/mmbench-samples/" + name).toURI());
    }

    private static KeyedQuestion byId(Dataset ds, String id) {
        return ds.questions().stream().filter(q -> q.id().equals(id)).findFirst().map(EvalQuestion::question).orElseThrow();
    }

    @Test void theRealSampleFilesLoadWithEveryFieldIntact() throws Exception {
        Dataset en = BenchmarkLoader.load(sample("MMBench_EN_subset.tsv"));
        assertThat(en.skipped()).isEmpty();
        assertThat(en.questions()).hasSize(5);
        KeyedQuestion code = byId(en, "1");
        assertThat(code.options().get("A")).startsWith("for x in range(6):\n     print(x)\n   else:\n     print(\"Finally finished!\")");
        assertThat(code.options()).hasSize(4);
        assertThat(code.groundTruth()).isEqualTo("D");
        assertThat(code.category()).isEqualTo("Structuralized Imagetext Understanding");
        assertThat(code.l2Category()).isEqualTo("Logic Reasoning");
        KeyedQuestion hinted = byId(en, "318");
        assertThat(hinted.hint()).startsWith("The diagram below is a model of two solutions.");
        assertThat(hinted.options()).containsOnlyKeys("A", "B", "C"); // D is empty in the file
        for (EvalQuestion q : en.questions()) {
            List<Picture> imgs = q.question().images();
            assertThat(imgs).hasSize(1);
            assertThat(imgs.get(0).width()).isPositive();
        }

        Dataset cn = BenchmarkLoader.load(sample("MMBench_CN_samples.tsv".replace("samples", "subset")));
        assertThat(cn.skipped()).isEmpty();
        assertThat(byId(cn, "1").text()).isEqualTo("能生成这张图片上输出的正确 Python 代码是什么?");
        assertThat(byId(cn, "318").hint()).isEqualTo("下面的图表是两种溶液的模型。每个绿色的球代表一颗溶质粒子。");
        assertThat(byId(cn, "2368").options()).containsEntry("B", "跳水");

        Dataset cc = BenchmarkLoader.load(sample("CCBench_subset.tsv"));
        assertThat(cc.skipped()).isEmpty();
        KeyedQuestion idiom = byId(cc, "383");
        assertThat(idiom.category()).isEqualTo("图像推理 (Sketch Reasoning)");
        assertThat(idiom.l2Category()).isNull();
        assertThat(idiom.images().get(0).width()).isPositive();
    }

    private String eval(String file, String... extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("--data", sample(file).toString(), "--methods", "single",
                "--out", dir.resolve(file).toString(), "--backend", "local", "--concurrency", "1"));
        args.addAll(List.of(extra));
        CommandRun r = CommandRun.of(new EvalCommand(), args.toArray(String[]::new));
        assertThat(r.code()).as(r.err()).isZero();
        return r.out();
    }

    /** The built-in model answers every rotation; nothing errors; the table names categories in full. */
    @Test void gamEvalRunsOnTheRealSamplesWithTheBuiltInModel() throws Exception {
        String en = eval("MMBench_EN_subset.tsv");
        var s = Json.MAPPER.readTree(dir.resolve("MMBench_EN_subset.tsv/summary.json").toFile());
        assertThat(s.path("circular").asBoolean()).isTrue();
        assertThat(s.path("questions").asInt()).isEqualTo(5);
        assertThat(s.path("grading").asText()).isEqualTo("vlmevalkit-2026");
        var single = s.path("metrics").path("single");
        assertThat(single.path("records").asInt()).isEqualTo(4 + 4 + 4 + 3 + 4); // every option rotation of each question
        assertThat(single.path("errors").asInt()).isZero();
        assertThat(single.path("groups").asInt()).isEqualTo(5);
        assertThat(en).contains("Structuralized Imagetext Understanding", "Finegrained Perception (instance-level)", "grading: vlmevalkit-2026");

        eval("MMBench_CN_subset.tsv", "--limit", "2");
        var cn = Json.MAPPER.readTree(dir.resolve("MMBench_CN_subset.tsv/summary.json").toFile());
        assertThat(cn.path("metrics").path("single").path("errors").asInt()).isZero();
        assertThat(cn.path("metrics").path("single").path("groups").asInt()).isEqualTo(2);

        String cc = eval("CCBench_subset.tsv");
        var ccs = Json.MAPPER.readTree(dir.resolve("CCBench_subset.tsv/summary.json").toFile());
        assertThat(ccs.path("circular").asBoolean()).as("CCBench is circular in VLMEvalKit").isTrue();
        assertThat(ccs.path("metrics").path("single").path("records").asInt()).isEqualTo(8);
        assertThat(ccs.path("metrics").path("single").path("errors").asInt()).isZero();
        assertThat(cc).contains("图像推理 (Sketch Reasoning)");
        assertThat(Files.readAllLines(dir.resolve("CCBench_subset.tsv/results.jsonl"))).hasSize(8);
    }
}
