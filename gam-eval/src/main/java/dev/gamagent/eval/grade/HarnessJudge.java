package dev.gamagent.eval.grade;

import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;

import java.util.List;

/**
 * A judge model asked as VLMEvalKit's MathVista and MathVision evaluations ask theirs ({@code MathVista_auxeval},
 * {@code MATH_V_auxeval}): the prompt as one user message, at most {@value #MAX_TOKENS} tokens
 * ({@code build_judge(max_tokens=128)}), up to {@value #ATTEMPTS} attempts at temperature 0, 0.5, 1, 1.5, 2; an attempt
 * is repeated only when the call fails (VLMEvalKit retries on its failed-API marker, never on what the judge says).
 */
final class HarnessJudge {
    static final int ATTEMPTS = 5;
    static final int MAX_TOKENS = 128;
    private final Backend backend;

    HarnessJudge(Backend backend) { this.backend = java.util.Objects.requireNonNull(backend, "backend"); }

    /** The judge's reply to {@code prompt}, or null when every attempt failed (VLMEvalKit then records '' and counts it wrong). */
    String ask(String prompt) {
        for (int i = 0; i < ATTEMPTS; i++) {
            ChatRequest req = new ChatRequest(List.of(ChatMessage.user(prompt, List.of())), i * 0.5, MAX_TOKENS, 1, null, false, 0, null, null);
            try {
                String text = backend.chat(req).first().text();
                return text == null ? "" : text;
            } catch (BackendException e) {
                // VLMEvalKit: 'Try i: ... failed to parse.' and the next attempt, one temperature step up
            }
        }
        return null;
    }
}
