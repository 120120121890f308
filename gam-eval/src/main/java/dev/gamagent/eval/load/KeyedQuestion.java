package dev.gamagent.eval.load;

import dev.gamagent.api.Question;
import dev.gamagent.api.Trace;
import dev.gamagent.image.Picture;

import java.util.List;
import java.util.Map;

/**
 * A benchmark question with its answer key: the {@link Question} a method is asked, and what only the evaluation may
 * know, the ground truth (an option letter, or the expected open answer) and the benchmark's categories. A method is
 * given {@link #question()} alone.
 */
public record KeyedQuestion(Question question, String groundTruth, String category, String l2Category) {
    public KeyedQuestion {
        java.util.Objects.requireNonNull(question, "question");
    }

    /** A question without an answer key or categories (graded only where a rule needs no key). */
    public static KeyedQuestion unkeyed(Question question) { return new KeyedQuestion(question, null, null, null); }

    public String id() { return question.id(); }

    public String text() { return question.text(); }

    public String hint() { return question.hint(); }

    public List<Picture> images() { return question.images(); }

    public Map<String, String> options() { return question.options(); }

    /** The question as shown to a model ({@link Question#render()}). */
    public String render() { return question.render(); }

    public boolean isMultipleChoice() { return question.isMultipleChoice(); }

    /** The same question and key with the options {@code newOptions}, whose correct letter is {@code newGroundTruth}. */
    public KeyedQuestion withOptions(Map<String, String> newOptions, String newGroundTruth) {
        return new KeyedQuestion(question.withOptions(newOptions), newGroundTruth, category, l2Category);
    }

    public KeyedQuestion withImages(List<Picture> newImages) {
        return new KeyedQuestion(question.withImages(newImages), groundTruth, category, l2Category);
    }

    /** {@code trace} as the evaluation writes it: the question it records carries this key and category. */
    public Trace keyed(Trace trace) {
        if (trace == null || trace.question() == null) return trace;
        return trace.withQuestion(trace.question().withAnswerKey(groundTruth, category));
    }
}
