package dev.gamagent.local;

import dev.gamagent.local.QuestionFamily.Obj;
import dev.gamagent.local.QuestionWords.Word;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import static dev.gamagent.local.QuestionWords.any;
import static dev.gamagent.local.QuestionWords.containsWord;
import static dev.gamagent.local.QuestionWords.countCue;

/**
 * Recognises a question about time in a clip (which way an object moves, how often a light blinks, which object
 * appears first or last) from its motion, blink and order words and its options.
 */
final class VideoQuestionReader {
    private VideoQuestionReader() { }

    private static final Set<String> MOTION_CUES = Set.of("move", "moves", "moving", "moved", "motion", "movement", "heading",
            "head", "heads", "headed", "travel", "travels", "travelling", "traveling", "travelled", "traveled", "drift", "drifts",
            "drifting", "drifted", "go", "goes", "going", "went", "slide", "slides", "sliding", "glide", "glides", "shift",
            "shifts", "shifting");
    private static final Set<String> APPEAR_CUES = Set.of("appear", "appears", "appeared", "appearing", "show", "shows", "showed",
            "shown", "come", "comes", "came", "view", "arrive", "arrives", "arrived", "enter", "enters", "entered", "emerge",
            "emerges", "emerged", "pop", "pops");
    private static final Set<String> EARLY = Set.of("first", "earliest", "earlier", "before", "initially", "initial", "sooner", "soonest");
    private static final Set<String> LATE = Set.of("last", "latest", "later", "after", "final", "finally", "lastly");

    /**
     * A question about time in a clip, from its words and options: which way an object moves (motion words,
     * direction options), how many times a light blinks (blink or flash words with a count, number options), or
     * which object appears first or last (appearance and order words, object options); else null.
     */
    static QuestionFamily.Video video(String q, List<Word> words, OptionKind kind) {
        String colour = null, shape = null;
        boolean oneObject = true;
        for (Word w : words) {
            if (w.color() != null) { oneObject &= colour == null || colour.equals(w.color()); colour = w.color(); }
            if (w.shape() != null) { oneObject &= shape == null || shape.equals(w.shape()); shape = w.shape(); }
        }
        if (oneObject && (kind == OptionKind.DIRECTION || kind == OptionKind.NONE && containsWord(words, "which")) && any(words, MOTION_CUES)
                && !any(words, REFERENCE_MARKERS_OF_PLACE) && (colour != null || shape != null)) {
            return new QuestionFamily.Video(QuestionFamily.VideoKind.MOTION, new Obj(colour, shape));
        }
        boolean blinkWord = words.stream().anyMatch(w -> w.text().startsWith("blink") || w.text().startsWith("flash")
                || w.text().startsWith("flicker"))
                || q.toLowerCase(Locale.ROOT).matches("(?s).*\\b(light|lights|lamp)\\s+(up|on)\\b.*")
                || q.toLowerCase(Locale.ROOT).matches("(?s).*\\b(switch|switches|turn|turns)\\s+on\\b.*");
        boolean often = countCue(q, words) || containsWord(words, "often") || containsWord(words, "times");
        if (oneObject && blinkWord && often && (kind == OptionKind.NUMBER || kind == OptionKind.NONE) && colour != null && shape == null) {
            return new QuestionFamily.Video(QuestionFamily.VideoKind.BLINKS, new Obj(colour, null));
        }
        boolean early = any(words, EARLY), late = any(words, LATE);
        if ((kind == OptionKind.OBJECT || kind == OptionKind.NONE) && any(words, APPEAR_CUES) && early != late) {
            return new QuestionFamily.Video(early ? QuestionFamily.VideoKind.FIRST : QuestionFamily.VideoKind.LAST, null);
        }
        return null;
    }

    /** Words that make a motion word a place ("the object that goes left of the square" is no video question). */
    private static final Set<String> REFERENCE_MARKERS_OF_PLACE = Set.of("than", "nearest", "closest", "beside");
}
