package dev.gamagent.config.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.config.Config;
import dev.gamagent.util.HostPolicy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the project fetches from the network as media (a request's remote images in {@code gam serve}, a benchmark row's
 * video URL): from hosts {@code server.allowed_image_hosts} allows ({@link HostPolicy}; none by default), at most
 * {@code server.max_body_mb} bytes, the whole fetch within {@code server.image_fetch_timeout_s}. Its one home in the
 * configuration; the fetchers themselves (never following redirects) are the server's and the evaluation's.
 *
 * @param hosts        the hosts media may come from
 * @param maxBytes     the largest file fetched
 * @param fetchTimeout the whole fetch of one file, connection to last byte
 */
public record RemoteMedia(HostPolicy hosts, long maxBytes, Duration fetchTimeout) {
    /** The policy {@code config} gives. */
    public static RemoteMedia from(Config config) {
        return new RemoteMedia(new HostPolicy(names(config, "server.allowed_image_hosts")), Math.round(config.number("server.max_body_mb") * 1024 * 1024),
                Duration.ofMillis(Math.round(config.number("server.image_fetch_timeout_s") * 1000)));
    }

    /** A setting that lists names: a JSON array, or a comma-separated string (as {@code --set} gives it). */
    public static List<String> names(Config config, String key) {
        List<String> out = new ArrayList<>();
        JsonNode h = config.node(key);
        if (h.isArray()) h.forEach(n -> out.add(n.asText()));
        else if (h.isTextual()) out.addAll(List.of(h.asText().split(",")));
        return out;
    }
}
