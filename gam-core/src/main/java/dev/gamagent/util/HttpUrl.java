package dev.gamagent.util;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * An http(s) URL that a user, a benchmark row or a server handed us, read strictly so that a refusal can say what was
 * wrong: no scheme ({@code "null"}, what a client writes for a missing value), a scheme-relative URL
 * ({@code //host/x.png}), another scheme ({@code file:}), no host, or a host that is an IPv4 address in one of the forms
 * browsers and C libraries accept but {@link URI} does not ({@code 127.1}, {@code 0x7f.0.0.1}, {@code 127.0.0.1.},
 * {@code 2130706433}) — refused, naming the address it stands for, so that no allow-list is matched against a spelling.
 *
 * @param uri     the URL as parsed
 * @param host    its host, lower case, without a name's trailing dot ({@code [::1]} keeps its brackets)
 * @param literal the address when the host is written as one (four decimal numbers or [IPv6]), else null
 */
public record HttpUrl(URI uri, String host, InetAddress literal) {
    /** What is wrong with a URL. */
    public enum Problem { NOT_A_URL, NO_SCHEME, SCHEME_RELATIVE, SCHEME, NO_HOST, NUMERIC_HOST, BAD_HOST }

    /** A URL refused, with what was wrong ({@link #problem}) and a message that names it (no caller's context). */
    public static final class Invalid extends IllegalArgumentException {
        private final Problem problem;
        private final String scheme;

        Invalid(Problem problem, String scheme, String message) {
            super(message);
            this.problem = problem;
            this.scheme = scheme;
        }

        public Problem problem() { return problem; }

        /** The scheme of a URL refused for it ({@link Problem#SCHEME}), lower case; else null. */
        public String scheme() { return scheme; }
    }

    /** Reads {@code text} as an http or https URL; anything else is an {@link Invalid} saying what is wrong. */
    public static HttpUrl parse(String text) {
        String s = text == null ? "" : text.strip();
        if (s.isEmpty()) throw new Invalid(Problem.NOT_A_URL, null, "the URL is empty");
        String shown = shorten(s);
        if (s.startsWith("//")) {
            throw new Invalid(Problem.SCHEME_RELATIVE, null, "'" + shown + "' is a scheme-relative URL (it starts with //): "
                    + "write http:// or https:// in front of it");
        }
        URI uri;
        try {
            uri = URI.create(s);
        } catch (IllegalArgumentException e) {
            throw new Invalid(Problem.NOT_A_URL, null, "'" + shown + "' is not a valid URL (" + e.getMessage().replace(s, "…") + ")");
        }
        if (uri.getScheme() == null) {
            boolean placeholder = s.equals("null") || s.equals("undefined") || s.equals("None") || s.equals("nil");
            throw new Invalid(Problem.NO_SCHEME, null, "'" + shown + "' is not a URL: it has no scheme (http:// or https://)"
                    + (placeholder ? "; '" + s + "' is what a program writes for a missing value" : ""));
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new Invalid(Problem.SCHEME, scheme, "'" + scheme + ":' URLs are not http: or https: URLs");
        }
        if (uri.isOpaque() || uri.getRawAuthority() == null) {
            throw new Invalid(Problem.NO_HOST, null, "'" + shown + "' names no host (an " + scheme + " URL is " + scheme + "://host/path)");
        }
        String host = uri.getHost();
        if (host == null) host = hostOf(uri.getRawAuthority());
        if (host.isEmpty()) throw new Invalid(Problem.NO_HOST, null, "'" + shown + "' names no host");
        host = host.toLowerCase(Locale.ROOT);
        if (host.startsWith("[")) {
            try {
                return new HttpUrl(uri, host, InetAddress.getByName(host.substring(1, host.length() - 1)));
            } catch (UnknownHostException | RuntimeException e) {
                throw new Invalid(Problem.BAD_HOST, null, "host '" + host + "' is not a valid IPv6 address");
            }
        }
        if (endsInNumber(host)) {
            // an IPv4 address, or a spelling of one (the WHATWG URL standard's "ends in a number")
            byte[] canonical = canonicalIpv4(host);
            if (canonical != null) {
                try {
                    return new HttpUrl(uri, host, InetAddress.getByAddress(host, canonical));
                } catch (UnknownHostException e) {
                    throw new IllegalStateException(e); // four bytes are always an address
                }
            }
            throw new Invalid(Problem.NUMERIC_HOST, null, numericMessage(host));
        }
        if (uri.getHost() == null || !host.matches("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\\.?")) {
            throw new Invalid(Problem.BAD_HOST, null, "host '" + host + "' is not a valid host name (letters, digits, '-' and dots)");
        }
        return new HttpUrl(uri, host.endsWith(".") ? host.substring(0, host.length() - 1) : host, null);
    }

    /** Whether the host's last label is a number (decimal, or hexadecimal after 0x): then it is read as an IPv4 address. */
    private static boolean endsInNumber(String host) {
        String[] labels = host.split("\\.");
        return labels.length > 0 && labels[labels.length - 1].matches("[0-9]+|0x[0-9a-f]*");
    }

    /** The port the URL connects to (its own, else 80 or 443). */
    public int port() { return uri.getPort() >= 0 ? uri.getPort() : uri.getScheme().equalsIgnoreCase("https") ? 443 : 80; }

    /** {@code host:port}, what one server is. */
    public String authority() { return host + ":" + port(); }

    /** The host of a raw authority {@code [user@]host[:port]} that {@link URI} did not read as a server. */
    private static String hostOf(String authority) {
        String a = authority.substring(authority.lastIndexOf('@') + 1);
        if (a.startsWith("[")) return a.contains("]") ? a.substring(0, a.indexOf(']') + 1) : a;
        int colon = a.lastIndexOf(':');
        return colon >= 0 ? a.substring(0, colon) : a;
    }

    /** Four decimal numbers 0-255 without leading zeros: the only spelling of an IPv4 address accepted. */
    private static byte[] canonicalIpv4(String host) {
        String[] parts = host.split("\\.", -1);
        if (parts.length != 4) return null;
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (!p.matches("0|[1-9][0-9]{0,2}") || Integer.parseInt(p) > 255) return null;
            out[i] = (byte) Integer.parseInt(p);
        }
        return out;
    }

    /**
     * What a non-canonical numeric host stands for, read as browsers (the WHATWG URL standard's IPv4 parser) and
     * {@code inet_aton} read it: 1 to 4 numbers, each decimal, octal (leading 0) or hexadecimal (0x), the last one filling
     * the remaining bytes, one trailing dot allowed.
     */
    private static String numericMessage(String host) {
        String body = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        String[] parts = body.split("\\.", -1);
        long[] v = new long[parts.length];
        boolean radix = false;
        boolean valid = parts.length <= 4;
        for (int i = 0; valid && i < parts.length; i++) {
            String p = parts[i];
            try {
                if (p.startsWith("0x")) {
                    v[i] = p.length() == 2 ? 0 : Long.parseLong(p.substring(2), 16);
                    radix = true;
                } else if (p.length() > 1 && p.startsWith("0")) {
                    v[i] = Long.parseLong(p.substring(1), 8);
                    radix = true;
                } else {
                    v[i] = Long.parseLong(p);
                }
            } catch (NumberFormatException e) {
                valid = false;
            }
            if (valid && v[i] > (i < parts.length - 1 ? 255 : (1L << (8 * (5 - parts.length))) - 1)) valid = false;
        }
        if (!valid) {
            return "host '" + host + "' ends in a number but is not an IPv4 address (four decimal numbers 0-255, e.g. 192.0.2.1)";
        }
        long address = 0;
        for (int i = 0; i < parts.length - 1; i++) address |= v[i] << (8 * (3 - i));
        address |= v[parts.length - 1];
        byte[] b = {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
        String dotted = (b[0] & 0xff) + "." + (b[1] & 0xff) + "." + (b[2] & 0xff) + "." + (b[3] & 0xff);
        String how = parts.length == 1 ? "written as one number" : parts.length < 4 ? "written in shorthand (" + parts.length + " numbers, not 4)"
                : radix ? "written with octal or hexadecimal numbers" : "written with a trailing dot";
        if (parts.length == 4 && radix && host.endsWith(".")) how += " and a trailing dot";
        else if (parts.length < 4 && host.endsWith(".")) how += " with a trailing dot";
        AddressScope scope;
        try {
            scope = AddressScope.of(InetAddress.getByAddress(b));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
        return "host '" + host + "' is the IPv4 address " + dotted + ", " + scope.description() + ", " + how
                + "; write an address as four decimal numbers (" + dotted + "), or use a host name";
    }

    private static String shorten(String s) { return s.length() <= 120 ? s : s.substring(0, 100) + "… (" + s.length() + " characters)"; }
}
