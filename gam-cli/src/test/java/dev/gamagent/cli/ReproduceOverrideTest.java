package dev.gamagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.testing.CommandRun;
import dev.gamagent.testing.ScriptedBackend;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 38, item 9: {@code gam reproduce --set} changing a recipe's own setting is said once, recorded in plan.json,
 * DIR/paper-table.md and DIR/paper-table.json, and the rows that ran it have no Δ against the paper; the same setting given at
 * the recipe's value changes nothing.
 */
class ReproduceOverrideTest {
    @TempDir Path dir;

    private static final String NOTE = "replaces the recipe's self_debate.rounds=3";

    private CommandRun reproduce(Path data, Path out, String set) {
        // a test tool standing in for a served Qwen2.5-VL-7B, the paper's model: it always answers A
        ReproduceCommand cmd = new ReproduceCommand((spec, config) -> ScriptedBackend.text(req -> "A"));
        return CommandRun.likeMain(cmd, "gam-agent-debate-rounds", "--methods", "Base-Debate (3 rounds)", "--out", out.toString(),
                "--data-dir", data.toString(), "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model",
                "Qwen/Qwen2.5-VL-7B-Instruct", "--set", set);
    }

    private static JsonNode json(Path p) throws IOException { return Json.MAPPER.readTree(p.toFile()); }

    private static JsonNode baseDebate(JsonNode table) {
        for (JsonNode c : table.get("cells")) if (c.get("row").asText().equals("Base-Debate (3 rounds)")) return c;
        throw new AssertionError("no Base-Debate cell in " + table);
    }

    @Test void anOverrideIsSaidOnceRecordedAndItsRowsDeltaWithheld() throws IOException {
        Path data = dir.resolve("LMUData");
        assertThat(Main.run("bench", "generate", "--n", "3", "--seed", "38", "--out", data.resolve("MMBench_DEV_EN_V11.tsv").toString())).isZero();

        Path out = dir.resolve("changed");
        CommandRun r = reproduce(data, out, "self_debate.rounds=2");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err().split(NOTE, -1)).as(r.err()).hasSize(2); // once
        assertThat(r.err()).contains("note: --set self_debate.rounds=2 " + NOTE + " (the paper's setting) for row Base-Debate (3 rounds); "
                + "its Δ against the paper is withheld");
        JsonNode table = json(out.resolve("paper-table.json"));
        assertThat(table.get("overrides")).hasSize(1);
        assertThat(table.get("overrides").get(0).get("key").asText()).isEqualTo("self_debate.rounds");
        assertThat(table.get("overrides").get(0).get("value").asText()).isEqualTo("2");
        assertThat(table.get("overrides").get(0).get("recipeValues").get(0).asText()).isEqualTo("3");
        JsonNode cell = baseDebate(table);
        assertThat(cell.get("paper").asText()).isEqualTo("86.50");
        assertThat(cell.has("ours")).isTrue();
        assertThat(cell.has("delta")).isFalse();
        assertThat(cell.get("deltaWithheld").asText()).contains("--set self_debate.rounds=2");
        String md = Files.readString(out.resolve("paper-table.md"));
        assertThat(md).contains("| 86.50 | withheld |", "Settings other than the recipe's: --set self_debate.rounds=2 " + NOTE);
        assertThat(json(out.resolve("plan.json")).get("overrides").get(0).get("rows").get(0).asText()).isEqualTo("Base-Debate (3 rounds)");

        // the recipe's own value, written another way, is no override: nothing said, Δ given
        Path same = dir.resolve("same");
        CommandRun s = reproduce(data, same, "self_debate.rounds=3.0");
        assertThat(s.code()).as(s.err()).isZero();
        assertThat(s.err()).doesNotContain("replaces the recipe's");
        JsonNode t2 = json(same.resolve("paper-table.json"));
        assertThat(t2.has("overrides") && !t2.get("overrides").isEmpty()).isFalse();
        assertThat(baseDebate(t2).get("delta").asDouble()).isCloseTo(baseDebate(t2).get("ours").asDouble() - 86.50,
                org.assertj.core.data.Offset.offset(1e-9));
    }
}
