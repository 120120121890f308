package dev.gamagent.eval.grade;

import dev.gamagent.eval.VlmEvalKitConformanceTest;
import dev.gamagent.eval.format.PandasFrame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * VLMEvalKit's yes/no reading and MME score, checked against VLMEvalKit's own files for VILA-1.5 8B and 13B
 * on MME (prediction file, its {@code _auxmatch} with the word VLMEvalKit extracted per row, and
 * {@code _score.csv}; realdata, NOTICE).
 */
class VlmEvalKitYesNoTest {
    private static final Path DIR = VlmEvalKitConformanceTest.resources();

    @ParameterizedTest @ValueSource(strings = {"vila_8b", "vila_13b"})
    void everyRowReadsAsVlmEvalKitReadItAndTheMmeScoreEqualsItsScoreFileDigitForDigit(String model) throws IOException {
        PredictionFile predictions = PredictionFile.read(DIR.resolve(model + "_MME.xlsx"));
        PredictionFile aux = PredictionFile.read(DIR.resolve(model + "_MME_auxmatch.xlsx"));
        VlmEvalKitYesNo.Result r = VlmEvalKitYesNo.grade(predictions, "MME");
        assertEquals(2374, predictions.rows().size());
        int differ = 0;
        for (int i = 0; i < aux.rows().size(); i++) if (!aux.rows().get(i).get("extracted").equals(r.extracted().get(i))) differ++;
        assertEquals(0, differ, "rows whose extracted word differs from VLMEvalKit's");

        List<String> lines = Files.readAllLines(DIR.resolve(model + "_MME_score.csv"));
        List<String> header = cells(lines.get(0)), values = cells(lines.get(1));
        List<String> ours = new ArrayList<>(), oursValues = new ArrayList<>();
        for (Map.Entry<String, Double> e : r.rating().entrySet()) {
            ours.add(e.getKey());
            oursValues.add(PandasFrame.repr(e.getValue()));
        }
        assertEquals(header, ours);
        assertEquals(values, oursValues);
    }

    private static List<String> cells(String csvLine) {
        List<String> out = new ArrayList<>();
        for (String c : csvLine.split(",")) out.add(c.replace("\"", ""));
        return out;
    }

    @Test void yesAndNoAreWordsAfterVlmEvalKitsPunctuationRules() {
        assertEquals("Yes", VlmEvalKitYesNo.extract("Yes, there is a dog."));
        assertEquals("No", VlmEvalKitYesNo.extract("no"));
        assertEquals("Unknown", VlmEvalKitYesNo.extract("Yes and no."));
        assertEquals("Unknown", VlmEvalKitYesNo.extract("Not sure"));
        // "yes/no" touching no space: the slash becomes a space, so both words are there
        assertEquals("Unknown", VlmEvalKitYesNo.extract("yes/no"));
        // "(yes)" with a space before the parenthesis: removed, not spaced, so "yes" still stands alone
        assertEquals("Yes", VlmEvalKitYesNo.extract("The answer is (yes)"));
        // a digit,digit anywhere removes every mark instead of spacing it: "yes-1,000" becomes "yes1000"
        assertEquals("Unknown", VlmEvalKitYesNo.extract("yes-1,000"));
        assertEquals("Yes", VlmEvalKitYesNo.extract("yes - 1,000"));
        // VLMEvalKit passes re.UNICODE (32) as Pattern.sub's count: the 33rd period stays, so "yes." is not the word yes
        assertEquals("Unknown", VlmEvalKitYesNo.extract(".".repeat(32) + " yes."));
        assertEquals("Yes", VlmEvalKitYesNo.extract(".".repeat(31) + " yes."));
    }

    @Test void theMmeScoreAddsAccuracyAndAccPlusPerCategoryAndLeavesOutAnIncompleteSuperCategory() {
        List<VlmEvalKitYesNo.Scored> rows = List.of(
                new VlmEvalKitYesNo.Scored("OCR", "a.jpg", true), new VlmEvalKitYesNo.Scored("OCR", "a.jpg", true),
                new VlmEvalKitYesNo.Scored("OCR", "b.jpg", true), new VlmEvalKitYesNo.Scored("OCR", "b.jpg", false));
        Map<String, Double> r = VlmEvalKitYesNo.mmeRating(rows);
        assertEquals(List.of("OCR"), List.copyOf(r.keySet()));
        assertEquals(75.0 + 50.0, r.get("OCR"), 1e-12);
    }
}
