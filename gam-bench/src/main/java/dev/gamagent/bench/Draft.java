package dev.gamagent.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A question under construction: text, the correct option value and the distractor values. {@link #item}
 * shuffles the options with the item's random source (so the order is fixed by the seed).
 */
record Draft(String question, String correct, List<String> distractors, String hint) {
    Draft {
        distractors = List.copyOf(distractors);
        if (distractors.isEmpty() || distractors.size() > 3) {
            throw new IllegalStateException("question '" + question + "' needs 1..3 distractors, got " + distractors);
        }
        if (distractors.contains(correct) || distractors.stream().distinct().count() != distractors.size()) {
            throw new IllegalStateException("question '" + question + "': options must be distinct, got " + correct + " + " + distractors);
        }
    }

    Draft(String question, String correct, List<String> distractors) { this(question, correct, distractors, ""); }

    BenchItem item(int index, Random rng, Canvas canvas, Family family, Difficulty d, SceneTruth truth) {
        List<String> values = new ArrayList<>(distractors);
        values.add(rng.nextInt(values.size() + 1), correct);
        Map<String, String> options = new LinkedHashMap<>();
        String answer = null;
        for (int i = 0; i < values.size(); i++) {
            String letter = String.valueOf((char) ('A' + i));
            options.put(letter, values.get(i));
            if (values.get(i).equals(correct)) answer = letter;
        }
        canvas.speckle(d.noiseFraction(), rng);
        return new BenchItem(index, canvas.finish(), question, hint, options, answer, family, d.tag(), truth, canvas.style);
    }
}
