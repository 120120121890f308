package dev.gamagent.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.image.Region;
import dev.gamagent.util.Json;

import java.util.List;
import java.util.Map;

/**
 * The full, serialisable record of one method run on one question (docs/design.md section 9). Written with
 * {@code --trace FILE}, returned by the library, drawn by the web viewer and the reports.
 *
 * @param extra method-specific records, e.g. DREAM's {@code probes} and {@code branch}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Trace(QuestionInfo question, String method, Map<String, Object> config, List<Round> rounds,
                    String termination, @JsonProperty("final") Final finalAnswer, TokenCount tokens,
                    int calls, long millis, Map<String, Object> extra) {

    /** The same trace about {@code newQuestion} (the evaluation adds the answer key to what the method recorded). */
    /** The trace as indented JSON: what {@code gam ask --trace FILE} writes and the web viewer draws. */
    public String toJson() { return Json.writePretty(this); }

    public Trace withQuestion(QuestionInfo newQuestion) {
        return new Trace(newQuestion, method, config, rounds, termination, finalAnswer, tokens, calls, millis, extra);
    }

    /**
     * What the trace says about the question (images by name and size, never the pixels). A method records what it was
     * asked; {@code groundTruth} and {@code category} are null there, and the evaluation adds them to the trace it writes
     * ({@link #withAnswerKey}).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record QuestionInfo(String id, String text, String hint, Map<String, String> options,
                               List<String> images, String groundTruth, String category) {
        public static QuestionInfo of(Question q) {
            return new QuestionInfo(q.id(), q.text(), q.hint(), q.options(),
                    q.images().stream().map(p -> p.source() + " (" + p.width() + "x" + p.height() + ")").toList(), null, null);
        }

        /** The same question with the benchmark's answer key and category (null: none). */
        public QuestionInfo withAnswerKey(String newGroundTruth, String newCategory) {
            return new QuestionInfo(id, text, hint, options, images, newGroundTruth, newCategory);
        }
    }

    /** One round: k = 0 is the initial answers. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Round(int k, List<AgentTurn> agents, List<Critique> critiques,
                        @JsonProperty("U_sys") Double uSys, Double conflict, Map<String, Object> extra) {
    }

    /**
     * One agent's answer in one round. {@code error} is set when the agent dropped out of the round.
     * {@code backend} is the configured backend name the agent ran on ({@code default} = the command line's,
     * {@code local} = the built-in model, else a name from the {@code backends} config section) and
     * {@code model} the model that answered, as the server named it (null when the call failed before an answer).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AgentTurn(String id, String role, double scale, String answer, String option, double uncertainty,
                            String signal, Double weight, List<Claim> claims, TokenCount tokens, String raw,
                            String parse, String error, Map<String, Double> optionDistribution, String backend,
                            String model) {
        /** A turn that does not say which backend answered (methods that record it use the full constructor). */
        public AgentTurn(String id, String role, double scale, String answer, String option, double uncertainty,
                         String signal, Double weight, List<Claim> claims, TokenCount tokens, String raw,
                         String parse, String error, Map<String, Double> optionDistribution) {
            this(id, role, scale, answer, option, uncertainty, signal, weight, claims, tokens, raw, parse, error,
                    optionDistribution, null, null);
        }
    }

    /**
     * A claim an expert made: text, its confidence, the evidence, and where in the image. {@code frame} (1-based) is
     * the image of the question the claim is about, for a video the frame in time order, when the expert named one
     * ({@code FRAME: k}, {@code "frame": k}); its region is on that frame. Null when not named or out of range.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Claim(int n, String text, double confidence, String evidence, Region region, Integer frame) {
        /** A claim that names no frame. */
        public Claim(int n, String text, double confidence, String evidence, Region region) {
            this(n, text, confidence, evidence, region, null);
        }

        /** This claim naming {@code newFrame} (null: none). */
        public Claim withFrame(Integer newFrame) { return new Claim(n, text, confidence, evidence, region, newFrame); }
    }

    /** A critic's verdict on one disputed claim. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Critique(String critic, String expert, int claim, String claimText, String assessment,
                           String reason, String correction, double confidence) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Final(String answer, String option, double confidence) {
    }
}
