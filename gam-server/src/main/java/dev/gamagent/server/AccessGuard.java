package dev.gamagent.server;


import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Who may use the server: the Host allow-list (DNS rebinding), the Origin check and CORS (CSRF), JSON-only
 * POSTs, and the bearer key of {@code server.api_key} on the API and metrics.
 */
final class AccessGuard {
    private final ServerSettings settings;

    AccessGuard(ServerSettings settings) { this.settings = settings; }

    /**
     * Refuses what a browser tab on another site could make us do: a Host that is not ours (DNS
     * rebinding), an Origin that is neither ours nor in {@code server.cors_origins} (CSRF), a POST that is
     * not JSON (the only bodies a cross-site page can send without a preflight are form and text types).
     * Returns true for an allowed CORS preflight, which needs no further handling.
     */
    boolean check(Exchange ex) {
        String host = ex.header("Host");
        if (!settings.hostAllowed(host)) {
            throw new ApiError(403, "invalid_request_error", "host_not_allowed", "Host '" + host + "' is not allowed: this server "
                    + "answers to " + settings.allowedHostsText() + " (config server.allowed_hosts)");
        }
        String origin = ex.header("Origin");
        boolean cors = settings.corsAllowed(origin);
        if (origin != null && !cors && !sameOrigin(origin, host)) {
            throw new ApiError(403, "invalid_request_error", "origin_not_allowed", "requests from pages on " + origin
                    + " are refused; add the origin to config server.cors_origins to allow them");
        }
        if (cors) {
            ex.setHeader("Access-Control-Allow-Origin", origin);
            ex.setHeader("Vary", "Origin");
        }
        if (ex.method().equalsIgnoreCase("OPTIONS")) {
            if (!cors) {
                throw new ApiError(403, "invalid_request_error", "cors_not_allowed", "cross-origin requests are off; "
                        + "list the calling page's origin in config server.cors_origins to allow them");
            }
            ex.setHeader("Access-Control-Allow-Methods", "GET, POST");
            ex.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type");
            ex.setHeader("Access-Control-Max-Age", "600");
            return true;
        }
        if (ex.method().equalsIgnoreCase("POST")) {
            String type = ex.header("Content-Type");
            if (type == null || !type.split(";")[0].strip().equalsIgnoreCase("application/json")) {
                throw new ApiError(415, "invalid_request_error", "unsupported_media_type", "POST bodies must be JSON: send "
                        + "'Content-Type: application/json'" + (type == null ? "" : " (got '" + type + "')"));
            }
        }
        return false;
    }

    /** The page making the request was served by this server (same scheme-less host:port). */
    private static boolean sameOrigin(String origin, String host) {
        if (host == null) return false;
        String o = origin.strip().toLowerCase(java.util.Locale.ROOT);
        int scheme = o.indexOf("://");
        return scheme > 0 && o.substring(scheme + 3).equals(host.strip().toLowerCase(java.util.Locale.ROOT));
    }

    /** The API key, when {@code server.api_key} sets one: 401 unless the request carries it as a bearer token. */
    void authorize(Exchange ex) {
        String key = settings.apiKey();
        if (key == null) return;
        String h = ex.header("Authorization");
        String given = h != null && h.regionMatches(true, 0, "Bearer ", 0, 7) ? h.substring(7).strip() : "";
        // Constant-time comparison, so response timing does not reveal how much of the key matched.
        if (!MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), key.getBytes(StandardCharsets.UTF_8))) {
            ex.setHeader("WWW-Authenticate", "Bearer");
            throw new ApiError(401, "invalid_request_error", "invalid_api_key",
                    "missing or wrong API key: send 'Authorization: Bearer <key>'");
        }
    }
}
