package dev.gamagent.influence;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A GAM round compares every answer with every other and with the consensus: each distinct answer is embedded once. */
class SimilarityEmbeddingCacheTest {
    @Test void eachDistinctAnswerIsEmbeddedOnce() {
        List<String> embedded = new ArrayList<>();
        SentenceEmbedder counting = text -> {
            synchronized (embedded) { embedded.add(text); }
            return new float[]{text.length(), 1};
        };
        Similarity s = new Similarity(counting);
        List<String> answers = List.of("red", "a red circle", "red", "blue");
        double[][] m = s.open(answers);
        for (String a : answers) {
            s.open(a, "red");
            s.open(a, "red");
        }
        assertThat(embedded).containsExactlyInAnyOrder("red", "a red circle", "blue");
        assertThat(m[0][2]).isEqualTo(1.0);
        assertThat(m[0][1]).isEqualTo(Similarity.cosine(new float[]{3, 1}, new float[]{12, 1}));
    }
}
