package dev.gamagent.local;

import dev.gamagent.image.Region;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes the local model's replies in the format the prompt asked for (docs/CONTRACTS.md §1): the
 * ANSWER/CLAIM/CONFIDENCE lines, the critique lines, the contract's JSON, or the bare option letter.
 * Scored pieces (the answer, colour and shape words, counts, OCR characters, verdicts) keep their
 * distributions; everything else is boilerplate.
 */
final class ReplyWriter {
    static final String NOT_APPLICABLE = "NOT APPLICABLE";

    private ReplyWriter() { }

    /** What the model says when it answers "cannot determine" in a format that has room for words. */
    static final String CANNOT = "cannot determine";

    /**
     * What to say about an answer: the final distribution, which value is given, and the supporting findings.
     *
     * @param declared  the role declares itself NOT APPLICABLE
     * @param undetermined the role looked and found nothing to answer from: it says "cannot determine" where the
     *                  format allows words, rather than a letter picked from a uniform distribution
     */
    record Answer(Distribution distribution, int chosen, List<Piece> openPieces, List<Judgement.Finding> findings,
                  boolean declared, String reason, boolean undetermined) {
        Answer(Distribution distribution, int chosen, List<Piece> openPieces, List<Judgement.Finding> findings, boolean declared, String reason) {
            this(distribution, chosen, openPieces, findings, declared, reason, false);
        }
    }

    static List<Piece> answer(ParsedPrompt p, Answer a, boolean withClaims) {
        List<Piece> out = new ArrayList<>();
        double conf = a.declared() ? 0 : a.undetermined() ? a.distribution().bestProbability() : a.distribution().p(a.chosen());
        switch (p.format()) {
            case LETTER, SHORT -> out.addAll(answerPieces(p, a, ""));
            case LINES -> {
                if (withClaims && !p.claimsRequested()) {
                    // No CLAIM lines asked for: the findings become the reasoning peers will read.
                    for (Judgement.Finding f : a.findings()) {
                        out.addAll(f.text());
                        out.add(Piece.plain(" (" + clean(f.evidence()) + ").\n"));
                    }
                    // How sure it is, in words, as a model that writes its reasoning says it (peers read it).
                    String hedge = a.declared() || a.undetermined() || a.findings().isEmpty() ? "" : hedge(conf);
                    if (!hedge.isEmpty()) out.add(Piece.plain(hedge + "\n"));
                    withClaims = false;
                }
                out.add(Piece.plain("ANSWER:"));
                if (a.declared()) out.add(Piece.plain(" " + NOT_APPLICABLE));
                else if (a.undetermined()) out.add(Piece.plain(" " + CANNOT));
                else out.addAll(answerPieces(p, a, " "));
                if (withClaims) {
                    int n = 1;
                    for (Judgement.Finding f : a.findings()) {
                        out.add(Piece.plain("\nCLAIM " + n++ + ": "));
                        out.addAll(f.text());
                        out.add(Piece.plain(String.format(Locale.ROOT, " | CONFIDENCE: %.2f | EVIDENCE: %s | REGION: %s",
                                f.confidence(), clean(f.evidence()), region(f.region()))));
                        // A claim about one frame of a video names it (1-based: the k-th image of the request).
                        if (f.frame() != null) out.add(Piece.plain(" | FRAME: " + f.frame()));
                    }
                }
                if (a.reason() != null) out.add(Piece.plain("\nREASON: " + clean(a.reason())));
                if (p.confidenceRequested() || withClaims) out.add(Piece.plain(String.format(Locale.ROOT, "\nCONFIDENCE: %.2f", conf)));
            }
            case JSON -> {
                out.add(Piece.plain("{\"answer\": \""));
                if (a.declared()) out.add(Piece.plain(NOT_APPLICABLE));
                else if (a.undetermined()) out.add(Piece.plain(CANNOT));
                else for (Piece piece : answerPieces(p, a, "")) out.add(escaped(piece));
                out.add(Piece.plain("\""));
                if (withClaims && p.claimsRequested()) {
                    out.add(Piece.plain(", \"claims\": ["));
                    boolean first = true;
                    for (Judgement.Finding f : a.findings()) {
                        out.add(Piece.plain((first ? "" : ", ") + "{\"text\": \""));
                        first = false;
                        for (Piece piece : f.text()) out.add(escaped(piece));
                        Region r = f.region() == null ? Region.FULL : f.region();
                        out.add(Piece.plain(String.format(Locale.ROOT,
                                "\", \"confidence\": %.2f, \"evidence\": \"%s\", \"region\": [%.3f, %.3f, %.3f, %.3f]%s}",
                                f.confidence(), json(f.evidence()), r.x0(), r.y0(), r.x1(), r.y1(),
                                f.frame() == null ? "" : ", \"frame\": " + f.frame())));
                    }
                    out.add(Piece.plain("]"));
                }
                // No "reason" field: the contract's schema allows no properties beyond answer, claims, confidence.
                out.add(Piece.plain(String.format(Locale.ROOT, ", \"confidence\": %.2f}", conf)));
            }
        }
        return out;
    }

    /**
     * The words a reply's reasoning uses for how sure it is of the answer it gives: nothing from 0.85 up,
     * "probably" from 0.6, "not sure" below ({@code Deliberation.stated} reads them back).
     */
    static String hedge(double p) {
        if (p >= 0.85) return "";
        if (p >= 0.6) return "This is probably right.";
        return "I am not sure of this.";
    }

    /** The answer itself: the option letter (or, for a short answer, the option text), or the open answer's pieces. */
    private static List<Piece> answerPieces(ParsedPrompt p, Answer a, String prefix) {
        Distribution d = a.distribution();
        if (p.multipleChoice()) {
            if (p.format() == ParsedPrompt.OutputFormat.SHORT) return List.of(Piece.chosen(prefix, d, a.chosen()));
            return List.of(Piece.chosen(prefix, d.renamed(new ArrayList<>(p.options().keySet())), a.chosen()));
        }
        if (a.openPieces() != null && !a.openPieces().isEmpty()) {
            List<Piece> out = new ArrayList<>();
            if (!prefix.isEmpty()) out.add(Piece.plain(prefix));
            out.addAll(a.openPieces());
            return out;
        }
        return List.of(Piece.chosen(prefix, d, a.chosen()));
    }

    static List<Piece> critique(ParsedPrompt p, List<Assessment> assessments) {
        List<Piece> out = new ArrayList<>();
        if (p.format() == ParsedPrompt.OutputFormat.JSON) {
            out.add(Piece.plain("{\"assessments\": ["));
            boolean first = true;
            for (Assessment a : assessments) {
                out.add(Piece.plain((first ? "" : ", ") + "{\"claim\": " + a.claim() + ", \"assessment\": \""));
                first = false;
                out.add(Piece.best("", a.verdict().renamed(a.verdict().values().stream().map(v -> v.toLowerCase(Locale.ROOT)).toList())));
                out.add(Piece.plain(String.format(Locale.ROOT, "\", \"reason\": \"%s\", \"correction\": \"%s\", \"confidence\": %.2f}",
                        json(a.reason()), json(a.correction()), a.confidence())));
            }
            out.add(Piece.plain("]}"));
            return out;
        }
        if (assessments.isEmpty()) {
            out.add(Piece.plain("No disputed claims were given to assess."));
            return out;
        }
        boolean first = true;
        for (Assessment a : assessments) {
            out.add(Piece.plain((first ? "" : "\n") + "CLAIM " + a.claim() + ":"));
            first = false;
            out.add(Piece.best(" ", a.verdict()));
            out.add(Piece.plain(String.format(Locale.ROOT, " | REASON: %s | CORRECTION: %s | CONFIDENCE: %.2f",
                    clean(a.reason()), clean(a.correction()), a.confidence())));
        }
        return out;
    }

    /**
     * The moderator's decision (CONTRACTS §1): {@code DECISION: STOP} or {@code CONTINUE}, scored by how
     * settled the pooled answer is, then the answer in the line format.
     */
    static List<Piece> moderate(ParsedPrompt p, Answer a, Distribution stop) {
        List<Piece> out = new ArrayList<>();
        if (p.format() == ParsedPrompt.OutputFormat.JSON) {
            out.add(Piece.plain("{\"decision\": \""));
            out.add(Piece.best("", stop.renamed(List.of("STOP", "CONTINUE"))));
            out.add(Piece.plain("\", "));
            List<Piece> rest = answer(p, a, false);
            out.add(Piece.plain(rest.get(0).text().substring(1)));
            out.addAll(rest.subList(1, rest.size()));
            return out;
        }
        out.add(Piece.plain("DECISION:"));
        out.add(Piece.best(" ", stop.renamed(List.of("STOP", "CONTINUE"))));
        out.add(Piece.plain("\n"));
        out.addAll(answer(withFormat(p, ParsedPrompt.OutputFormat.LINES), a, false));
        return out;
    }

    static ParsedPrompt withFormat(ParsedPrompt p, ParsedPrompt.OutputFormat f) {
        return new ParsedPrompt(p.question(), p.hint(), p.options(), p.role(), p.task(), p.peers(), p.critiques(),
                p.previous(), p.claims(), p.consensus(), f, p.claimsRequested(), p.confidenceRequested(), p.images());
    }

    private static Piece escaped(Piece p) {
        if (!p.scored()) return Piece.plain(json(p.text()));
        List<String> vals = p.alternatives().values().stream().map(ReplyWriter::json).toList();
        return new Piece(json(p.prefix()), vals.get(p.chosen()), p.alternatives().renamed(vals), p.chosen());
    }

    static String region(Region r) {
        Region x = r == null ? Region.FULL : r;
        return String.format(Locale.ROOT, "%.3f,%.3f,%.3f,%.3f", x.x0(), x.y0(), x.x1(), x.y1());
    }

    /** One line of free text: no newlines or field separators that would break the line format. */
    static String clean(String s) {
        return s == null ? "" : s.replaceAll("[\\r\\n|]+", " ").strip();
    }

    static String json(String s) {
        if (s == null) return "";
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.toString();
    }
}
