package dev.gamagent.eval.grade;

import dev.gamagent.api.Answer;
import dev.gamagent.api.Question;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.config.Config;
import dev.gamagent.engine.Prompts;
import dev.gamagent.eval.load.KeyedQuestion;

import java.util.List;
import java.util.Map;

/**
 * Grades a method's answer against the ground truth. Multiple choice: the method's own option letter
 * (the letter a VLMEvalKit model wrapper around the method would return), else the answer text read by
 * the configured {@link GradingMode} ({@code eval.grading}: VLMEvalKit's {@code can_infer} by default,
 * or our {@link dev.gamagent.engine.AnswerExtractor} with {@code extended}), else (when configured) a judge model asked which
 * option the answer means (VLMEvalKit's LLM extraction step); refusals and answers still unmatched are
 * {@link Outcome#UNMATCHED}, which VLMEvalKit's exact matching also counts wrong. Open answers use
 * {@link OpenAnswerMatcher}, or the benchmark's own VLMEvalKit rule ({@value #OPEN_ANSWERS_KEY}: {@code yes-no} for
 * MME, POPE and HallusionBench, {@code mathvista} for MathVista, {@code mathvision} for MathVision, the VQA scores of
 * {@link VlmEvalKitVqa}); the letter readings of {@link VlmEvalKitLetters} grade every question of their benchmark, options
 * or not. With a judge, MathVista and MathVision are graded as VLMEvalKit grades them: its prompt to the judge for every
 * reply its rules leave, free-form or multiple choice ({@link VlmEvalKitMathVista}, {@link VlmEvalKitMathVision}); without
 * one, by the rules alone (a run {@link PaperGrading} marks not comparable). Each multiple-choice record's {@code rule} is
 * "mode:step", e.g. {@code vlmevalkit-2026:option}; an open answer's is the matcher's step ({@code exact},
 * {@code yes-no:yorn}, {@code mathvista:prefetch}, …; the part before the colon is what a summary's
 * {@code grading} lists).
 */
public final class Grader {
    private static final int JUDGE_ATTEMPTS = 3;
    /**
     * How open answers are read: {@code matcher} ({@link OpenAnswerMatcher}, the default), {@code yes-no}
     * (VLMEvalKit's YOrN_Extraction), {@code mathvista} or {@code mathvision} (VLMEvalKit's MathVista and MathVision
     * grading: the judge's extraction when a judge is configured, the prefetch rule alone otherwise). Set from the
     * benchmark's catalogue entry when {@code gam eval --data} names one; part of the run's identity.
     */
    public static final String OPEN_ANSWERS_KEY = "eval.open_answers";
    /**
     * How multiple-choice answers are graded: {@code default} (the mode above: {@code eval.grading}) or {@code mvbench}
     * ({@link MvBenchGrading}, VLMEvalKit's MVBench rule without a judge). Set when the benchmark is MVBench (by
     * its name, or a directory holding its snapshot); part of the run's identity.
     */
    public static final String CHOICE_RULE_KEY = "eval.choice_rule";
    private final OpenAnswerMatcher open;
    private final String choiceRule;
    private final Backend judge;
    private final HarnessJudge harnessJudge;
    private final Prompts prompts;
    private final GradingMode mode;
    private final String openRule;

    /** @param judge a backend for unmatched multiple-choice answers, or null for none */
    public Grader(Config config, Backend judge) {
        this.open = new OpenAnswerMatcher(config.number("eval.numeric_tolerance"));
        this.judge = judge;
        this.harnessJudge = judge == null ? null : new HarnessJudge(judge);
        this.prompts = new Prompts(config);
        this.mode = GradingMode.of(config.string(GradingMode.CONFIG_KEY));
        this.openRule = config.string(OPEN_ANSWERS_KEY);
        this.choiceRule = config.string(CHOICE_RULE_KEY);
        if (!java.util.List.of("default", MvBenchGrading.RULE).contains(choiceRule)) {
            throw new IllegalArgumentException("config " + CHOICE_RULE_KEY + " is '" + choiceRule + "'; use default or " + MvBenchGrading.RULE);
        }
        if (!java.util.List.of("matcher", "yes-no", VlmEvalKitMathVista.RULE, VlmEvalKitMathVision.RULE).contains(openRule)
                && !VlmEvalKitVqa.RULES.contains(openRule) && !VlmEvalKitLetters.RULES.contains(openRule)) {
            throw new IllegalArgumentException("config " + OPEN_ANSWERS_KEY + " is '" + openRule + "'; use matcher, yes-no, mathvista, "
                    + "mathvision, one of VLMEvalKit's letter rules " + new java.util.TreeSet<>(VlmEvalKitLetters.RULES) + " or of its VQA rules "
                    + new java.util.TreeSet<>(VlmEvalKitVqa.RULES));
        }
    }

    public GradingMode mode() { return mode; }

    /**
     * The grade of {@code a}; a question without a ground truth (a test split without public answers) is read the same
     * way (the letter or text is kept for the submission file) and comes out {@code UNGRADED}, never right or wrong.
     */
    public Grade grade(KeyedQuestion q, Answer a) {
        if (q.groundTruth() != null) return gradeAgainstTruth(q, a);
        if (!q.isMultipleChoice() && !openRule.equals("yes-no")) {
            return new Grade(Outcome.UNGRADED, OpenAnswerMatcher.answerPart(a.answer() == null ? "" : a.answer()), "ungraded");
        }
        Grade g = gradeAgainstTruth(q, a);
        return new Grade(Outcome.UNGRADED, g.predicted(), g.rule());
    }

    private Grade gradeAgainstTruth(KeyedQuestion q, Answer a) {
        // VLMEvalKit's letter rules read the letter from the reply whether or not the file has option columns
        if (VlmEvalKitLetters.RULES.contains(openRule)) return VlmEvalKitLetters.grade(openRule, q, a);
        if (VlmEvalKitVqa.RULES.contains(openRule)) {
            // VLMEvalKit's VQA classes read the reply whatever columns the file has; a multiple-choice reading answers with its letter
            String reply = q.isMultipleChoice() && a.option() != null ? a.option() : a.answer() == null ? "" : a.answer();
            return VlmEvalKitVqa.grade(openRule, VlmEvalKitVqa.builtIn().score(openRule, q.groundTruth(), reply, q.category()), reply);
        }
        if (!q.isMultipleChoice()) {
            String text = a.answer() == null ? "" : a.answer();
            if (openRule.equals("yes-no")) {
                // VLMEvalKit: the extracted word must equal the answer ("Yes"/"No"); "Unknown" would go to its judge
                String word = VlmEvalKitYesNo.extract(text);
                if (word.equals(VlmEvalKitYesNo.UNKNOWN)) return new Grade(Outcome.UNMATCHED, null, "yes-no:unknown");
                return new Grade(word.equals(q.groundTruth()) ? Outcome.CORRECT : Outcome.WRONG, word, "yes-no:yorn");
            }
            if (openRule.equals(VlmEvalKitMathVision.RULE)) return VlmEvalKitMathVision.open(q, text, harnessJudge);
            if (openRule.equals(VlmEvalKitMathVista.RULE) && harnessJudge != null) return VlmEvalKitMathVista.judgedOpen(q, text, harnessJudge);
            if (openRule.equals(VlmEvalKitMathVista.RULE)) {
                String reply = text.strip();
                return switch (VlmEvalKitMathVista.prefetch(reply, q.groundTruth())) {
                    case RIGHT -> new Grade(Outcome.CORRECT, reply, "mathvista:prefetch");
                    case WRONG -> new Grade(Outcome.WRONG, reply, "mathvista:prefetch");
                    case NEEDS_JUDGE -> new Grade(Outcome.UNMATCHED, reply, "mathvista:needs-judge");
                };
            }
            OpenAnswerMatcher.Match m = open.match(text, q.groundTruth());
            return new Grade(m == OpenAnswerMatcher.Match.NONE ? Outcome.WRONG : Outcome.CORRECT,
                    OpenAnswerMatcher.answerPart(text), m.name().toLowerCase(java.util.Locale.ROOT));
        }
        if (choiceRule.equals(MvBenchGrading.RULE)) return MvBenchGrading.grade(q, a);
        String letter = a.option() != null && q.options().containsKey(a.option()) ? a.option() : null;
        String rule = "method";
        if (letter == null) {
            Reading r = read(a.answer(), q.options());
            if (r.refused()) return new Grade(Outcome.UNMATCHED, null, rule(r.rule()));
            letter = r.letter();
            rule = r.rule();
            HarnessPrompt harness = openRule.equals(VlmEvalKitMathVista.RULE) ? HarnessPrompt.MATHVISTA
                    : openRule.equals(VlmEvalKitMathVision.RULE) ? HarnessPrompt.MATHVISION : null;
            if (letter == null && harness != null && harnessJudge != null) {
                return VlmEvalKitMathVista.judgedChoice(q, a.answer() == null ? "" : a.answer(), harnessJudge, harness, openRule);
            }
            if (letter == null && judge != null) {
                letter = askJudge(q, a.answer());
                rule = letter == null ? "judge_unmatched" : "judge";
            }
        }
        if (letter == null) return new Grade(Outcome.UNMATCHED, null, rule(rule));
        return new Grade(letter.equals(q.groundTruth()) ? Outcome.CORRECT : Outcome.WRONG, letter, rule(rule));
    }

    private String rule(String step) { return mode.label() + ":" + step; }

    /** What the grading mode reads in a text: a letter (null for none), whether it is a refusal, and the step. */
    private record Reading(String letter, boolean refused, String rule) { }

    private Reading read(String text, Map<String, String> options) {
        GradingMode.Reading r = mode.read(mode.isVlmEvalKit() && text == null ? "" : text, options);
        return new Reading(r.declined() ? null : r.letter(), r.declined(), r.resultStep(mode));
    }

    /**
     * The judge's letter; null when it says Z (none of the options). As in VLMEvalKit, a reply that names
     * no single option is asked again, up to {@value #JUDGE_ATTEMPTS} times.
     */
    private String askJudge(KeyedQuestion q, String answer) {
        String user = prompts.render("eval_match", Map.of("question", q.question().render(), "answer", answer == null ? "" : answer));
        ChatRequest req = new ChatRequest(List.of(ChatMessage.user(user, List.of())), 0.0, 16, 1, null, false, 0, null, null);
        for (int attempt = 0; attempt < JUDGE_ATTEMPTS; attempt++) {
            Reading r = read(judge.chat(req).first().text(), q.options());
            if (r.letter() != null) return r.letter();
            if (r.refused()) return null;
        }
        return null;
    }
}
