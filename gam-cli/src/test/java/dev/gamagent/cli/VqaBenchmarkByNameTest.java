package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.eval.data.FileServer;
import dev.gamagent.eval.grade.VlmEvalKitVqa;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.TriangleImage;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A VQA benchmark by its VLMEvalKit name: graded by VLMEvalKit's rule for it (from the catalogue), each record carrying
 * its score, and summary.json's {@code benchmark_score} the mean score × 100, VLMEvalKit's figure.
 */
class VqaBenchmarkByNameTest {
    @TempDir Path dir;
    private FileServer mirror;
    private Path data;

    @BeforeEach void start() throws IOException {
        mirror = new FileServer();
        data = Files.createDirectories(dir.resolve("LMUData"));
    }

    @AfterEach void stop() { mirror.close(); }

    private static String image() throws IOException {
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(TriangleImage.draw(), "png", png);
        return Base64.getEncoder().encodeToString(png.toByteArray());
    }

    private List<JsonNode> run(String name, String answerColumn, String rule) throws IOException {
        String img = image();
        String text = "index\tquestion\t" + answerColumn + "\tcategory\timage\n"
                + "0\tWhat colour is the triangle?\t['red', 'red', 'red', 'dark red', 'red', 'red', 'red', 'red', 'red', 'red']\tcolor\t" + img + "\n"
                + "1\tWhat shape is drawn?\t['triangle', 'triangle', 'triangle', 'triangle', 'shape', 'triangle', 'triangle', 'triangle', 'triangle', 'triangle']\tshape\t" + img + "\n"
                + "2\tHow many triangles are there?\t['1', 'one', '1', '1', '1', '1', '2', '1', '1', '1']\tcount\t" + img + "\n";
        Files.writeString(data.resolve(name + ".tsv"), text);
        Path out = dir.resolve(name);
        CommandRun r = CommandRun.main("eval", "--data", name, "--methods", "single", "--out", out.toString(),
                "--data-dir", data.toString(), "--data-mirror", mirror.base());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(mirror.requests()).isEmpty();
        List<JsonNode> records = Files.readAllLines(out.resolve("results.jsonl")).stream().map(l -> {
            try { return Json.MAPPER.readTree(l); } catch (IOException e) { throw new UncheckedIOException(e); }
        }).toList();
        assertThat(records).hasSize(3);
        double sum = 0;
        for (JsonNode n : records) {
            assertThat(n.get("rule").asText()).startsWith(rule + ":");
            // the score recorded is the rule's score of the answer against the row's answers
            double expected = VlmEvalKitVqa.builtIn().score(rule, n.get("groundTruth").asText(), n.path("answer").asText(""), null);
            assertThat(VlmEvalKitVqa.scoreOf(n.get("rule").asText())).isEqualTo(expected);
            assertThat(n.get("outcome").asText()).isEqualTo(expected == 1.0 ? "correct" : "wrong");
            sum += expected;
        }
        JsonNode score = Json.MAPPER.readTree(out.resolve("summary.json").toFile()).get("benchmark_score");
        assertThat(score.get("rule").asText()).isEqualTo(rule);
        assertThat(score.get("methods").get("single").get("graded_rows").asInt()).isEqualTo(3);
        assertThat(score.get("methods").get("single").get("score").asDouble()).isCloseTo(sum / 3 * 100, within(1e-9));
        assertThat(r.out()).contains("VLMEvalKit's mean score, " + rule + ") single");
        return records;
    }

    @Test void textVqaIsGradedByVqaAccuracyAndItsMeanIsTheBenchmarkScore() throws IOException {
        run("TextVQA_VAL", "answer", "vqa-score");
    }

    @Test void vizWizReadsItsAnswersColumn() throws IOException {
        run("VizWiz", "answers", "vqa-match");
    }
}
