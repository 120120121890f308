package dev.gamagent.bench;

import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The ways the video family asks its questions (issue 30 item 5): several phrasings per question kind,
 * written before the built-in model had any video code, so that the model is measured on wordings it was
 * not built around. The generator picks one phrasing per item from the item's random source. The first
 * phrasing of each kind is its canonical template (docs/video.md).
 *
 * <p>Placeholders: {@code {obj}} is "{color} {shape}" (e.g. "red circle"), {@code {color}} a colour name.
 * No phrasing lists the options, because an item shows two to four of them.
 */
public final class VideoPhrasings {
    private VideoPhrasings() { }

    /** What a video question asks, with its option values. */
    public enum Kind {
        /** Which way one object moves over the clip; options are left, right, up, down. */
        DIRECTION("motion/direction"),
        /** How many times a light turns on; options are numbers. */
        BLINKS("blink/count"),
        /** Which of the objects that appear during the clip appears first; options are objects. */
        FIRST("order/first"),
        /** Which of the objects that appear during the clip appears last; options are objects. */
        LAST("order/last");

        private final String variant;

        Kind(String variant) { this.variant = variant; }

        /** "motion/direction", "blink/count", "order/first" or "order/last". */
        public String variant() { return variant; }
    }

    private static final Map<Kind, List<String>> PHRASINGS = Map.of(
            Kind.DIRECTION, List.of(
                    "Which way does the {obj} move?",
                    "In which direction is the {obj} moving?",
                    "Where is the {obj} heading over the course of the clip?",
                    "Which direction does the {obj} travel in the video?",
                    "The {obj} moves toward which side of the frame?",
                    "Looking across the frames, which way does the {obj} go?",
                    "What is the direction of the {obj}'s motion?",
                    "Towards which edge does the {obj} drift?"),
            Kind.BLINKS, List.of(
                    "How many times does the {color} light blink?",
                    "How many times does the {color} lamp flash?",
                    "Count the flashes of the {color} light.",
                    "How many times does the {color} light switch on?",
                    "The {color} light blinks how many times in the video?",
                    "How many separate blinks of the {color} light are there?",
                    "How often does the {color} lamp light up during the clip?",
                    "How many flashes does the {color} light make?"),
            Kind.FIRST, List.of(
                    "Which object appears first?",
                    "Which shape shows up first in the video?",
                    "What is the first object to appear?",
                    "Which of these objects comes into view earliest?",
                    "Which object is the first to show up?",
                    "Which shape appears before all the others?"),
            Kind.LAST, List.of(
                    "Which object appears last?",
                    "Which shape shows up last in the video?",
                    "What is the last object to appear?",
                    "Which of these objects comes into view latest?",
                    "Which object is the final one to show up?",
                    "Which shape appears after all the others?"));

    /** Every phrasing of {@code kind}, the canonical template first. */
    public static List<String> of(Kind kind) { return PHRASINGS.get(kind); }

    /** The canonical template of {@code kind}. */
    public static String template(Kind kind) { return of(kind).get(0); }

    /** A phrasing of {@code kind} drawn from {@code rng}, its placeholders filled from {@code values}. */
    static String pick(Kind kind, Random rng, Map<String, String> values) {
        List<String> all = of(kind);
        return fill(all.get(rng.nextInt(all.size())), values);
    }

    /** {@code template} with each {@code {name}} replaced by its value; a placeholder left unfilled is an error. */
    static String fill(String template, Map<String, String> values) {
        String s = template;
        for (var e : values.entrySet()) s = s.replace("{" + e.getKey() + "}", e.getValue());
        if (s.indexOf('{') >= 0) throw new IllegalStateException("unfilled placeholder in '" + s + "' (values " + values + ")");
        return s;
    }
}
