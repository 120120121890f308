package dev.gamagent.bench;

import java.util.List;
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
        LetteredOptions lettered = LetteredOptions.place(correct, distractors, rng);
        if (canvas.sketch) { // nothing after the options draws from rng or decides the question: they are as generated
            return new BenchItem(index, canvas.unfinished(), question, hint, lettered.options(), lettered.answer(), family, d.tag(), truth, canvas.style);
        }
        canvas.speckle(d.noiseFraction(), rng);
        return new BenchItem(index, canvas.finish(), question, hint, lettered.options(), lettered.answer(), family, d.tag(), truth, canvas.style);
    }
}
