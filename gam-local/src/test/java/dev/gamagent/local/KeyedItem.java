package dev.gamagent.local;

import dev.gamagent.api.Question;
import dev.gamagent.bench.BenchItem;
import dev.gamagent.image.Picture;

import java.util.List;
import java.util.Map;

/** A question the built-in model is asked in these measurements, with its correct letter (never shown to the model). */
record KeyedItem(Question question, String groundTruth) {
    static KeyedItem of(BenchItem it) { return new KeyedItem(it.toQuestion(), it.answer()); }

    String id() { return question.id(); }

    String text() { return question.text(); }

    String hint() { return question.hint(); }

    List<Picture> images() { return question.images(); }

    Map<String, String> options() { return question.options(); }

    String render() { return question.render(); }

    KeyedItem withOptions(Map<String, String> newOptions, String newGroundTruth) {
        return new KeyedItem(question.withOptions(newOptions), newGroundTruth);
    }
}
