package dev.gamagent.util;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Where an IP address reaches: the public internet, or somewhere a download must not be sent to by a server's redirect
 * (this machine, the local network, the cloud's metadata service). The ranges are IANA's special-purpose registries
 * (RFC 6890 and its updates); an IPv6 address that carries an IPv4 one (mapped, NAT64, 6to4) is judged by that one.
 */
public enum AddressScope {
    PUBLIC("a public address"),
    LOOPBACK("a loopback address (this machine)"),
    UNSPECIFIED("the unspecified address (this machine)"),
    PRIVATE("a private network address"),
    LINK_LOCAL("a link-local address (where cloud metadata services answer, e.g. 169.254.169.254)"),
    SHARED("a carrier-grade NAT address (100.64.0.0/10)"),
    MULTICAST("a multicast or broadcast address"),
    RESERVED("a reserved address (documentation, benchmarking, tunnels or future use)");

    private final String description;

    AddressScope(String description) { this.description = description; }

    /** "a loopback address (this machine)": what the address is, for a message. */
    public String description() { return description; }

    public boolean isPublic() { return this == PUBLIC; }

    /** The scope of {@code address}. */
    public static AddressScope of(InetAddress address) {
        if (address instanceof Inet4Address v4) return ofIpv4(v4.getAddress());
        if (address instanceof Inet6Address v6) return ofIpv6(v6.getAddress());
        return RESERVED;
    }

    private static AddressScope ofIpv4(byte[] b) {
        int a0 = b[0] & 0xff, a1 = b[1] & 0xff, a2 = b[2] & 0xff;
        if (a0 == 0) return UNSPECIFIED;                                  // 0.0.0.0/8 "this network"
        if (a0 == 127) return LOOPBACK;
        if (a0 == 10 || a0 == 172 && (a1 & 0xf0) == 16 || a0 == 192 && a1 == 168) return PRIVATE; // RFC 1918
        if (a0 == 169 && a1 == 254) return LINK_LOCAL;
        if (a0 == 100 && (a1 & 0xc0) == 64) return SHARED;                // RFC 6598
        if (a0 >= 224) return a0 < 240 ? MULTICAST : (a0 == 255 && a1 == 255 && a2 == 255 && (b[3] & 0xff) == 255 ? MULTICAST : RESERVED);
        if (a0 == 192 && a1 == 0 && (a2 == 0 || a2 == 2)) return RESERVED;  // IETF assignments, TEST-NET-1
        if (a0 == 198 && (a1 & 0xfe) == 18) return RESERVED;              // benchmarking, RFC 2544
        if (a0 == 198 && a1 == 51 && a2 == 100 || a0 == 203 && a1 == 0 && a2 == 113) return RESERVED; // TEST-NET-2, -3
        return PUBLIC;
    }

    private static AddressScope ofIpv6(byte[] b) {
        boolean zeroTo10 = true;
        for (int i = 0; i < 10; i++) zeroTo10 &= b[i] == 0;
        if (zeroTo10 && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) return ofIpv4(tail(b, 12)); // ::ffff:a.b.c.d
        if (zeroTo10 && b[10] == 0 && b[11] == 0) {
            boolean zero = true;
            for (int i = 12; i < 15; i++) zero &= b[i] == 0;
            if (zero && b[15] == 0) return UNSPECIFIED;                   // ::
            if (zero && b[15] == 1) return LOOPBACK;                      // ::1
            return ofIpv4(tail(b, 12));                                   // ::a.b.c.d, IPv4-compatible (deprecated)
        }
        int w0 = (b[0] & 0xff) << 8 | b[1] & 0xff, w1 = (b[2] & 0xff) << 8 | b[3] & 0xff;
        if (w0 == 0x64 && w1 == 0xff9b) return ofIpv4(tail(b, 12));      // NAT64 64:ff9b::/96
        if (w0 == 0x2002) return ofIpv4(new byte[]{b[2], b[3], b[4], b[5]}); // 6to4 2002:a.b.c.d::/48
        if ((b[0] & 0xfe) == 0xfc) return PRIVATE;                        // unique local fc00::/7
        if ((b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0x80) return LINK_LOCAL; // fe80::/10
        if ((b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0xc0) return PRIVATE;    // site-local fec0::/10 (deprecated)
        if ((b[0] & 0xff) == 0xff) return MULTICAST;
        if (w0 == 0x2001 && w1 == 0x0db8) return RESERVED;                // documentation
        if (w0 == 0x2001 && w1 == 0) return RESERVED;                     // Teredo: a tunnel to an address it hides
        if (w0 == 0x0100 && w1 == 0 && b[4] == 0 && b[5] == 0 && b[6] == 0 && b[7] == 0) return RESERVED; // discard-only 100::/64
        if ((w0 & 0xe000) != 0x2000) return RESERVED;                    // outside 2000::/3, the global unicast space
        return PUBLIC;
    }

    private static byte[] tail(byte[] b, int from) { return new byte[]{b[from], b[from + 1], b[from + 2], b[from + 3]}; }
}
