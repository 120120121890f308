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
import dev.gamagent.image.internal.ImageTokens;
import dev.gamagent.image.Picture;
import dev.gamagent.image.Region;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The built-in local perception model as a backend (docs/design.md §8): it reads the prompt (PromptReader),
 * perceives the images at the size it was given (OCR + classical vision, cached per image and look), answers
 * the benchmark's question families from the perception's own scores, and reports per-token log-probs derived
 * from those distributions. It never knows which method calls it: what it sees and answers depends on the
 * request alone (its text, images, temperature and seed), and the same request always gets the same reply.
 * At temperature 0 a call is one greedy pass with the role's own instruments. Above 0, each choice draws its
 * look (instruments, scale, thresholds; {@link Look}) and then its answer from the answer's distribution
 * sharpened by the temperature, seeded by the whole request and the choice's index, so the n choices of one
 * request, and two requests that differ, are independent samples. Shown other answers (peers, critiques), it
 * looks again and weighs them against its own evidence ({@link Deliberation}); {@link Calibration} sets how.
 */
public final class LocalBackend implements Backend {
    public static final String NAME = "local:gam-perception";
    public static final String MODEL = "gam-perception";
    public static final int MAX_TOP_LOGPROBS = 20;

    /** Random streams of one choice: its look, its answer, its second look. */
    private static final int LOOK = 0, ANSWER = 1, RELOOK = 2;

    private final LocalPerception perception;
    private final Calibration calibration;
    private final FamilyReasoner reasoner = new FamilyReasoner();
    private final Critic critic;
    private final Encoding encoding = ScoredText.CL100K;
    /** How its usage counts an image's tokens: the processor of the family in {@code image.tokens} (default Qwen2.5-VL's). */
    private final ImageTokens.Rule imageTokens;

    public LocalBackend(LocalPerception perception) { this(perception, Calibration.DEFAULT); }

    /** The backend with another behaviour under sampling and debate (measurements of the calibration itself). */
    public LocalBackend(LocalPerception perception, Calibration calibration) {
        this(perception, calibration, ImageTokens.rule(Config.defaults().string("image.tokens")));
    }

    private LocalBackend(LocalPerception perception, Calibration calibration, ImageTokens.Rule imageTokens) {
        this.perception = perception;
        this.calibration = calibration;
        this.critic = new Critic(perception, reasoner);
        this.imageTokens = imageTokens;
    }

    /**
     * The backend over the real OCR and vision engines (see {@link LocalPerception#standard}). A bad {@code image.tokens}
     * is refused before the engines load (loading them and then throwing left them open).
     */
    public static LocalBackend create(Config config) {
        ImageTokens.Rule imageTokens = ImageTokens.rule(config.string("image.tokens"));
        return new LocalBackend(LocalPerception.standard(config), Calibration.DEFAULT, imageTokens);
    }

    /** As {@link #create(Config)}, over engines already loaded (tests share one set per JVM: loading them costs CPU). */
    static LocalBackend create(Config config, LocalPerception perception) {
        return new LocalBackend(perception, Calibration.DEFAULT, ImageTokens.rule(config.string("image.tokens")));
    }

    @Override public String name() { return NAME; }

    @Override public Capabilities capabilities() {
        return new Capabilities(true, true, MAX_TOP_LOGPROBS, true, true, LocalPerception.MAX_IMAGE_PIXELS);
    }

    public LocalPerception perception() { return perception; }

    public Calibration calibration() { return calibration; }

    /**
     * Looks at a benchmark's pictures before a run (see {@link LocalPerception#lookAt}): the backends made from this
     * one by {@link #withOwnCaches} then share that default look instead of each computing it.
     */
    public void lookAt(Picture picture) { perception.lookAt(picture); }

    /** The same engines with a perception cache of its own (one per method in an evaluation). */
    @Override public Backend withOwnCaches() { return new LocalBackend(perception.withOwnCache(), calibration, imageTokens); }

    @Override public ChatResult chat(ChatRequest request) throws BackendException {
        long start = System.nanoTime();
        ParsedPrompt p = PromptReader.read(request);
        for (Picture pic : p.images()) {
            if (pic.pixels() > LocalPerception.MAX_IMAGE_PIXELS) {
                throw new BackendException.InvalidRequest("image " + pic + " has " + pic.pixels() + " pixels; "
                        + NAME + " accepts at most " + LocalPerception.MAX_IMAGE_PIXELS + " (scale it down first)", 400, null);
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

    /**
     * Prompt tokens as a served VLM counts them: cl100k text tokens plus each image's tokens by the processor rule of
     * {@code image.tokens} (Qwen2.5-VL's 28×28 patches within its pixel budget by default; {@link ImageTokens}).
     */
    long promptTokens(ChatRequest request) {
        long n = 0;
        for (ChatMessage m : request.messages()) {
            n += 4; // role and message separators of a chat template
            for (ChatMessage.Part part : m.parts()) {
                if (part instanceof ChatMessage.Text t) n += encoding.countTokens(dev.gamagent.backend.internal.TokenEstimator.wellFormed(t.text()));
                else if (part instanceof ChatMessage.Image img) {
                    n += imageTokens.tokens(img.picture().width(), img.picture().height());
                }
            }
        }
        return n;
    }

    private List<Piece> reply(ParsedPrompt p, int k, ChatRequest request) {
        List<String> candidates = new ArrayList<>(p.options().values());
        QuestionReader.Reading reading = QuestionReader.read(p.question(), candidates);
        List<String> letters = new ArrayList<>(p.options().keySet());
        QuestionFamily family = reading.family();
        if (p.task() == ParsedPrompt.Task.CRITIQUE) {
            List<Assessment> out = new ArrayList<>();
            java.util.Map<Integer, Integer> zooms = Critic.zooms(request, p.images().size());
            for (ParsedPrompt.ClaimRef c : p.claims()) out.add(critic.assess(p, c, family, zooms));
            return ReplyWriter.critique(p, out);
        }
        Expertise expertise = Expertise.of(p.role());
        // Greedy: the role's reading (the plain call pools every instrument). Sampled: each choice draws its look, then its answer.
        Look look = request.temperature() > 0 ? Look.draw(expertise, random(request, k, LOOK), calibration) : Look.of(expertise, calibration);
        Judgement own = judge(family, p.images(), candidates, expertise, look, null, p).unsure(reading.clarity(), reading.unread());
        Pick pick = new Pick(request, k, p);
        switch (p.task()) {
            case JUDGE -> {
                DebatePool.Pooled pooled = DebatePool.pool(own.answer(), own.applicable(), p, letters, 0.1, 0.6);
                return ReplyWriter.answer(judgeFormat(p), pooledAnswer(own, pooled, pick, p), false);
            }
            case MODERATE -> {
                DebatePool.Pooled pooled = DebatePool.pool(own.answer(), own.applicable(), p, letters, 0.1, 0.6);
                ReplyWriter.Answer a = pooledAnswer(own, pooled, pick, p);
                // Stop once the pooled answer is settled: P(stop) = σ((p_best − 0.75)/0.05), also requiring peer agreement.
                double settled = pooled.answer().bestProbability() * (0.5 + 0.5 * pooled.agreement());
                double pStop = Scores.sigmoid((settled - 0.75) / 0.05);
                return ReplyWriter.moderate(p, a, Distribution.of(List.of("stop", "continue"), new double[]{pStop, 1 - pStop}));
            }
            case PROBE -> {
                int idx = pick.index(own.answer());
                return ReplyWriter.answer(p, new ReplyWriter.Answer(own.answer(), idx, open(own, idx), said(own, idx, p),
                        own.declared() && p.format() != ParsedPrompt.OutputFormat.LETTER, null), false);
            }
            default -> {
                List<Deliberation.Voice> voices = Deliberation.voices(p);
                List<Revision.Evidence> critiques = p.multipleChoice() ? Revision.evidence(p) : List.of();
                // Shown other answers (peers, critiques), the agent weighs them against its own evidence.
                if (!voices.isEmpty() || !critiques.isEmpty()) {
                    return ReplyWriter.answer(p, deliberated(own, voices, critiques, family, candidates, expertise, pick, request, p), true);
                }
                int idx = pick.index(own.answer());
                boolean declared = own.declared() && p.format() != ParsedPrompt.OutputFormat.LETTER
                        && p.format() != ParsedPrompt.OutputFormat.SHORT;
                // An abstaining role says why on a REASON line (it makes no claim for critics to examine); a role that
                // looked and found nothing says "cannot determine" where the format has room for it.
                return ReplyWriter.answer(p, new ReplyWriter.Answer(own.answer(), idx, open(own, idx), said(own, idx, p), declared,
                        declared ? own.note() : null, undetermined(own, p)), true);
            }
        }
    }

    /**
     * The judgement of {@code pictures} seen with {@code look} (each picture at the look's scale, never above its size as
     * sent; perceived once per image and instrument), attending to {@code attend} when given. A role may decline (NOT
     * APPLICABLE) only where the reply's format has room for it.
     */
    private Judgement judge(QuestionFamily family, List<Picture> pictures, List<String> candidates, Expertise e, Look look,
                            Region attend, ParsedPrompt p) {
        List<Sight> sights = pictures.stream().map(pic -> perception.sight(pic, look.scale())).toList();
        return reasoner.judge(family, sights, candidates, e, look, attend, canDecline(p));
    }

    /** Whether the reply's format has room to declare NOT APPLICABLE (a bare letter or a short answer has none). */
    private static boolean canDecline(ParsedPrompt p) {
        return p.format() != ParsedPrompt.OutputFormat.LETTER && p.format() != ParsedPrompt.OutputFormat.SHORT;
    }

    /**
     * The agent's answer when it is shown other answers ({@link Deliberation}): when they disagree with its own, it
     * looks again (a look drawn for this request, so a debate at temperature 0 looks again too; attending to the region a
     * disagreeing peer names when the answer rests on one object or text, the image as sent), mixes that second look
     * into its own evidence, and weighs the whole against the peers and critiques. A role that declared itself not
     * applicable stays so.
     */
    private ReplyWriter.Answer deliberated(Judgement own, List<Deliberation.Voice> voices, List<Revision.Evidence> critiques,
                                           QuestionFamily family, List<String> candidates, Expertise e, Pick pick,
                                           ChatRequest request, ParsedPrompt p) {
        if (own.declared()) {
            return new ReplyWriter.Answer(own.answer(), own.answer().bestIndex(), null, List.of(),
                    p.format() != ParsedPrompt.OutputFormat.LETTER, own.note());
        }
        String ownBest = own.answer().best();
        Distribution evidence = own.answer();
        StringBuilder why = new StringBuilder(own.applicable()
                ? String.format(Locale.ROOT, "own look favours %s (%.2f)", ownBest, own.answer().bestProbability())
                : "own look found nothing to answer from");
        if (Deliberation.disputes(ownBest, voices, critiques) && !p.images().isEmpty()) {
            Look second = Look.draw(e, random(request, pick.k(), RELOOK), calibration);
            Region where = local(family) ? voices.stream().filter(v -> !v.answer().equalsIgnoreCase(ownBest) && v.region() != null)
                    .map(Deliberation.Voice::region).findFirst().orElse(null) : null;
            Judgement again = where == null ? judge(family, p.images(), candidates, e, second, null, p)
                    : judge(family, List.of(p.images().get(0)), candidates, e, second, Critic.atLeast(where.expand(0.15), p.images().get(0), 24), p);
            if (again.applicable() && again.answer().values().equals(evidence.values())) {
                double w = own.applicable() ? calibration.relookWeight() : 1.0;
                evidence = Distribution.mixture(List.of(evidence, again.answer()), new double[]{1 - w, w});
                why.append(String.format(Locale.ROOT, "; looking again (%s%s) favours %s (%.2f)", second,
                        where == null ? "" : ", at " + ReplyWriter.region(where), again.answer().best(), again.answer().bestProbability()));
            } else {
                why.append("; looking again found nothing more");
            }
        }
        Distribution d = Deliberation.weigh(evidence, voices, critiques, calibration.peerTrust(), calibration.selfTrust());
        for (Deliberation.Voice v : voices) {
            why.append(String.format(Locale.ROOT, v.id().equals(Deliberation.PREVIOUS) ? "; before, I answered %2$s (sure %3$.2f)"
                    : "; %s answered %s (sure %.2f)", v.id(), v.answer(), v.confidence()));
        }
        for (Revision.Evidence c : critiques) {
            why.append(String.format(Locale.ROOT, "; %s found the claim for %s %s (P true %.2f)%s", c.critic(), c.claimed(),
                    c.verdict().toLowerCase(Locale.ROOT), c.truth(), c.corrected() == null ? "" : ", correction " + c.corrected()));
        }
        int idx = pick.index(d);
        String chosen = d.values().get(idx);
        if (!chosen.equals(ownBest)) why.append("; weighed together, the answer is ").append(chosen);
        List<Judgement.Finding> findings = own.findings();
        List<Piece> openPieces = null;
        if (!chosen.equals(ownBest) || !own.applicable()) {
            Region at = own.findings().isEmpty() ? Region.FULL : own.findings().get(0).region();
            List<Piece> text = List.of(Piece.plain("Weighing what I see against the other answers, the answer is \""),
                    Piece.chosen("", d, idx), Piece.plain("\""));
            findings = List.of(new Judgement.Finding(text, d.p(idx), why.toString(), at));
        } else if (d.values().equals(own.answer().values())) {
            openPieces = open(own, idx);
        }
        boolean undetermined = !own.applicable() && voices.isEmpty() && critiques.stream().noneMatch(c -> c.truth() >= 0.5) && words(p);
        return new ReplyWriter.Answer(d, idx, openPieces, findings, false, why.toString(), undetermined);
    }

    /** Families whose answer rests on one object or one text, so a look at the region a peer names is a look at the answer. */
    private static boolean local(QuestionFamily f) {
        return f instanceof QuestionFamily.Text || f instanceof QuestionFamily.Color || f instanceof QuestionFamily.Shape;
    }

    /** What the reply says it found: the findings, or, for a sampled option other than the best, that option. */
    private static List<Judgement.Finding> said(Judgement own, int idx, ParsedPrompt p) {
        Distribution d = own.answer();
        if (idx == d.bestIndex() || !p.multipleChoice() || own.findings().isEmpty()) return own.findings();
        Judgement.Finding f = own.findings().get(0);
        List<Piece> text = List.of(Piece.plain("The answer is \""), Piece.chosen("", d, idx), Piece.plain("\""));
        return List.of(new Judgement.Finding(text, d.p(idx), f.evidence(), f.region()));
    }

    /** Found nothing to answer from, in a format with room for words (a letter-only reply still gives a letter). */
    private static boolean undetermined(Judgement own, ParsedPrompt p) {
        return !own.applicable() && !own.declared() && p.multipleChoice() && words(p);
    }

    private static boolean words(ParsedPrompt p) {
        return p.format() == ParsedPrompt.OutputFormat.LINES || p.format() == ParsedPrompt.OutputFormat.JSON;
    }

    private ReplyWriter.Answer pooledAnswer(Judgement own, DebatePool.Pooled pooled, Pick pick, ParsedPrompt p) {
        Distribution d = pooled.answer();
        int idx = pick.index(d);
        List<Piece> openPieces = d == own.answer() ? open(own, idx) : null;
        String reason = null;
        if (pooled.peersUsed() > 0 || !p.critiques().isEmpty()) {
            String ownBest = own.answer().best();
            reason = String.format(Locale.ROOT, "own look %s (weight %.2f) pooled with %d weighted peer answers%s",
                    own.applicable() ? "favours " + ownBest : "found nothing to answer from", pooled.selfWeight(), pooled.peersUsed(),
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

    /**
     * How choice {@code k} of a request picks a value of a distribution: at temperature 0, the most probable one
     * (a uniform distribution has none: its pick is a hash of the question and role, the same prompt always making
     * the same pick, so agents that know nothing do not all fall on option A together); above 0, a draw from the
     * distribution sharpened by the temperature (p^(1/T), renormalised). "Some other answer" is never said.
     */
    private record Pick(ChatRequest request, int k, ParsedPrompt p) {
        int index(Distribution d) {
            int i = draw(d);
            return ScoredText.OTHER.equals(d.values().get(i)) ? named(d) : i;
        }

        private int draw(Distribution d) {
            if (request.temperature() <= 0) {
                if (p.multipleChoice() && d.bestProbability() - minimum(d) < 1e-12) return Math.floorMod((p.question() + "|" + p.role()).hashCode(), d.size());
                return d.bestIndex();
            }
            double t = Math.max(1e-3, request.temperature());
            double[] w = new double[d.size()];
            double s = 0;
            for (int i = 0; i < w.length; i++) { w[i] = Math.pow(d.p(i), 1 / t); s += w[i]; }
            double r = random(request, k, ANSWER).nextDouble() * s;
            for (int i = 0; i < w.length; i++) { r -= w[i]; if (r <= 0) return i; }
            return w.length - 1;
        }
    }

    /** The most probable value that names an answer ("some other answer" is a placeholder, never said). */
    private static int named(Distribution d) {
        int best = -1;
        for (int i = 0; i < d.size(); i++) {
            if (!ScoredText.OTHER.equals(d.values().get(i)) && (best < 0 || d.p(i) > d.p(best))) best = i;
        }
        return best < 0 ? d.bestIndex() : best;
    }

    /**
     * The random stream {@code stream} of choice {@code k}: seeded by the request's seed, the whole request (every
     * message's role and text, every image's size) and the choice's index. Two different requests (two agents, one
     * agent in two rounds, a probe at two scales) draw independently, as from a real server; the same request
     * draws the same.
     */
    static SplittableRandom random(ChatRequest request, int k, int stream) {
        long seed = (request.seed() == null ? 0L : request.seed()) * 31 + sampleKey(request) * 17L + k;
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + stream); // well mixed even for neighbouring seeds
    }

    private static int sampleKey(ChatRequest request) {
        // A conversation that sent its images once, in an earlier turn (requests.conversation_images = first), draws as the
        // same conversation with them in its latest user turn: the layout does not change the answer.
        List<ChatMessage> ms = request.messages();
        int last = -1, carrier = -1;
        for (int i = 0; i < ms.size(); i++) if (ms.get(i).role() == ChatMessage.Role.USER) last = i;
        if (last >= 0 && ms.get(last).images().isEmpty()) {
            for (int i = last - 1; i >= 0 && carrier < 0; i--) if (ms.get(i).role() == ChatMessage.Role.USER && !ms.get(i).images().isEmpty()) carrier = i;
        }
        int h = 1;
        for (int i = 0; i < ms.size(); i++) {
            ChatMessage m = ms.get(i);
            h = 31 * h + m.role().name().hashCode();
            if (i == last && carrier >= 0) for (Picture p : ms.get(carrier).images()) h = 31 * (31 * h + p.width()) + p.height();
            for (ChatMessage.Part part : m.parts()) {
                if (part instanceof ChatMessage.Text t) h = 31 * h + t.text().hashCode();
                else if (part instanceof ChatMessage.Image im && i != carrier) h = 31 * (31 * h + im.picture().width()) + im.picture().height();
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
