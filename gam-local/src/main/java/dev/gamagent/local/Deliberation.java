package dev.gamagent.local;

import dev.gamagent.engine.AnswerExtractor;
import dev.gamagent.image.Region;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an agent revises when a debate shows it other answers: the one rule for every protocol (a debate's peers,
 * GAM's peers and critiques alike; docs/local-model.md, "A fair testbed"):
 * <pre>  p(o) ∝ p_own(o) · Π_peers L_j(o)^β · Π_critiques L_c(o)</pre>
 * where p_own is the agent's own evidence (its look, mixed with a second look when what it is shown disagrees
 * with it: {@code LocalBackend}), a peer that answers a_j and says it is c_j sure gives
 * L_j(o) = c_j·[o = a_j] + (1 − c_j)/K, and a critique gives the likelihood of {@link Revision}. β
 * ({@link Calibration#peerTrust}) is how much a stated answer counts against one's own evidence: with strong
 * evidence an agent keeps its answer, with weak evidence it follows confident peers, right or wrong
 * (groupthink). How sure a peer says it is: its CONFIDENCE line, else the hedge in its words ({@link #stated}).
 */
final class Deliberation {
    private static final Pattern ANSWER = Pattern.compile("(?im)^\\s*ANSWER\\s*:\\s*(.+?)\\s*$");
    private static final Pattern REGION = Pattern.compile("(?i)REGION\\s*[:=]\\s*\\[?\\s*([-0-9.]+\\s*,\\s*[-0-9.]+\\s*,\\s*[-0-9.]+\\s*,\\s*[-0-9.]+)");
    private static final Pattern CONFIDENCE = Pattern.compile("(?im)^\\s*CONFIDENCE\\s*:\\s*([0-9.]+)\\s*(%?)");
    private static final Pattern DOUBT = Pattern.compile("(?i)\\b(not sure|unsure|not certain|cannot tell|can't tell|cannot determine|unclear|no idea)\\b");
    private static final Pattern LEANING = Pattern.compile("(?i)\\b(probably|likely|i think|i believe|seems|appears)\\b");
    private static final Pattern MAYBE = Pattern.compile("(?i)\\b(maybe|perhaps|possibly|might)\\b");

    /**
     * How sure a text without a CONFIDENCE line says it is, by its strongest hedge: none 0.92, a weak one ("maybe")
     * 0.8, a leaning ("probably", "I think") 0.72, doubt ("not sure", "cannot tell") 0.4. The model's own replies
     * hedge the same way ({@code ReplyWriter.hedge}: nothing from 0.85 up, "probably" from 0.6, "not sure" below),
     * and each value is the middle of the band the model would write that hedge for.
     */
    static final double SAYS_NOTHING = 0.92, SAYS_MAYBE = 0.8, SAYS_PROBABLY = 0.72, SAYS_NOT_SURE = 0.4;

    /** A peer's stated answer (an option text, or an open answer in lower case), how sure it says it is, and the region it names. */
    record Voice(String id, String answer, double confidence, Region region) { }

    /** The id of the voice that is the agent's own previous answer. */
    static final String PREVIOUS = "my previous answer";

    private Deliberation() { }

    /**
     * What a prompt shows the agent of other answers: its own previous answer (what it said before, and how sure it
     * said it was, is in its context as a real model's earlier turn is) and the peers that state an answer (a peer
     * with weight 0, or saying NOT APPLICABLE, states none).
     */
    static List<Voice> voices(ParsedPrompt p) {
        List<String> letters = new ArrayList<>(p.options().keySet());
        List<Voice> out = new ArrayList<>();
        if (p.previous() != null) {
            String ans = answerOf(p.previous(), p, letters);
            if (ans != null) out.add(new Voice(PREVIOUS, ans, stated(p.previous()), regionOf(p.previous())));
        }
        for (ParsedPrompt.Peer peer : p.peers()) {
            if (!(peer.weight() > 0)) continue;
            String ans = answerOf(peer.text(), p, letters);
            if (ans == null) continue;
            double c = stated(peer.text());
            out.add(new Voice(peer.id(), ans, c, regionOf(peer.text())));
        }
        return out;
    }

    /** A peer's answer as one of the values: an option text for multiple choice, else the lower-cased answer. */
    static String answerOf(String text, ParsedPrompt p, List<String> letters) {
        Matcher a = ANSWER.matcher(text);
        String line = a.find() ? a.group(1) : text.strip().split("\\R", 2)[0];
        if (line.toLowerCase(Locale.ROOT).contains("not applicable")) return null;
        if (!letters.isEmpty()) {
            String letter = AnswerExtractor.option(line, p.options());
            if (letter == null) letter = AnswerExtractor.option(text, p.options());
            return letter == null ? null : p.options().get(letter);
        }
        String v = line.strip().replaceAll("[.\"']+$", "").toLowerCase(Locale.ROOT);
        if (v.isEmpty() || v.contains(Judgement.CANNOT)) return null;
        return v;
    }

    /** How sure a text says it is: its last CONFIDENCE line (0..1, or a percentage), else its strongest hedge. */
    static double stated(String text) {
        Matcher m = CONFIDENCE.matcher(text);
        Double c = null;
        while (m.find()) {
            try {
                double v = Double.parseDouble(m.group(1));
                c = !m.group(2).isEmpty() || v > 1 ? v / 100 : v;
            } catch (NumberFormatException e) {
                // an unreadable number says nothing; the words decide
            }
        }
        if (c != null) return Math.max(0, Math.min(1, c));
        if (DOUBT.matcher(text).find()) return SAYS_NOT_SURE;
        if (LEANING.matcher(text).find()) return SAYS_PROBABLY;
        if (MAYBE.matcher(text).find()) return SAYS_MAYBE;
        return SAYS_NOTHING;
    }

    /** The first region a peer's text names (a CLAIM line's {@code REGION: x0,y0,x1,y1}), or null. */
    static Region regionOf(String text) {
        Matcher m = REGION.matcher(text);
        return m.find() ? PromptReader.region(m.group(1)) : null;
    }

    /** Whether what the agent is shown disagrees with its own best answer {@code own}. */
    static boolean disputes(String own, List<Voice> voices, List<Revision.Evidence> critiques) {
        for (Voice v : voices) if (!v.answer().equalsIgnoreCase(own)) return true;
        for (Revision.Evidence e : critiques) if (e.claimed().equals(own) != e.truth() >= 0.5) return true;
        return false;
    }

    /**
     * The agent's answer after weighing its own evidence {@code own} against the peers' voices (exponent
     * {@code trust}) and the critiques. Values a peer names that {@code own} does not hold (an open answer)
     * join with the smallest probability {@code own} gives any value.
     */
    static Distribution weigh(Distribution own, List<Voice> voices, List<Revision.Evidence> critiques, double trust) {
        return weigh(own, voices, critiques, trust, trust);
    }

    /** As above, the agent's own previous answer weighed with exponent {@code selfTrust}, its peers with {@code trust}. */
    static Distribution weigh(Distribution own, List<Voice> voices, List<Revision.Evidence> critiques, double trust, double selfTrust) {
        List<String> values = new ArrayList<>(own.values());
        double floor = 1;
        for (double x : own.probabilities()) floor = Math.min(floor, x);
        floor = Math.max(1e-4, floor);
        for (Voice v : voices) if (index(values, v.answer()) < 0) values.add(v.answer());
        int k = values.size();
        double[] log = new double[k];
        for (int i = 0; i < k; i++) log[i] = Math.log(Math.max(1e-9, i < own.size() ? own.p(i) : floor));
        for (Voice v : voices) {
            int a = index(values, v.answer());
            double exponent = v.id().equals(PREVIOUS) ? selfTrust : trust;
            for (int i = 0; i < k; i++) log[i] += exponent * Math.log((i == a ? v.confidence() : 0) + (1 - v.confidence()) / k + 1e-9);
        }
        Distribution weighed = Distribution.fromLog(values, log);
        if (critiques.isEmpty() || k != own.size()) return weighed;
        return Revision.revise(weighed, critiques).answer();
    }

    private static int index(List<String> values, String v) {
        for (int i = 0; i < values.size(); i++) if (values.get(i).equalsIgnoreCase(v)) return i;
        return -1;
    }
}
