package dev.gamagent.util;

import java.util.List;
import java.util.Locale;

/**
 * Which hosts a URL (or a request's {@code Host} header) may name: an entry is a host name matched exactly, or, when it
 * starts with '.', a domain matched with all its subdomains ({@code .example.org} allows {@code example.org} and
 * {@code cdn.example.org}, not {@code badexample.org}); without case. The one home of this rule: {@code gam serve}'s
 * remote images and Host allow-list, and the evaluation's video URLs ({@code config.internal.RemoteMedia} builds the media
 * policy from the configuration). No entry allows nothing.
 *
 * @param entries the names and '.'-domains, lower case, without blanks
 */
public record HostPolicy(List<String> entries) {
    public HostPolicy {
        entries = entries == null ? List.of() : entries.stream().map(h -> h.strip().toLowerCase(Locale.ROOT)).filter(h -> !h.isEmpty()).toList();
    }

    /** Whether {@code host} is allowed; a null host never is. */
    public boolean allows(String host) {
        if (host == null) return false;
        String h = host.toLowerCase(Locale.ROOT);
        for (String a : entries) {
            if (a.startsWith(".") ? h.endsWith(a) || h.equals(a.substring(1)) : h.equals(a)) return true;
        }
        return false;
    }

    public boolean isEmpty() { return entries.isEmpty(); }
}
