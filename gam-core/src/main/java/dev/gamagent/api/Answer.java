package dev.gamagent.api;

import dev.gamagent.backend.TokenCount;

/**
 * The result of one method run on one question.
 *
 * @param answer      the final answer text (for multiple choice, the option text or the letter)
 * @param option      the option letter, or null for open questions / unmatched answers
 * @param confidence  Σ_i w_i·p_i(answer) for GAM; the method's own confidence otherwise, in [0,1]
 * @param uncertainty the system uncertainty in [0,1] (U_sys for GAM)
 * @param rounds      debate rounds actually run (0 when no debate)
 * @param termination why the method stopped (see {@link Termination})
 * @param calls       backend calls made
 */
public record Answer(String answer, String option, double confidence, double uncertainty, int rounds,
                     Termination termination, TokenCount tokens, int calls, long millis, Trace trace) {
}
