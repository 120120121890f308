package dev.gamagent.server;

import dev.gamagent.config.Config;
import dev.gamagent.config.internal.RemoteMedia;
import dev.gamagent.util.HostPolicy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How {@code gam serve} listens and what it accepts. Limits come from config section {@code server}
 * ({@code max_body_mb}, {@code max_image_megapixels}, {@code max_request_megapixels}, {@code max_in_flight},
 * {@code allowed_image_hosts}, {@code allowed_hosts}, {@code cors_origins}, {@code header_timeout_s},
 * {@code read_timeout_s}, {@code idle_timeout_s}, {@code decode_budget_megapixels}, {@code trace_db},
 * {@code trace_retention}, {@code trace_retention_days}, {@code max_queued}, {@code queue_timeout_s},
 * {@code image_fetch_timeout_s}, {@code image_fetches}, {@code image_fetches_per_host}, {@code request_memory_fraction},
 * {@code max_connections});
 * host, port and key from flags.
 *
 * @param apiKey            the bearer token clients must send, or null (only allowed on a loopback address)
 * @param allowedImageHosts hosts remote image URLs may come from; an entry starting with '.' matches subdomains
 * @param maxRequestPixels  the header pixels of all images of one request together
 * @param allowedHosts      names the {@code Host} header may carry (DNS-rebinding defence); empty = loopback
 *                          names on a keyless server, any name on a server with a key; "*" = any
 * @param corsOrigins       origins (e.g. {@code https://app.example}) whose pages may call the API; empty = none
 * @param headerTimeout     the longest a client may take to send a request's headers
 * @param bodyTimeout       the longest a client may take to send a request's body
 * @param idleTimeout       a connection without traffic for this long is closed
 * @param decodeBudgetPixels pixels decoded at once across requests (0 = what a quarter of the heap decodes)
 * @param traceDb           the trace database; null = {@link #defaultTraceDb} in the user's state directory
 * @param traceMaxAge       traces older than this are deleted; zero = kept until {@code traceRetention} pushes them out
 * @param maxQueued         questions that wait for a free slot (beyond {@code maxInFlight}) before 429
 * @param queueTimeout      the longest a question waits in the queue before 429
 * @param imageFetchTimeout the whole fetch of one remote image: connection, headers and body
 * @param imageFetches      remote images fetched at once across requests
 * @param imageFetchesPerHost remote images fetched at once from one host
 * @param requestMemoryFraction the share of the heap that requests may hold together: their bodies while read and parsed,
 *                          their images, the copies sent to the model and the pixels decoded ({@link MemoryBudget})
 * @param maxConnections    connections open at once; past three quarters of it, connections that have sent no whole
 *                          request for a second are closed, oldest first, to make room
 */
public record ServerSettings(String host, int port, String apiKey, long maxBodyBytes, long maxImagePixels,
                             int maxInFlight, List<String> allowedImageHosts, Path traceDb, int traceRetention,
                             long maxRequestPixels, List<String> allowedHosts, List<String> corsOrigins,
                             Duration headerTimeout, Duration bodyTimeout, Duration idleTimeout, long decodeBudgetPixels,
                             Duration traceMaxAge, int maxQueued, Duration queueTimeout, Duration imageFetchTimeout, int imageFetches,
                             int imageFetchesPerHost, double requestMemoryFraction, int maxConnections) {
    /** The limits' defaults: the {@code server} section of defaults.json (their one home; docs/configuration.md). */
    private static final Config DEFAULTS = Config.defaults();
    private static final long DEFAULT_MAX_BODY_BYTES = Math.round(DEFAULTS.number("server.max_body_mb") * 1024 * 1024);
    private static final long DEFAULT_MAX_IMAGE_PIXELS = Math.round(DEFAULTS.number("server.max_image_megapixels") * 1e6);
    private static final long DEFAULT_MAX_REQUEST_PIXELS = Math.round(DEFAULTS.number("server.max_request_megapixels") * 1e6);
    private static final int DEFAULT_MAX_IN_FLIGHT = DEFAULTS.integer("server.max_in_flight");
    private static final int DEFAULT_TRACE_RETENTION = DEFAULTS.integer("server.trace_retention");
    private static final Duration DEFAULT_TRACE_MAX_AGE = Duration.ofMillis(Math.round(DEFAULTS.number("server.trace_retention_days") * 86_400_000L));
    private static final int DEFAULT_MAX_QUEUED = DEFAULTS.integer("server.max_queued");
    private static final Duration DEFAULT_QUEUE_TIMEOUT = seconds(DEFAULTS, "server.queue_timeout_s");
    private static final Duration DEFAULT_IMAGE_FETCH_TIMEOUT = seconds(DEFAULTS, "server.image_fetch_timeout_s");
    private static final int DEFAULT_IMAGE_FETCHES = DEFAULTS.integer("server.image_fetches");
    private static final int DEFAULT_IMAGE_FETCHES_PER_HOST = DEFAULTS.integer("server.image_fetches_per_host");
    private static final Duration DEFAULT_HEADER_TIMEOUT = seconds(DEFAULTS, "server.header_timeout_s");
    private static final Duration DEFAULT_BODY_TIMEOUT = seconds(DEFAULTS, "server.read_timeout_s");
    private static final Duration DEFAULT_IDLE_TIMEOUT = seconds(DEFAULTS, "server.idle_timeout_s");
    private static final double DEFAULT_REQUEST_MEMORY_FRACTION = DEFAULTS.number("server.request_memory_fraction");
    private static final int DEFAULT_MAX_CONNECTIONS = DEFAULTS.integer("server.max_connections");
    /** The names a keyless server answers to by default: only this machine's. */
    public static final List<String> LOOPBACK_NAMES = List.of("localhost", "127.0.0.1", "[::1]", "::1");

    /** The settings before the hardening limits, with their defaults. */
    public ServerSettings(String host, int port, String apiKey, long maxBodyBytes, long maxImagePixels, int maxInFlight,
                          List<String> allowedImageHosts, Path traceDb, int traceRetention) {
        this(host, port, apiKey, maxBodyBytes, maxImagePixels, maxInFlight, allowedImageHosts, traceDb, traceRetention,
                0, List.of(), List.of(), null, null, null, 0, null, -1, null, null, 0, 0, 0, 0);
    }

    public ServerSettings {
        if (host == null || host.isBlank()) host = "127.0.0.1";
        if (apiKey != null && apiKey.isBlank()) apiKey = null;
        if (maxBodyBytes <= 0) maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
        if (maxImagePixels <= 0) maxImagePixels = DEFAULT_MAX_IMAGE_PIXELS;
        if (maxInFlight <= 0) maxInFlight = DEFAULT_MAX_IN_FLIGHT;
        allowedImageHosts = allowedImageHosts == null ? List.of()
                : allowedImageHosts.stream().map(h -> h.strip().toLowerCase(Locale.ROOT)).filter(h -> !h.isEmpty()).toList();
        if (traceDb == null) traceDb = defaultTraceDb(System.getenv(), System.getProperty("user.home"));
        if (traceRetention <= 0) traceRetention = DEFAULT_TRACE_RETENTION;
        if (maxRequestPixels <= 0) maxRequestPixels = DEFAULT_MAX_REQUEST_PIXELS;
        allowedHosts = lowerCase(allowedHosts);
        corsOrigins = corsOrigins == null ? List.of() : corsOrigins.stream().map(o -> stripSlash(o.strip().toLowerCase(Locale.ROOT)))
                .filter(o -> !o.isEmpty()).toList();
        if (headerTimeout == null || headerTimeout.isZero() || headerTimeout.isNegative()) headerTimeout = DEFAULT_HEADER_TIMEOUT;
        if (bodyTimeout == null || bodyTimeout.isZero() || bodyTimeout.isNegative()) bodyTimeout = DEFAULT_BODY_TIMEOUT;
        if (idleTimeout == null || idleTimeout.isZero() || idleTimeout.isNegative()) idleTimeout = DEFAULT_IDLE_TIMEOUT;
        // a quarter of the heap for images being decoded, beside the requests' share: no floor, so in a small heap a large
        // image decodes alone rather than past the heap
        if (decodeBudgetPixels <= 0) decodeBudgetPixels = dev.gamagent.image.DecodeBudget.pixelsFor(Runtime.getRuntime().maxMemory() / 4);
        if (traceMaxAge == null || traceMaxAge.isNegative()) traceMaxAge = DEFAULT_TRACE_MAX_AGE;
        if (maxQueued < 0) maxQueued = DEFAULT_MAX_QUEUED;
        if (queueTimeout == null || queueTimeout.isNegative()) queueTimeout = DEFAULT_QUEUE_TIMEOUT;
        if (imageFetchTimeout == null || imageFetchTimeout.isZero() || imageFetchTimeout.isNegative()) imageFetchTimeout = DEFAULT_IMAGE_FETCH_TIMEOUT;
        if (imageFetches <= 0) imageFetches = DEFAULT_IMAGE_FETCHES;
        if (imageFetchesPerHost <= 0) imageFetchesPerHost = DEFAULT_IMAGE_FETCHES_PER_HOST;
        if (!(requestMemoryFraction > 0 && requestMemoryFraction <= 1)) requestMemoryFraction = DEFAULT_REQUEST_MEMORY_FRACTION;
        if (maxConnections <= 0) maxConnections = DEFAULT_MAX_CONNECTIONS;
    }

    /** The bytes requests may hold together: {@link #requestMemoryFraction} of this JVM's heap. */
    public long requestMemoryBytes() { return Math.round(Runtime.getRuntime().maxMemory() * requestMemoryFraction); }

    /**
     * Where traces are kept by default: the user's own state directory ({@code $XDG_STATE_HOME/gam/serve}, else
     * {@code ~/.local/state/gam/serve}), never a directory other users share. A relative {@code XDG_STATE_HOME} is
     * ignored, as the XDG base directory specification says.
     */
    public static Path defaultTraceDb(java.util.Map<String, String> env, String userHome) {
        String xdg = env.get("XDG_STATE_HOME");
        Path state = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
                : Path.of(userHome == null || userHome.isBlank() ? "." : userHome, ".local", "state");
        return state.resolve("gam").resolve("serve").resolve("traces.db");
    }

    /** Whether the trace database is the default one, whose directory the server owns (and keeps private). */
    public boolean defaultTraceLocation(java.util.Map<String, String> env, String userHome) {
        return traceDb.toAbsolutePath().normalize().equals(defaultTraceDb(env, userHome).toAbsolutePath().normalize());
    }

    private static List<String> lowerCase(List<String> l) {
        return l == null ? List.of() : l.stream().map(h -> h.strip().toLowerCase(Locale.ROOT)).filter(h -> !h.isEmpty()).toList();
    }

    private static String stripSlash(String s) { return s.endsWith("/") ? s.substring(0, s.length() - 1) : s; }

    /** Settings for {@code host:port} with the limits from the {@code server} config section. */
    public static ServerSettings fromConfig(Config config, String host, int port, String apiKey, Path traceDb) {
        RemoteMedia media = RemoteMedia.from(config);
        String db = config.optionalString("server.trace_db").orElse(null);
        double memory = config.number("server.request_memory_fraction");
        if (!(memory > 0 && memory <= 1)) {
            throw new IllegalArgumentException("server.request_memory_fraction is the share of the heap requests may hold: above 0 and "
                    + "at most 1, got " + memory);
        }
        return new ServerSettings(host, port, apiKey,
                media.maxBytes(),
                Math.round(config.number("server.max_image_megapixels") * 1e6),
                config.integer("server.max_in_flight"), media.hosts().entries(),
                traceDb != null ? traceDb : db == null ? null : Path.of(db),
                config.integer("server.trace_retention"),
                Math.round(config.number("server.max_request_megapixels") * 1e6),
                list(config, "server.allowed_hosts"), list(config, "server.cors_origins"),
                seconds(config, "server.header_timeout_s"), seconds(config, "server.read_timeout_s"),
                seconds(config, "server.idle_timeout_s"),
                Math.round(config.number("server.decode_budget_megapixels") * 1e6),
                Duration.ofMillis(Math.round(config.number("server.trace_retention_days") * 86_400_000L)),
                config.integer("server.max_queued"), seconds(config, "server.queue_timeout_s"),
                media.fetchTimeout(),
                config.integer("server.image_fetches"),
                config.integer("server.image_fetches_per_host"),
                memory, config.integer("server.max_connections"));
    }

    private static List<String> list(Config config, String key) { return RemoteMedia.names(config, key); }

    private static Duration seconds(Config config, String key) {
        return Duration.ofMillis(Math.round(config.number(key) * 1000));
    }

    /**
     * Whether a request's {@code Host} header names this server, so a page on another site cannot reach
     * it through DNS rebinding. A missing Host (HTTP/1.0 clients, not browsers) is allowed.
     */
    public boolean hostAllowed(String hostHeader) {
        if (hostHeader == null || hostHeader.isBlank()) return true;
        String h = hostHeader.strip().toLowerCase(Locale.ROOT);
        // drop the port: "[::1]:8080" → "[::1]", "localhost:8080" → "localhost"
        if (h.startsWith("[")) {
            int close = h.indexOf(']');
            if (close > 0) h = h.substring(0, close + 1);
        } else if (h.indexOf(':') == h.lastIndexOf(':') && h.indexOf(':') > 0) {
            h = h.substring(0, h.indexOf(':'));
        }
        List<String> allowed = allowedHosts;
        if (allowed.isEmpty()) {
            if (apiKey != null) return true; // a browser page cannot send the key, so rebinding gains nothing
            allowed = new ArrayList<>(LOOPBACK_NAMES);
            allowed.add(host.toLowerCase(Locale.ROOT));
        }
        return allowed.contains("*") || new HostPolicy(allowed).allows(h);
    }

    /** The names {@link #hostAllowed} accepts, for the refusal message. */
    public String allowedHostsText() {
        if (!allowedHosts.isEmpty()) return String.join(", ", allowedHosts);
        return apiKey != null ? "any" : String.join(", ", LOOPBACK_NAMES.subList(0, 3));
    }

    /** Whether pages from {@code origin} may call the API (CORS); never for "null" unless listed. */
    public boolean corsAllowed(String origin) {
        if (origin == null) return false;
        String o = stripSlash(origin.strip().toLowerCase(Locale.ROOT));
        return corsOrigins.contains("*") && !o.equals("null") || corsOrigins.contains(o);
    }

    /** True when {@code host} names only this machine, so no one else can connect. */
    public boolean loopbackOnly() {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Refuses settings that would expose the server without a key. */
    public void check() {
        if (!loopbackOnly() && apiKey == null) {
            throw new IllegalStateException("binding to " + host + " makes the server reachable from other machines; "
                    + "it needs an API key: put one in an environment variable and pass --server-key-env VAR");
        }
    }

    /** Whether remote images may come from {@code urlHost} ({@link HostPolicy}: exact names, '.'-entries with their subdomains). */
    public boolean imageHostAllowed(String urlHost) { return new HostPolicy(allowedImageHosts).allows(urlHost); }

    @Override public String toString() {
        // Never print the key itself.
        return "ServerSettings[" + host + ":" + port + ", key=" + (apiKey == null ? "none" : "set") + ", maxBody=" + maxBodyBytes
                + ", maxImagePixels=" + maxImagePixels + ", maxInFlight=" + maxInFlight + ", allowedImageHosts=" + allowedImageHosts
                + ", traceDb=" + traceDb + ", retention=" + traceRetention + ", maxAge=" + traceMaxAge + ", maxRequestPixels=" + maxRequestPixels
                + ", allowedHosts=" + allowedHosts + ", corsOrigins=" + corsOrigins + ", headerTimeout=" + headerTimeout
                + ", bodyTimeout=" + bodyTimeout + ", idleTimeout=" + idleTimeout + ", maxQueued=" + maxQueued + ", queueTimeout=" + queueTimeout
                + ", imageFetchTimeout=" + imageFetchTimeout + ", imageFetches=" + imageFetches + "/" + imageFetchesPerHost + " per host"
                + ", requestMemoryFraction=" + requestMemoryFraction + ", maxConnections=" + maxConnections + "]";
    }
}
