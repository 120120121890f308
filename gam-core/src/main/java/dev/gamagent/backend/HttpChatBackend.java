package dev.gamagent.backend;

import dev.gamagent.backend.internal.HttpTransport;
import dev.gamagent.backend.internal.WireAnswer;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.lang.System.Logger.Level.INFO;
import static java.lang.System.Logger.Level.WARNING;
import dev.gamagent.backend.internal.EndpointSettings;
import dev.gamagent.backend.internal.SecretScrubber;
import dev.gamagent.backend.internal.TokenEstimator;

/**
 * The shared template of the HTTP backends: cap the request to what this endpoint accepts, send it,
 * and when the server refuses log-probs (a 400 naming them) lower top-k or drop log-probs, retry once
 * and remember that for this endpoint. Subclasses only map requests and responses to their wire format.
 */
abstract class HttpChatBackend implements Backend {
    private static final System.Logger LOG = System.getLogger(HttpChatBackend.class.getName());
    private static final Pattern MAX_TOP = Pattern.compile(
            "(?:max(?:imum)?(?:\\s+allowed)?(?:\\s+value)?(?:\\s+(?:is|of))?\\s*[:=]?\\s*|<=\\s*)(\\d{1,3})", Pattern.CASE_INSENSITIVE);

    protected final String kind;
    protected final EndpointSettings settings;
    protected final HttpTransport transport;
    protected final TokenEstimator estimator;
    private final SecretScrubber scrubber;
    private volatile String model;
    private volatile boolean logprobsRejected;
    /** The server accepted log-probs but answered without them (switched off, or not implemented). */
    private volatile boolean logprobsAbsent;
    private volatile int topCap;

    HttpChatBackend(String kind, EndpointSettings settings) {
        this.kind = kind;
        this.settings = settings;
        // its own key, and any key written into its URL (user info, ?key=): what this server could echo back
        List<String> secrets = new ArrayList<>(SecretScrubber.urlSecrets(settings.baseUrl()));
        if (settings.apiKey() != null) secrets.add(settings.apiKey());
        this.scrubber = new SecretScrubber(secrets);
        this.transport = new HttpTransport(settings.timeout(), scrubber, settings.maxReplyBytes());
        this.estimator = new TokenEstimator(settings.imageTokenFamily());
        this.model = settings.model();
        this.topCap = settings.maxTopLogprobs();
    }

    /** Ends the connections to the server (further calls fail). */
    @Override public void close() { transport.close(); }

    /** The endpoint's base URL for messages and logs (no key: without user info and query). */
    public String endpoint() {
        try {
            return HttpTransport.redact(URI.create(settings.baseUrl()));
        } catch (IllegalArgumentException e) {
            return settings.baseUrl().replaceAll("[?#].*", "");
        }
    }

    @Override public String name() {
        String m = model;
        return kind + ":" + (m == null ? "auto" : m);
    }

    /** What the wire format can give when the server cooperates. */
    protected abstract Capabilities wireCapabilities();

    @Override public Capabilities capabilities() {
        Capabilities c = wireCapabilities();
        if (!c.logprobs()) return c;
        return logprobsRejected || logprobsAbsent ? c.withLogprobs(false, 0) : c.withLogprobs(true, Math.min(c.maxTopLogprobs(), topCap));
    }

    /** Sends one request already capped to this endpoint's limits; returns what the server said. */
    protected abstract WireAnswer send(ChatRequest request, String model);

    /** Reads one answer of this wire format from its JSON body (the raw text is for error messages). */
    abstract WireAnswer parse(com.fasterxml.jackson.databind.JsonNode body, String raw);

    /** Asks the server which model it serves, for when none was configured; null = not supported. */
    protected String discoverModel() { return null; }

    /** A subclass hook for other one-off request adaptations after a 400 (e.g. max_completion_tokens). */
    protected boolean adaptAfter(ChatRequest request, BackendException.InvalidRequest e) { return false; }

    @Override public final ChatResult chat(ChatRequest request) {
        long t0 = System.nanoTime();
        String m = resolveModel();
        ChatRequest effective = capped(request);
        for (int attempt = 0; ; attempt++) {
            try {
                // the body was scrubbed as text before parsing; tokens may still spell the key across their boundaries
                WireAnswer a = send(effective, m).scrubbed(scrubber);
                noteMissingLogprobs(effective, a);
                Usage usage = estimator.usage(request, a.choices(), a.promptTokens(), a.completionTokens(), a.cachedPromptTokens());
                return new ChatResult(a.choices(), usage, Duration.ofNanos(System.nanoTime() - t0), a.model() == null ? m : a.model());
            } catch (BackendException.InvalidRequest e) {
                if (attempt >= 3) throw e;
                ChatRequest next = afterLogprobRefusal(effective, e);
                if (next != null) { effective = next; continue; }
                if (adaptAfter(effective, e)) continue;
                throw e;
            }
        }
    }

    /**
     * A reply with text but no log-probs to a request that asked for them: the server does not give them, so
     * {@link #capabilities()} says so from now on (methods then pick their fallback before the call).
     */
    private void noteMissingLogprobs(ChatRequest asked, WireAnswer a) {
        if (logprobsAbsent || !asked.logprobs() || a.choices().isEmpty()) return;
        boolean text = false;
        for (Choice c : a.choices()) {
            if (c.hasLogprobs()) return;
            text |= !c.text().isBlank();
        }
        if (!text) return;
        logprobsAbsent = true;
        LOG.log(INFO, () -> endpoint() + " answered without log-probs although asked; treating it as a server without log-probs");
    }

    private ChatRequest capped(ChatRequest r) {
        if (!r.logprobs()) return r;
        if (logprobsRejected || !wireCapabilities().logprobs()) return r.withLogprobs(false, 0);
        return r.topLogprobs() > topCap ? r.withLogprobs(true, topCap) : r;
    }

    /** The request to retry with after a 400 about log-probs, or null when the 400 was about something else. */
    private ChatRequest afterLogprobRefusal(ChatRequest r, BackendException.InvalidRequest e) {
        if (!r.logprobs() || e.status() != 400 && e.status() != 422) return null;
        String body = e.body() == null ? "" : e.body();
        if (!body.toLowerCase(Locale.ROOT).contains("logprob")) return null;
        Matcher mt = MAX_TOP.matcher(body);
        if (r.topLogprobs() > 0 && mt.find()) {
            int max = Integer.parseInt(mt.group(1));
            if (max < r.topLogprobs()) {
                topCap = max;
                LOG.log(WARNING, endpoint() + " accepts at most " + max + " top log-probs; asking for " + max + " from now on");
                return r.withLogprobs(true, max);
            }
        }
        logprobsRejected = true;
        LOG.log(WARNING, () -> endpoint() + " refuses log-probs (" + HttpTransport.abbreviate(body)
                + "); retrying without them and using semantic uncertainty for this endpoint");
        return r.withLogprobs(false, 0);
    }

    private String resolveModel() {
        String m = model;
        if (m != null) return m;
        synchronized (this) {
            if (model == null) {
                String found = discoverModel();
                if (found == null || found.isBlank()) {
                    throw new BackendException.InvalidRequest("no --model given and " + endpoint()
                            + " did not name a model it serves; pass --model", 0, "");
                }
                LOG.log(INFO, endpoint() + " serves model '" + found + "'; using it");
                model = found;
            }
            return model;
        }
    }

    protected URI uri(String path) {
        return URI.create(settings.baseUrl() + path);
    }

    /** For wire formats without {@code n}: n sequential calls (seed + i so samples differ), usage summed. */
    protected WireAnswer repeated(ChatRequest r, String m, java.util.function.BiFunction<ChatRequest, String, WireAnswer> one) {
        if (r.n() <= 1) return one.apply(r, m);
        List<Choice> choices = new ArrayList<>();
        Long p = 0L, c = 0L, cached = 0L;
        String served = null;
        for (int i = 0; i < r.n(); i++) {
            ChatRequest single = r.withSampling(r.temperature(), r.maxTokens(), 1, r.seed() == null ? null : r.seed() + i);
            WireAnswer a = one.apply(single, m);
            choices.addAll(a.choices());
            p = p == null || a.promptTokens() == null ? null : p + a.promptTokens();
            c = c == null || a.completionTokens() == null ? null : c + a.completionTokens();
            cached = cached == null || a.cachedPromptTokens() == null ? null : cached + a.cachedPromptTokens();
            served = a.model();
        }
        return new WireAnswer(choices, p, c, cached, served);
    }

    protected static Map<String, String> headers(String... kv) {
        java.util.LinkedHashMap<String, String> h = new java.util.LinkedHashMap<>();
        for (int i = 0; i + 1 < kv.length; i += 2) if (kv[i + 1] != null) h.put(kv[i], kv[i + 1]);
        return h;
    }

    protected BackendException.MalformedResponse malformed(String what, String raw) {
        return new BackendException.MalformedResponse(endpoint() + " answered 200 but " + what + ": "
                + HttpTransport.abbreviate(raw), null);
    }

    @Override public String toString() { return name() + "@" + endpoint(); }
}
