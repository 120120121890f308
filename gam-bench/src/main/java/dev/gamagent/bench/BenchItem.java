package dev.gamagent.bench;

import dev.gamagent.api.Question;
import dev.gamagent.image.Picture;

import java.awt.image.BufferedImage;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One generated benchmark question: its image, the question text, options A..D (exactly one correct),
 * the answer letter, CONTRACTS §3 categories, a difficulty tag, the exact ground truth of the image and the
 * style it was drawn in.
 */
public record BenchItem(int index, BufferedImage image, String question, String hint, Map<String, String> options,
                        String answer, Family family, String difficulty, SceneTruth truth, RenderStyle render) {
    public BenchItem(int index, BufferedImage image, String question, String hint, Map<String, String> options,
                     String answer, Family family, String difficulty, SceneTruth truth) {
        this(index, image, question, hint, options, answer, family, difficulty, truth, RenderStyle.CLASSIC);
    }

    public BenchItem {
        render = render == null ? RenderStyle.CLASSIC : render;
        options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
        if (!options.containsKey(answer)) {
            throw new IllegalArgumentException("item " + index + ": answer " + answer + " is not one of the options " + options.keySet());
        }
        hint = hint == null ? "" : hint;
    }

    public String category() { return family.category(); }

    public String l2Category() { return family.l2Category(); }

    /** The value of the correct option, e.g. {@code "red"}. */
    public String answerText() { return options.get(answer); }

    /** The item as a method is asked it (image source named {@code gam-synthetic-<index>}); its answer is {@link #answer()}. */
    public Question toQuestion() {
        Picture p = new Picture("gam-synthetic-" + index, image);
        return new Question(String.valueOf(index), List.of(p), question, hint.isEmpty() ? null : hint, options);
    }
}
