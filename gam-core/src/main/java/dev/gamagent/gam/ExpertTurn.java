package dev.gamagent.gam;

import dev.gamagent.api.Trace;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenCount;
import dev.gamagent.backend.UncertaintySignal;
import dev.gamagent.influence.Consensus;
import dev.gamagent.uncertainty.Estimate;

import java.util.List;
import java.util.Map;

/**
 * One expert's turn in one round; {@code error} set when its backend failed and it dropped out; {@code samples} the
 * sampled answers its U came from (sampling fallback), else null; {@code prompt} what it was asked, as text, when the
 * run records prompts ({@code trace.prompts}), else null.
 */
record ExpertTurn(AgentSpec spec, int index, String raw, Choice choice, ParsedResponse parsed, String answer, String option,
                  Estimate u, Map<String, Double> dist, String distSource, TokenCount tokens, String error, String model,
                  List<String> samples, String prompt) {
    boolean answered() { return error == null; }

    /**
     * Why this answering expert holds no opinion ("not applicable", "unreadable": no answer, or a multiple-choice
     * reply naming no option; "declined": an open answer that only declines), or null when it holds one. Such an
     * expert keeps its weight but does not shape the game (docs/design.md §5; the rule is {@link #noOpinion(boolean, String,
     * String, String, boolean)}).
     */
    String noOpinion(boolean multipleChoice) {
        return answered() ? noOpinion(parsed.notApplicable(), parsed.parse(), answer, option, multipleChoice) : null;
    }

    /**
     * Why a reply holds no opinion ("not applicable", "unreadable", "declined": an open answer that only declines), or null
     * when it holds one: the one rule the controller (each expert's turn, GamDecision) and DREAM's rollback (GamMethod#decide, from the
     * trace's turns) both apply, through {@link Consensus#noOpinion}. {@code parse} is how the reply was read ("none":
     * nothing could be read).
     */
    static String noOpinion(boolean notApplicable, String parse, String answer, String option, boolean multipleChoice) {
        return Consensus.noOpinion(notApplicable, !"none".equals(parse), answer, option, multipleChoice);
    }

    /** The turn of an expert that dropped out: its backend failed or is unknown ({@code prompt}: what it was asked, or null). */
    static ExpertTurn failed(AgentSpec spec, int index, String error, String prompt) {
        return new ExpertTurn(spec, index, null, null, ParsedResponse.none(), null, null, new Estimate(1.0, UncertaintySignal.FIXED),
                null, null, TokenCount.ZERO, error, null, null, prompt);
    }

    /** An expert's answer as peers see it: the line format, whatever format it replied in. */
    static String render(ExpertTurn t) {
        StringBuilder sb = new StringBuilder("ANSWER: ");
        sb.append(t.option() != null ? t.option() + ". " + t.answer() : t.answer() == null ? "(none)" : t.answer()).append('\n');
        for (Trace.Claim c : t.parsed().claims()) {
            sb.append("CLAIM ").append(c.n()).append(": ").append(c.text().replace('\n', ' '))
                    .append(" | CONFIDENCE: ").append(GamPrompts.num(c.confidence()));
            if (c.evidence() != null) sb.append(" | EVIDENCE: ").append(c.evidence().replace('\n', ' '));
            if (c.region() != null) sb.append(" | REGION: ").append(GamPrompts.num(c.region().x0())).append(',')
                    .append(GamPrompts.num(c.region().y0())).append(',').append(GamPrompts.num(c.region().x1())).append(',')
                    .append(GamPrompts.num(c.region().y1()));
            sb.append('\n');
        }
        sb.append("CONFIDENCE: ").append(GamPrompts.num(1 - t.u().value()));
        return sb.toString();
    }
}
