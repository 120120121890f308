package dev.gamagent.util;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Issue 38, item 8: a refused URL says what was wrong. {@code "null"} and {@code //host/x.png} used to be told
 * "':' URLs are refused", and {@code 127.1}, {@code 0x7f.0.0.1}, {@code 127.0.0.1.} "host 'null' is not allowed".
 */
class HttpUrlTest {
    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', textBlock = """
            null                          | NO_SCHEME       | 'null' is not a URL: it has no scheme (http:// or https://); 'null' is what a program writes for a missing value
            x.png                         | NO_SCHEME       | 'x.png' is not a URL: it has no scheme (http:// or https://)
            //host/x.png                  | SCHEME_RELATIVE | '//host/x.png' is a scheme-relative URL (it starts with //): write http:// or https:// in front of it
            file:///etc/passwd            | SCHEME          | 'file:' URLs are not http: or https: URLs
            ftp://host/x.png              | SCHEME          | 'ftp:' URLs are not http: or https: URLs
            http:x.png                    | NO_HOST         | 'http:x.png' names no host (an http URL is http://host/path)
            http:/x.png                   | NO_HOST         | 'http:/x.png' names no host (an http URL is http://host/path)
            http://:80/x.png              | NO_HOST         | 'http://:80/x.png' names no host
            http://127.1/x.png            | NUMERIC_HOST    | host '127.1' is the IPv4 address 127.0.0.1, a loopback address (this machine), written in shorthand (2 numbers, not 4); write an address as four decimal numbers (127.0.0.1), or use a host name
            http://0x7f.0.0.1/x.png       | NUMERIC_HOST    | host '0x7f.0.0.1' is the IPv4 address 127.0.0.1, a loopback address (this machine), written with octal or hexadecimal numbers; write an address as four decimal numbers (127.0.0.1), or use a host name
            http://127.0.0.1./x.png       | NUMERIC_HOST    | host '127.0.0.1.' is the IPv4 address 127.0.0.1, a loopback address (this machine), written with a trailing dot; write an address as four decimal numbers (127.0.0.1), or use a host name
            http://0177.0.0.1/x.png       | NUMERIC_HOST    | host '0177.0.0.1' is the IPv4 address 127.0.0.1, a loopback address (this machine), written with octal or hexadecimal numbers; write an address as four decimal numbers (127.0.0.1), or use a host name
            http://2130706433/x.png       | NUMERIC_HOST    | host '2130706433' is the IPv4 address 127.0.0.1, a loopback address (this machine), written as one number; write an address as four decimal numbers (127.0.0.1), or use a host name
            http://user@127.1:8080/x.png  | NUMERIC_HOST    | host '127.1' is the IPv4 address 127.0.0.1, a loopback address (this machine), written in shorthand (2 numbers, not 4); write an address as four decimal numbers (127.0.0.1), or use a host name
            http://0xa9fea9fe/latest      | NUMERIC_HOST    | host '0xa9fea9fe' is the IPv4 address 169.254.169.254, a link-local address (where cloud metadata services answer, e.g. 169.254.169.254), written as one number; write an address as four decimal numbers (169.254.169.254), or use a host name
            http://10.1/x.png             | NUMERIC_HOST    | host '10.1' is the IPv4 address 10.0.0.1, a private network address, written in shorthand (2 numbers, not 4); write an address as four decimal numbers (10.0.0.1), or use a host name
            http://8.8.2056/x.png         | NUMERIC_HOST    | host '8.8.2056' is the IPv4 address 8.8.8.8, a public address, written in shorthand (3 numbers, not 4); write an address as four decimal numbers (8.8.8.8), or use a host name
            http://256.1.1.1/x.png        | NUMERIC_HOST    | host '256.1.1.1' ends in a number but is not an IPv4 address (four decimal numbers 0-255, e.g. 192.0.2.1)
            http://1.2.3.4.5/x.png        | NUMERIC_HOST    | host '1.2.3.4.5' ends in a number but is not an IPv4 address (four decimal numbers 0-255, e.g. 192.0.2.1)
            http://example.123/x.png      | NUMERIC_HOST    | host 'example.123' ends in a number but is not an IPv4 address (four decimal numbers 0-255, e.g. 192.0.2.1)
            http://my_host/x.png          | BAD_HOST        | host 'my_host' is not a valid host name (letters, digits, '-' and dots)
            http://[::g]/x.png            | NOT_A_URL       | 'http://[::g]/x.png' is not a valid URL (Expected hex digits or IPv4 address at index 10: …)
            http://a b/x.png              | NOT_A_URL       | 'http://a b/x.png' is not a valid URL (Illegal character in authority at index 7: …)
            '   '                         | NOT_A_URL       | the URL is empty
            """)
    void aRefusedUrlSaysWhatWasWrong(String url, HttpUrl.Problem problem, String message) {
        HttpUrl.Invalid e = catchThrowableOfType(() -> HttpUrl.parse(url), HttpUrl.Invalid.class);
        assertThat(e).as(url).isNotNull();
        assertThat(e.problem()).as(url).isEqualTo(problem);
        assertThat(e.getMessage()).isEqualTo(message);
        assertThat(e.getMessage()).as("never the old misleading words").doesNotContain("':'", "'null' is not allowed", "host null");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            http://example.org/x.png          | example.org   | 80  | false
            HTTPS://Example.ORG:8443/x.png    | example.org   | 8443| false
            http://example.org./x.png         | example.org   | 80  | false
            https://1.cafe/x.png              | 1.cafe        | 443 | false
            http://127.0.0.1:9/x.png          | 127.0.0.1     | 9   | true
            http://169.254.169.254/latest     | 169.254.169.254 | 80 | true
            http://[::1]:8000/x               | [::1]         | 8000| true
            http://user:pw@example.org/x      | example.org   | 80  | false
            """)
    void aValidUrlGivesItsHostPortAndAddressWhenWrittenAsOne(String url, String host, int port, boolean literal) {
        HttpUrl u = HttpUrl.parse(url);
        assertThat(u.host()).isEqualTo(host);
        assertThat(u.port()).isEqualTo(port);
        assertThat(u.literal() != null).isEqualTo(literal);
        assertThat(u.authority()).isEqualTo(host + ":" + port);
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(delimiter = '|', textBlock = """
            127.0.0.1        | LOOPBACK
            127.0.0.2        | LOOPBACK
            0.0.0.0          | UNSPECIFIED
            10.20.30.40      | PRIVATE
            172.16.0.1       | PRIVATE
            172.31.255.255   | PRIVATE
            172.32.0.1       | PUBLIC
            192.168.1.1      | PRIVATE
            169.254.169.254  | LINK_LOCAL
            100.64.0.1       | SHARED
            100.128.0.1      | PUBLIC
            192.0.2.1        | RESERVED
            198.18.0.1       | RESERVED
            224.0.0.1        | MULTICAST
            255.255.255.255  | MULTICAST
            240.0.0.1        | RESERVED
            8.8.8.8          | PUBLIC
            104.16.0.1       | PUBLIC
            ::1              | LOOPBACK
            ::               | UNSPECIFIED
            ::ffff:10.0.0.1  | PRIVATE
            ::ffff:8.8.8.8   | PUBLIC
            64:ff9b::a9fe:a9fe | LINK_LOCAL
            2002:7f00:1::    | LOOPBACK
            fd00::1          | PRIVATE
            fe80::1          | LINK_LOCAL
            ff02::1          | MULTICAST
            2001:db8::1      | RESERVED
            2001::1          | RESERVED
            2606:4700::1111  | PUBLIC
            """)
    void everyAddressHasAScope(String literal, AddressScope scope) throws Exception {
        assertThat(AddressScope.of(InetAddress.getByName(literal))).isEqualTo(scope);
    }
}
