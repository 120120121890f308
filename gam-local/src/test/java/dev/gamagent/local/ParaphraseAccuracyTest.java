package dev.gamagent.local;

import dev.gamagent.bench.BenchItem;
import dev.gamagent.bench.BenchmarkGenerator;
import dev.gamagent.bench.Family;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The paraphrase set (src/test/resources/paraphrase/phrasings.tsv, people's phrasings written apart from
 * the generator's templates) against the generator's own questions, on the same generated images.
 */
class ParaphraseAccuracyTest {
    private static final Rephrasings SET = Rephrasings.load("/paraphrase/phrasings.tsv");

    @Test
    void theSetHasAtLeastEightPhrasingsPerFamily() {
        Map<String, Integer> per = new TreeMap<>();
        for (Rephrasings.Phrasing p : SET.phrasings()) per.merge(p.family(), 1, Integer::sum);
        assertThat(per.keySet()).containsExactlyInAnyOrder("text", "count", "color", "shape", "spatial", "chart");
        assertThat(per.values()).allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(8));
    }

    /** Every phrasing, with options reordered and recased, reads as the generator's question does (no images needed). */
    @Test
    void everyPhrasingIsReadAsTheGeneratorsQuestion() {
        List<BenchItem> items = new BenchmarkGenerator(31).questions(240, Arrays.asList(Family.values())); // their text, not their pixels
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (BenchItem it : items) {
            QuestionFamily want = QuestionReader.recognize(it.question(), new ArrayList<>(it.options().values()));
            Rephrasings.Asked asked = Rephrasings.asked(it.question());
            Random rng = new Random(it.index());
            for (Rephrasings.Phrasing p : SET.of(asked)) {
                KeyedItem q = Rephrasings.rewriteOptions(KeyedItem.of(it), asked.family(), rng);
                String text = Rephrasings.fill(p.text(), asked.values());
                QuestionReader.Reading got = QuestionReader.read(text, new ArrayList<>(q.options().values()));
                checked++;
                // Chart labels keep the case the options gave them; the local model compares them case-blind.
                if (!want.toString().equalsIgnoreCase(got.family().toString()) || got.clarity() < 1) {
                    wrong.add(text + " " + q.options().values() + " -> " + got + ", want " + want);
                }
            }
        }
        assertThat(checked).isGreaterThan(1000);
        assertThat(wrong).isEmpty();
    }

    /**
     * The measure: {@code single} accuracy with people's phrasings within 5 points of the
     * generator's own phrasing on the same images (seed 2027: not used while the parser was written).
     */
    @Test
    void singleAccuracyOnParaphrasesIsWithinFivePointsOfTheGeneratorsPhrasing() {
        List<BenchItem> items = new BenchmarkGenerator(2027).generate(60, Arrays.asList(Family.values()));
        try (LocalBackend backend = RealEngines.backend()) {
            PhrasingAccuracy m = new PhrasingAccuracy(backend);
            PhrasingAccuracy.Tally gen = m.measure(items, KeyedItem::of);
            PhrasingAccuracy.Tally para = m.measure(items, PhrasingAccuracy.rephrased(SET, 2027));
            System.out.printf(Locale.ROOT, "single, seed 2027, n=60: generator phrasing %s; paraphrased %s%n", gen.describe(), para.describe());
            assertThat(gen.accuracy()).isGreaterThan(0.6);
            assertThat(para.accuracy()).isGreaterThanOrEqualTo(gen.accuracy() - 0.05);
        }
    }
}
