package dev.gamagent.local;

import dev.gamagent.image.Picture;
import dev.gamagent.image.Region;

import java.util.List;
import java.util.Map;

/**
 * What the local model understood of a request (docs/CONTRACTS.md §1): the question with its options,
 * its role and task, the other agents' material, the requested output format and the images.
 *
 * @param options letter → option text, in order (empty for an open question)
 * @param claimsRequested whether the requested format has CLAIM lines (or a {@code claims} JSON field);
 *                        without them the model states its findings as reasoning before the answer
 * @param confidenceRequested whether the line format asks for a CONFIDENCE line ("Reply with one line:
 *                        ANSWER: ..." does not)
 */
public record ParsedPrompt(String question, String hint, Map<String, String> options, String role, Task task,
                           List<Peer> peers, List<Critique> critiques, String previous, List<ClaimRef> claims,
                           String consensus, OutputFormat format, boolean claimsRequested, boolean confidenceRequested,
                           List<Picture> images) {
    public ParsedPrompt {
        options = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(options));
        peers = List.copyOf(peers);
        critiques = List.copyOf(critiques);
        claims = List.copyOf(claims);
        images = List.copyOf(images);
    }

    public boolean multipleChoice() { return !options.isEmpty(); }

    /** The task named in the {@code <task>} line. */
    public enum Task { ANSWER, CRITIQUE, REVISE, PROBE, JUDGE, MODERATE }

    /**
     * The requested output: {@code LETTER} the option letter alone (VLMEvalKit's "answer with the option's
     * letter"), {@code SHORT} a word or phrase, {@code LINES} the ANSWER/CLAIM/CONFIDENCE line format,
     * {@code JSON} the contract's JSON (a response schema was sent).
     */
    public enum OutputFormat { LETTER, SHORT, LINES, JSON }

    /** Another agent's answer and its influence weight (1 when not stated). */
    public record Peer(String id, double weight, String text) { }

    public record Critique(String critic, String text) { }

    /** A disputed claim to assess; {@code region} null when none was given, {@code confidence} NaN when none. */
    public record ClaimRef(int number, String expert, double confidence, Region region, String text) { }
}
