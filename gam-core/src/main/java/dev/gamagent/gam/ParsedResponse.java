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
 * @param notes         what reading it set aside, for the trace (e.g. a claim naming a frame the request does not have)
 */
public record ParsedResponse(String answer, List<Trace.Claim> claims, Double confidence, boolean notApplicable, String parse,
                             List<String> notes) {
    public ParsedResponse {
        claims = List.copyOf(claims);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    public ParsedResponse(String answer, List<Trace.Claim> claims, Double confidence, boolean notApplicable, String parse) {
        this(answer, claims, confidence, notApplicable, parse, List.of());
    }

    public static ParsedResponse none() { return new ParsedResponse(null, List.of(), null, false, "none"); }

    /**
     * This reply with every claim's frame checked against the request's {@code images}: a frame outside 1..images is
     * dropped (the claim stays, naming no frame) and a note says which claim named which frame. Never throws.
     */
    public ParsedResponse withFramesWithin(int images) {
        List<Trace.Claim> kept = new java.util.ArrayList<>(claims.size());
        List<String> said = new java.util.ArrayList<>(notes);
        for (Trace.Claim c : claims) {
            if (c.frame() != null && (c.frame() < 1 || c.frame() > images)) {
                said.add("claim " + c.n() + " names frame " + c.frame() + " but the request has "
                        + (images == 1 ? "1 image" : images + " images") + " (frames 1.." + images + "): frame ignored");
                kept.add(c.withFrame(null));
            } else {
                kept.add(c);
            }
        }
        return said.size() == notes.size() ? this : new ParsedResponse(answer, kept, confidence, notApplicable, parse, said);
    }

    /**
     * Prose for the hedge lexicon (Φ_sem): the answer, claims and evidence, then the reported confidence
     * as a "CONFIDENCE:" line so the blend of docs/design.md §3 applies whatever the reply's format was.
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
