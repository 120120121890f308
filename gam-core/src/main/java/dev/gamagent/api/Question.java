package dev.gamagent.api;

import dev.gamagent.image.Picture;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One visual question as a method sees it: images (a video is a list of frames), text, optional hint, optional options
 * A..Z (multiple choice when non-empty). The answer key and the benchmark's categories are not here: they stay with the
 * evaluation (gam-eval's {@code KeyedQuestion}), so no method can read them.
 */
public record Question(String id, List<Picture> images, String text, String hint, Map<String, String> options) {
    public Question {
        images = List.copyOf(images == null ? List.of() : images);
        options = options == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(options));
        if (text == null) throw new IllegalArgumentException("question text is missing");
        if (id == null) id = "q";
    }

    public static Question of(String id, List<Picture> images, String text, Map<String, String> options) {
        return new Question(id, images, text, null, options);
    }

    public boolean isMultipleChoice() { return !options.isEmpty(); }

    public Question withOptions(Map<String, String> newOptions) {
        return new Question(id, images, text, hint, newOptions);
    }

    public Question withImages(List<Picture> newImages) {
        return new Question(id, newImages, text, hint, options);
    }

    /** The same question under another id. */
    public Question withId(String newId) {
        return new Question(newId, images, text, hint, options);
    }

    /** The question as shown to a model: hint, question, then one line per option ("A. text"). */
    public String render() {
        StringBuilder sb = new StringBuilder();
        if (hint != null && !hint.isBlank()) sb.append("Hint: ").append(hint.strip()).append('\n');
        sb.append(text.strip());
        for (var e : options.entrySet()) sb.append('\n').append(e.getKey()).append(". ").append(e.getValue());
        return sb.toString();
    }
}
