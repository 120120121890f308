package dev.gamagent.local;

import com.knuddels.jtokkit.api.Encoding;
import dev.gamagent.backend.Backend;
import dev.gamagent.backend.BackendException;
import dev.gamagent.backend.Capabilities;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.Usage;
import dev.gamagent.config.Config;
import dev.gamagent.image.ImageTokens;
import dev.gamagent.image.Picture;
import dev.gamagent.image.Region;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The built-in local perception model as a backend (DESIGN.md §8): it reads the prompt (PromptReader),
 * perceives the images at the size it was given (OCR + classical vision, cached), answers the
 * benchmark's question families from the perception's own scores, and reports per-token log-probs
 * derived from those distributions. It never knows which method calls it: the same request always
 * gets the same reply. With n > 1 and a temperature above 0, the extra choices sample the answer from
 * its distribution (seeded by the whole request: its seed, messages and image sizes), the rest of the reply unchanged.
 */
public final class LocalBackend implements Backend {
    public static final String NAME = "local:gam-perception";
    public static final String MODEL = "gam-perception";
    public static final long MAX_IMAGE_PIXELS = 4_000_000L;
    public static final int MAX_TOP_LOGPROBS = 20;

    private final LocalPerception perception;
    private final FamilyReasoner reasoner = new FamilyReasoner();
    private final Critic critic;
    private final Encoding encoding = ScoredText.CL100K;

    public LocalBackend(LocalPerception perception) {
        this.perception = perception;
        this.critic = new Critic(perception, reasoner);
    }

    /** The backend over the real OCR and vision engines (see {@link LocalPerception#standard}). */
    public static LocalBackend create(Config config) {
        return new LocalBackend(LocalPerception.standard(config));
    }

    @Override public String name() { return NAME; }

    @Override public Capabilities capabilities() {
        return new Capabilities(true, true, MAX_TOP_LOGPROBS, true, true, MAX_IMAGE_PIXELS);
    }

    public LocalPerception perception() { return perception; }

    /** The same engines with a perception cache of its own (one per method in an evaluation). */
    @Override public Backend withOwnCaches() { return new LocalBackend(perception.withOwnCache()); }

    @Override public ChatResult chat(ChatRequest request) throws BackendException {
        long start = System.nanoTime();
        ParsedPrompt p = PromptReader.read(request);
        for (Picture pic : p.images()) {
            if (pic.pixels() > MAX_IMAGE_PIXELS) {
                throw new BackendException.InvalidRequest("image " + pic + " has " + pic.pixels() + " pixels; "
                        + NAME + " accepts at most " + MAX_IMAGE_PIXELS + " (scale it down first)", 400, null);
            }
        }
        List<Choice> choices = new ArrayList<>();
        long completion = 0;
        for (int k = 0; k < request.n(); k++) {
            List<Piece> pieces = reply(p, k, request);
            ScoredText st = new ScoredText(encoding).addAll(pieces);
            List<TokenLogprob> tokens = st.tokens(Math.min(MAX_TOP_LOGPROBS, request.topLogprobs()));
            String finish = "stop";
            String text = st.text();
            if (tokens.size() > request.maxTokens()) {
                tokens = tokens.subList(0, request.maxTokens());
                StringBuilder sb = new StringBuilder();
                for (TokenLogprob t : tokens) sb.append(t.token());
                text = sb.toString();
                finish = "length";
            }
            completion += tokens.size();
            choices.add(new Choice(text, request.logprobs() ? tokens : List.of(), finish));
        }
        return new ChatResult(choices, new Usage(promptTokens(request), completion, false),
                Duration.ofNanos(System.nanoTime() - start), MODEL);
    }

    /** Prompt tokens as a Qwen2.5-VL-style model counts them: cl100k text tokens plus 28×28-patch image tokens. */
    long promptTokens(ChatRequest request) {
        long n = 0;
        for (ChatMessage m : request.messages()) {
            n += 4; // role and message separators of a chat template
            for (ChatMessage.Part part : m.parts()) {
                if (part instanceof ChatMessage.Text t) n += encoding.countTokens(dev.gamagent.backend.internal.TokenEstimator.wellFormed(t.text()));
                else if (part instanceof ChatMessage.Image img) {
                    n += ImageTokens.qwen(img.picture().width(), img.picture().height(), 3136, 12_845_056);
                }
            }
        }
        return n;
    }

    private List<Piece> reply(ParsedPrompt p, int k, ChatRequest request) {
        List<String> candidates = new ArrayList<>(p.options().values());
        QuestionReader.Reading reading = QuestionFamily.read(p.question(), candidates);
        List<String> letters = new ArrayList<>(p.options().keySet());
        QuestionFamily family = reading.family();
        if (p.task() == ParsedPrompt.Task.CRITIQUE) {
            List<ClaimChecker.Assessment> out = new ArrayList<>();
            for (ParsedPrompt.ClaimRef c : p.claims()) out.add(critic.assess(p, c, family, MAX_IMAGE_PIXELS));
            return ReplyWriter.critique(p, out);
        }
        List<Sight> sights = p.images().stream().map(perception::sight).toList();
        // A probe (DREAM's look at one scale) is a short answer: the role's own instruments, without its closer re-reading.
        boolean quick = p.task() == ParsedPrompt.Task.PROBE;
        Judgement own = reasoner.judge(family, sights, candidates, Expertise.of(p.role()), quick).unsure(reading.clarity(), reading.unread());
        switch (p.task()) {
            case REVISE -> {
                // Critics re-examined claims: revise from their evidence. Without critiques (a plain debate), pool the peers.
                if (p.multipleChoice() && !p.critiques().isEmpty()) return ReplyWriter.answer(p, revised(own, p, letters, k, request), true);
                DebatePool.Pooled pooled = DebatePool.pool(own.answer(), own.applicable(), p, letters, 0.15, 0.9);
                return ReplyWriter.answer(p, pooledAnswer(own, pooled, k, request, p), true);
            }
            case JUDGE -> {
                DebatePool.Pooled pooled = DebatePool.pool(own.answer(), own.applicable(), p, letters, 0.1, 0.6);
                return ReplyWriter.answer(judgeFormat(p), pooledAnswer(own, pooled, k, request, p), false);
            }
            case MODERATE -> {
                DebatePool.Pooled pooled = DebatePool.pool(own.answer(), own.applicable(), p, letters, 0.1, 0.6);
                ReplyWriter.Answer a = pooledAnswer(own, pooled, k, request, p);
                // Stop once the pooled answer is settled: P(stop) = σ((p_best − 0.75)/0.05), also requiring peer agreement.
                double settled = pooled.answer().bestProbability() * (0.5 + 0.5 * pooled.agreement());
                double pStop = FamilyReasoner.sigmoid((settled - 0.75) / 0.05);
                return ReplyWriter.moderate(p, a, Distribution.of(List.of("stop", "continue"), new double[]{pStop, 1 - pStop}));
            }
            case PROBE -> {
                int idx = pick(own.answer(), k, request, p);
                return ReplyWriter.answer(p, new ReplyWriter.Answer(own.answer(), idx, open(own, idx), own.findings(),
                        own.declared() && p.format() != ParsedPrompt.OutputFormat.LETTER, null), false);
            }
            default -> {
                int idx = pick(own.answer(), k, request, p);
                boolean declared = own.declared() && p.format() != ParsedPrompt.OutputFormat.LETTER
                        && p.format() != ParsedPrompt.OutputFormat.SHORT;
                // An abstaining role says why on a REASON line (it makes no claim for critics to examine); a role that
                // looked and found nothing says "cannot determine" where the format has room for it.
                return ReplyWriter.answer(p, new ReplyWriter.Answer(own.answer(), idx, open(own, idx), own.findings(), declared,
                        declared ? own.note() : null, undetermined(own, p)), true);
            }
        }
    }

    /** The expert's answer after the critics' re-examination (see {@link Revision}). */
    private ReplyWriter.Answer revised(Judgement own, ParsedPrompt p, List<String> letters, int k, ChatRequest request) {
        if (own.declared()) return new ReplyWriter.Answer(own.answer(), own.answer().bestIndex(), null, own.findings(), true, own.note());
        List<Revision.Evidence> evidence = Revision.evidence(p);
        Revision.Result r = Revision.revise(own.answer(), evidence);
        Distribution d = r.answer();
        int idx = pick(d, k, request, p);
        String ownBest = own.answer().best();
        StringBuilder why = new StringBuilder(String.format(java.util.Locale.ROOT, "own perception %s",
                own.applicable() ? String.format(java.util.Locale.ROOT, "favours %s (%.2f)", ownBest, own.answer().bestProbability()) : "has no evidence"));
        for (Revision.Evidence e : r.used()) {
            why.append(String.format(java.util.Locale.ROOT, "; %s found the claim for %s %s (P true %.2f)%s", e.critic(), e.claimed(),
                    e.verdict().toLowerCase(java.util.Locale.ROOT), e.truth(), e.corrected() == null ? "" : ", correction " + e.corrected()));
        }
        if (!d.best().equals(ownBest)) why.append("; the re-examined evidence moved the answer to ").append(d.best());
        List<Judgement.Finding> findings = own.findings();
        if (!d.best().equals(ownBest) || !own.applicable()) {
            Region where = own.findings().isEmpty() ? Region.FULL : own.findings().get(0).region();
            List<Piece> text = List.of(Piece.plain("Re-examined by the critics, the answer is \""), Piece.chosen("", d, idx), Piece.plain("\""));
            findings = List.of(new Judgement.Finding(text, d.p(idx), why.toString(), where));
        }
        return new ReplyWriter.Answer(d, idx, null, findings, false, why.toString(), !own.applicable() && r.used().isEmpty() && words(p));
    }

    /** Found nothing to answer from, in a format with room for words (a letter-only reply still gives a letter). */
    private static boolean undetermined(Judgement own, ParsedPrompt p) {
        return !own.applicable() && !own.declared() && p.multipleChoice() && words(p);
    }

    private static boolean words(ParsedPrompt p) {
        return p.format() == ParsedPrompt.OutputFormat.LINES || p.format() == ParsedPrompt.OutputFormat.JSON;
    }

    private ReplyWriter.Answer pooledAnswer(Judgement own, DebatePool.Pooled pooled, int k, ChatRequest request, ParsedPrompt p) {
        Distribution d = pooled.answer();
        int idx = pick(d, k, request, p);
        List<Piece> openPieces = d == own.answer() ? open(own, idx) : null;
        String reason = null;
        if (pooled.peersUsed() > 0 || !p.critiques().isEmpty()) {
            String ownBest = own.answer().best();
            reason = String.format(java.util.Locale.ROOT, "own perception %s (weight %.2f) pooled with %d weighted peer answers%s",
                    own.applicable() ? "favours " + ownBest : "has no evidence", pooled.selfWeight(), pooled.peersUsed(),
                    d.best().equals(ownBest) ? "" : "; the weighted evidence moved the answer to " + d.best());
        }
        boolean declared = own.declared() && pooled.peersUsed() == 0 && p.format() != ParsedPrompt.OutputFormat.LETTER;
        // Nothing of its own and no peer with an answer: still "cannot determine", not a letter from a uniform mixture.
        boolean undetermined = !declared && pooled.peersUsed() == 0 && undetermined(own, p);
        return new ReplyWriter.Answer(d, idx, openPieces, own.findings(), declared, reason, undetermined);
    }

    private static List<Piece> open(Judgement own, int idx) {
        return idx == own.answer().bestIndex() ? own.openAnswer() : null;
    }

    private static ParsedPrompt judgeFormat(ParsedPrompt p) {
        return p.format() == ParsedPrompt.OutputFormat.JSON ? p : ReplyWriter.withFormat(p, ParsedPrompt.OutputFormat.LINES);
    }

    /** The greedy answer for the first choice (or at temperature 0); a seeded sample for the others. */
    private static int pick(Distribution d, int k, ChatRequest request, ParsedPrompt p) {
        int i = draw(d, k, request, p);
        return ScoredText.OTHER.equals(d.values().get(i)) ? named(d) : i;
    }

    /** The most probable value that names an answer ("some other answer" is a placeholder, never said). */
    private static int named(Distribution d) {
        int best = -1;
        for (int i = 0; i < d.size(); i++) {
            if (!ScoredText.OTHER.equals(d.values().get(i)) && (best < 0 || d.p(i) > d.p(best))) best = i;
        }
        return best < 0 ? d.bestIndex() : best;
    }

    private static int draw(Distribution d, int k, ChatRequest request, ParsedPrompt p) {
        if (k == 0 || request.temperature() <= 0) {
            // A uniform distribution has no best value: the arbitrary pick is a hash of the prompt (same
            // prompt, same pick), so agents that know nothing do not all fall on option A together. An open
            // question has no options to spread over: its first value is the honest "cannot determine".
            if (p.multipleChoice() && d.bestProbability() - minimum(d) < 1e-12) return Math.floorMod((p.question() + "|" + p.role()).hashCode(), d.size());
            return d.bestIndex();
        }
        long seed = (request.seed() == null ? 0L : request.seed()) * 31 + sampleKey(request) * 17L + k;
        double t = Math.max(1e-3, request.temperature());
        double[] w = new double[d.size()];
        double s = 0;
        for (int i = 0; i < w.length; i++) { w[i] = Math.pow(d.p(i), 1 / t); s += w[i]; }
        double r = new java.util.SplittableRandom(seed).nextDouble() * s; // well mixed even for neighbouring seeds
        for (int i = 0; i < w.length; i++) { r -= w[i]; if (r <= 0) return i; }
        return w.length - 1;
    }

    /**
     * What a sample's seed depends on besides the request's seed and the choice index: the whole request (every
     * message's role and text, every image's size). Two different requests (two experts, one expert in two rounds, a
     * probe at two scales) draw independent samples, as from a real server; the same request draws the same ones.
     */
    private static int sampleKey(ChatRequest request) {
        int h = 1;
        for (ChatMessage m : request.messages()) {
            h = 31 * h + m.role().name().hashCode();
            for (ChatMessage.Part part : m.parts()) {
                if (part instanceof ChatMessage.Text t) h = 31 * h + t.text().hashCode();
                else if (part instanceof ChatMessage.Image im) h = 31 * (31 * h + im.picture().width()) + im.picture().height();
            }
        }
        return h;
    }

    private static double minimum(Distribution d) {
        double m = 1;
        for (double x : d.probabilities()) m = Math.min(m, x);
        return m;
    }

    @Override public void close() { perception.close(); }
}
