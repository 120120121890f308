package dev.gamagent.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.api.Question;
import dev.gamagent.eval.grade.PredictionFile;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reply parser the methods use ({@link ReplyParser}, with our extensions) over replies real models
 * wrote: VILA-1.5's 12,758 replies graded by VLMEvalKit, and the replies of eight VLMs to 40 MathVista
 * multiple-choice questions (see NOTICE). Pins how often each reading path fires, how often the letter
 * it reads is right, and how often that differs from the reference tool's verdict, so that a change to
 * the parser shows up here as a changed distribution on real text, not only on replies we wrote.
 */
class ReplyParserRealRepliesTest {
    private static Path resource(String p) throws URISyntaxException {
        return Path.of(ReplyParserRealRepliesTest.class.getResource("/realdata/" + p).toURI());
    }

    private static final List<String> VILA = List.of("vila_8b_MMStar", "vila_8b_RealWorldQA", "vila_8b_ScienceQA_TEST",
            "vila_8b_ScienceQA_VAL", "vila_13b_MMStar", "vila_13b_RealWorldQA", "vila_13b_ScienceQA_TEST", "vila_13b_ScienceQA_VAL");

    /** Counts: how (answer-line / extracted / unmatched), right (the read letter is the answer), and disagreements with VLMEvalKit. */
    @Test void vilaRepliesGradedByVlmEvalKit() throws Exception {
        Map<String, Integer> counts = new TreeMap<>();
        for (String stem : VILA) {
            PredictionFile pf = PredictionFile.read(resource("vlmevalkit-vila1.5/" + stem + ".xlsx"));
            Map<String, Integer> hits = new HashMap<>();
            List<String> lines = Files.readAllLines(resource("vlmevalkit-vila1.5/" + stem + "_hits.tsv"));
            for (String l : lines.subList(1, lines.size())) hits.put(l.split("\t")[0], Integer.parseInt(l.split("\t")[1]));
            for (Map<String, String> row : pf.rows()) {
                Map<String, String> options = new LinkedHashMap<>();
                for (char c = 'A'; c <= 'E'; c++) if (row.get(String.valueOf(c)) != null) options.put(String.valueOf(c), row.get(String.valueOf(c)));
                Question q = new Question(row.get("index"), List.of(), row.get("question"), null, options);
                ReplyParser.Parsed p = ReplyParser.parse(row.get("prediction"), q);
                boolean right = row.get("answer").equals(p.option());
                counts.merge("how:" + p.how(), 1, Integer::sum);
                if (right) counts.merge("right", 1, Integer::sum);
                int vk = hits.get(row.get("index"));
                if (right && vk == 0) counts.merge("right, VLMEvalKit wrong", 1, Integer::sum);
                if (!right && vk == 1) counts.merge("wrong, VLMEvalKit right", 1, Integer::sum);
            }
        }
        // VLMEvalKit credits 8,229 of these replies; the parser reads 33 more as right (an article "A" it skips, then
        // an option text; "the answer is B" after two letters) and one fewer ("A trade balance is ..." on a question
        // whose answer is A: VLMEvalKit reads the article as the letter)
        assertThat(counts).isEqualTo(Map.of("how:answer-line", 1, "how:extracted", 12_752, "how:unmatched", 5,
                "right", 8_261, "right, VLMEvalKit wrong", 33, "wrong, VLMEvalKit right", 1));
    }

    /** MathVista's choices become options A..; its own verdict (true_false) is the reference. */
    @Test void mathVistaRepliesOfEightModels() throws Exception {
        Map<String, Integer> counts = new TreeMap<>();
        for (String line : Files.readAllLines(resource("mathvista/mathvista_testmini_mc_subset.jsonl"), StandardCharsets.UTF_8)) {
            JsonNode e = Json.MAPPER.readTree(line);
            Map<String, String> options = new LinkedHashMap<>();
            String gt = null;
            for (int i = 0; i < e.get("choices").size(); i++) {
                String letter = String.valueOf((char) ('A' + i));
                options.put(letter, e.get("choices").get(i).asText());
                if (e.get("choices").get(i).asText().equals(e.get("answer").asText())) gt = letter;
            }
            Question q = new Question(e.get("pid").asText(), List.of(), e.get("question").asText(), null, options);
            ReplyParser.Parsed p = ReplyParser.parse(e.get("response").asText(), q);
            boolean right = gt != null && gt.equals(p.option());
            boolean theirs = e.path("true_false").asBoolean();
            counts.merge("how:" + p.how(), 1, Integer::sum);
            if (right) counts.merge("right", 1, Integer::sum);
            if (right && !theirs) counts.merge("right, MathVista wrong", 1, Integer::sum);
            if (!right && theirs) counts.merge("wrong, MathVista right", 1, Integer::sum);
        }
        // MathVista extracts answers with GPT-4 from long free-form replies; a rule-based reader leaves a third unread
        assertThat(counts).isEqualTo(Map.of("how:answer-line", 4, "how:extracted", 202, "how:unmatched", 114,
                "right", 63, "right, MathVista wrong", 3, "wrong, MathVista right", 66));
    }
}
