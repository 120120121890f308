package dev.gamagent.eval;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.config.Config;
import dev.gamagent.engine.AnswerExtractor;
import dev.gamagent.engine.Prompts;

import java.util.List;
import java.util.Map;

/**
 * Grades a method's answer against the ground truth. Multiple choice follows VLMEvalKit: the method's
 * own option letter, else {@link AnswerExtractor} on the answer text, else (when configured) a judge
 * model asked which option the answer means (VLMEvalKit's LLM extraction step); refusals and answers
 * still unmatched are {@link Outcome#UNMATCHED}. Open answers use {@link OpenAnswerMatcher}.
 */
public final class Grader {
    private static final int JUDGE_ATTEMPTS = 3;
    private final OpenAnswerMatcher open;
    private final Backend judge;
    private final Prompts prompts;

    /** @param judge a backend for unmatched multiple-choice answers, or null for none */
    public Grader(Config config, Backend judge) {
        this.open = new OpenAnswerMatcher(config.number("eval.numeric_tolerance", 0.01));
        this.judge = judge;
        this.prompts = new Prompts(config);
    }

    /** The grade, the letter or text that was graded, and which rule decided it. */
    public record Graded(Outcome outcome, String predicted, String rule) { }

    public Graded grade(Question q, Answer a) {
        if (!q.isMultipleChoice()) {
            String text = a.answer() == null ? "" : a.answer();
            OpenAnswerMatcher.Match m = open.match(text, q.groundTruth());
            return new Graded(m == OpenAnswerMatcher.Match.NONE ? Outcome.WRONG : Outcome.CORRECT,
                    OpenAnswerMatcher.answerPart(text), m.name().toLowerCase(java.util.Locale.ROOT));
        }
        String letter = a.option() != null && q.options().containsKey(a.option()) ? a.option() : null;
        String rule = "method";
        if (letter == null) {
            AnswerExtractor.Extraction x = AnswerExtractor.extract(a.answer(), q.options());
            if (x instanceof AnswerExtractor.Matched m) { letter = m.letter(); rule = m.rule(); }
            else if (x instanceof AnswerExtractor.Refused) return new Graded(Outcome.UNMATCHED, null, "refused");
            else if (judge != null) {
                letter = askJudge(q, a.answer());
                rule = "judge";
            }
        }
        if (letter == null) return new Graded(Outcome.UNMATCHED, null, judge == null ? "unmatched" : "judge_unmatched");
        return new Graded(letter.equals(q.groundTruth()) ? Outcome.CORRECT : Outcome.WRONG, letter, rule);
    }

    /**
     * The judge's letter; null when it says Z (none of the options). As in VLMEvalKit, a reply that names
     * no single option is asked again, up to {@value #JUDGE_ATTEMPTS} times.
     */
    private String askJudge(Question q, String answer) {
        String user = prompts.render("eval_match", Map.of("question", q.render(), "answer", answer == null ? "" : answer));
        ChatRequest req = new ChatRequest(List.of(ChatMessage.user(user, List.of())), 0.0, 16, 1, null, false, 0, null, null);
        for (int attempt = 0; attempt < JUDGE_ATTEMPTS; attempt++) {
            AnswerExtractor.Extraction x = AnswerExtractor.extract(judge.chat(req).first().text(), q.options());
            if (x instanceof AnswerExtractor.Matched m) return m.letter();
            if (x instanceof AnswerExtractor.Refused) return null;
        }
        return null;
    }
}
