package dev.gamagent.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A question's options lettered A.., the correct value put at a random place among the distractors (one draw of the
 * item's random source, so the seed fixes the order), and the letter of the correct one.
 */
record LetteredOptions(Map<String, String> options, String answer) {
    static LetteredOptions place(String correct, List<String> distractors, Random rng) {
        List<String> values = new ArrayList<>(distractors);
        values.add(rng.nextInt(values.size() + 1), correct);
        Map<String, String> options = new LinkedHashMap<>();
        String answer = null;
        for (int i = 0; i < values.size(); i++) {
            String letter = String.valueOf((char) ('A' + i));
            options.put(letter, values.get(i));
            if (values.get(i).equals(correct)) answer = letter;
        }
        return new LetteredOptions(options, answer);
    }
}
