package dev.gamagent.eval.data;

import dev.gamagent.util.AddressScope;
import dev.gamagent.util.HttpUrl;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where a benchmark download may go, checked before every connection — the first one and every redirect: only to
 * the mirror's host and the catalogue's hosts (those of its URLs, and subdomains of its {@code redirect_domains}, where
 * Hugging Face sends its files), and only to public addresses, checked on the addresses the host name resolves to
 * (the JVM keeps them, and connects to them, for its DNS cache's 30 s). The mirror the user gave is reached as given,
 * even on this machine or the local network (tests serve from 127.0.0.1); a redirect from it to another address that is
 * not public is refused like any other.
 *
 * @param hosts    host names allowed exactly, lower case
 * @param domains  domains whose subdomains (and themselves) are allowed, lower case
 * @param given    {@code host:port} of the mirror the user gave, reached whatever its address; null without a mirror
 * @param resolver how a host name becomes addresses ({@link InetAddress#getAllByName}; tests give their own)
 */
public record DownloadHosts(Set<String> hosts, Set<String> domains, String given, Resolver resolver) {
    /** Turns a host name into the addresses a connection would go to. */
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    public DownloadHosts {
        hosts = Set.copyOf(new TreeSet<>(hosts));
        domains = Set.copyOf(new TreeSet<>(domains));
    }

    /** The hosts of {@code catalogue}, and {@code mirror}'s (null: none) as the user gave it. */
    public static DownloadHosts of(DatasetCatalogue catalogue, String mirror) {
        Set<String> hosts = new TreeSet<>();
        for (DatasetEntry e : catalogue.entries()) {
            if (e.url() != null) hosts.add(HttpUrl.parse(e.url()).host());
        }
        String given = null;
        if (mirror != null) {
            HttpUrl m;
            try {
                m = HttpUrl.parse(mirror);
            } catch (HttpUrl.Invalid e) {
                throw new DataException("the data mirror " + mirror + " (--data-mirror or $" + DataFiles.MIRROR_ENV + "): " + e.getMessage());
            }
            hosts.add(m.host());
            given = m.authority();
        }
        Set<String> domains = new TreeSet<>();
        for (String d : catalogue.redirectDomains()) domains.add(d.toLowerCase(Locale.ROOT));
        return new DownloadHosts(hosts, domains, given, InetAddress::getAllByName);
    }

    /**
     * Checks {@code url} before connecting to it: {@code hop} 0 is the download's own URL, 1 and on the redirects of
     * {@code start}. A refusal is a {@link DataException} naming the download, the hop and what is wrong with it.
     */
    public HttpUrl check(URI url, URI start, int hop) {
        String refused = (hop == 0 ? "download of " + start + " refused: " : "download of " + start + " refused: the server redirected it"
                + (hop > 1 ? " (redirect " + hop + ")" : "") + " to " + url + ", and ") ;
        String after = hop == 0 ? "" : "; nothing was fetched from there";
        HttpUrl u;
        try {
            u = HttpUrl.parse(url.toString());
        } catch (HttpUrl.Invalid e) {
            throw new DataException(refused + e.getMessage() + after);
        }
        if (u.authority().equals(given)) return u;
        boolean allowed = allowed(u.host());
        if (u.literal() != null) {
            AddressScope scope = AddressScope.of(u.literal());
            if (!scope.isPublic()) throw new DataException(refused + u.host() + " is " + scope.description() + after);
        }
        if (!allowed) throw new DataException(refused + "host " + u.host() + " is not one downloads may go to (" + describe() + ")" + after);
        if (u.literal() != null) return u;
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(u.host());
        } catch (UnknownHostException e) {
            throw new DataException((hop == 0 ? "cannot download " + start : "download of " + start + ": the redirect " + hop + " to " + url
                    + " failed") + ": the host name '" + u.host() + "' does not resolve (no network? point --data-mirror at a copy, "
                    + "or put the file in the data directory yourself)", e);
        }
        for (InetAddress a : addresses) {
            AddressScope scope = AddressScope.of(a);
            if (!scope.isPublic()) {
                throw new DataException(refused + "host " + u.host() + " resolves to " + a.getHostAddress() + ", " + scope.description() + after);
            }
        }
        return u;
    }

    /** Whether {@code host} is one of the hosts, or in one of the domains. */
    public boolean allowed(String host) {
        if (hosts.contains(host)) return true;
        for (String d : domains) if (host.equals(d) || host.endsWith("." + d)) return true;
        return false;
    }

    /** The allowed hosts in words, for a refusal. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (given != null) parts.add("the mirror's host " + given.substring(0, given.lastIndexOf(':')));
        List<String> catalogue = new ArrayList<>(new TreeSet<>(hosts));
        if (given != null) catalogue.remove(given.substring(0, given.lastIndexOf(':')));
        for (String d : new TreeSet<>(domains)) catalogue.add("*." + d);
        if (!catalogue.isEmpty()) parts.add("the catalogue's hosts " + String.join(", ", catalogue));
        return parts.isEmpty() ? "none" : String.join(" and ", parts);
    }
}
