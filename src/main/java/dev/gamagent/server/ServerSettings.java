package dev.gamagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How {@code gam serve} listens and what it accepts. Limits come from config section {@code server}
 * ({@code max_body_mb}, {@code max_image_megapixels}, {@code max_in_flight}, {@code allowed_image_hosts},
 * {@code trace_db}, {@code trace_retention}); host, port and key from flags.
 *
 * @param apiKey           the bearer token clients must send, or null (only allowed on a loopback address)
 * @param allowedImageHosts hosts remote image URLs may come from; an entry starting with '.' matches subdomains
 */
public record ServerSettings(String host, int port, String apiKey, long maxBodyBytes, long maxImagePixels,
                             int maxInFlight, List<String> allowedImageHosts, Path traceDb, int traceRetention) {
    public static final long DEFAULT_MAX_BODY_BYTES = 20L * 1024 * 1024;
    public static final long DEFAULT_MAX_IMAGE_PIXELS = 40_000_000L;
    public static final int DEFAULT_MAX_IN_FLIGHT = 4;
    public static final int DEFAULT_TRACE_RETENTION = 1000;

    public ServerSettings {
        if (host == null || host.isBlank()) host = "127.0.0.1";
        if (apiKey != null && apiKey.isBlank()) apiKey = null;
        if (maxBodyBytes <= 0) maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
        if (maxImagePixels <= 0) maxImagePixels = DEFAULT_MAX_IMAGE_PIXELS;
        if (maxInFlight <= 0) maxInFlight = DEFAULT_MAX_IN_FLIGHT;
        allowedImageHosts = allowedImageHosts == null ? List.of()
                : allowedImageHosts.stream().map(h -> h.strip().toLowerCase(Locale.ROOT)).filter(h -> !h.isEmpty()).toList();
        if (traceDb == null) traceDb = Path.of(System.getProperty("java.io.tmpdir"), "gam-serve", "traces.db");
        if (traceRetention <= 0) traceRetention = DEFAULT_TRACE_RETENTION;
    }

    /** Settings for {@code host:port} with the limits from the {@code server} config section. */
    public static ServerSettings fromConfig(Config config, String host, int port, String apiKey, Path traceDb) {
        List<String> hosts = new ArrayList<>();
        JsonNode h = config.node("server.allowed_image_hosts");
        if (h.isArray()) h.forEach(n -> hosts.add(n.asText()));
        else if (h.isTextual()) hosts.addAll(List.of(h.asText().split(",")));
        String db = config.string("server.trace_db", null);
        return new ServerSettings(host, port, apiKey,
                Math.round(config.number("server.max_body_mb", DEFAULT_MAX_BODY_BYTES / (1024.0 * 1024)) * 1024 * 1024),
                Math.round(config.number("server.max_image_megapixels", DEFAULT_MAX_IMAGE_PIXELS / 1e6) * 1e6),
                config.integer("server.max_in_flight", DEFAULT_MAX_IN_FLIGHT), hosts,
                traceDb != null ? traceDb : db == null ? null : Path.of(db),
                config.integer("server.trace_retention", DEFAULT_TRACE_RETENTION));
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

    public boolean imageHostAllowed(String urlHost) {
        if (urlHost == null) return false;
        String u = urlHost.toLowerCase(Locale.ROOT);
        for (String a : allowedImageHosts) {
            if (a.startsWith(".") ? u.endsWith(a) || u.equals(a.substring(1)) : u.equals(a)) return true;
        }
        return false;
    }

    @Override public String toString() {
        // Never print the key itself.
        return "ServerSettings[" + host + ":" + port + ", key=" + (apiKey == null ? "none" : "set") + ", maxBody=" + maxBodyBytes
                + ", maxImagePixels=" + maxImagePixels + ", maxInFlight=" + maxInFlight + ", allowedImageHosts=" + allowedImageHosts
                + ", traceDb=" + traceDb + ", retention=" + traceRetention + "]";
    }
}
