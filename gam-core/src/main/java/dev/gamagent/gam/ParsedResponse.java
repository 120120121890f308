package dev.gamagent.gam;

import dev.gamagent.api.Trace;

import java.util.List;

/**
 * An expert's reply as the claim parser read it.
 *
 * @param answer        the answer as written (a letter or a short answer), null when none was found
 * @param confidence    the overall confidence the agent reported, or null
 * @param notApplicable the agent said its specialty does not apply (e.g. no text in the image)
 * @param parse         which path read it: {@code json}, {@code lines}, {@code prose} or {@code none}
 */
public record ParsedResponse(String answer, List<Trace.Claim> claims, Double confidence, boolean notApplicable, String parse) {
    public ParsedResponse { claims = List.copyOf(claims); }

    public static ParsedResponse none() { return new ParsedResponse(null, List.of(), null, false, "none"); }

    /**
     * Prose for the hedge lexicon (Φ_sem): the answer, claims and evidence, then the reported confidence
     * as a "CONFIDENCE:" line so the blend of DESIGN.md §3 applies whatever the reply's format was.
     */
    public String hedgeText(String raw) {
        if (parse.equals("prose") || parse.equals("none")) return raw;
        StringBuilder sb = new StringBuilder();
        if (answer != null) sb.append(answer).append(".\n");
        for (Trace.Claim c : claims) {
            sb.append(c.text()).append(". ");
            if (c.evidence() != null) sb.append(c.evidence()).append(". ");
            sb.append('\n');
        }
        if (confidence != null) sb.append("CONFIDENCE: ").append(confidence);
        return sb.toString();
    }
}
