package dev.gamagent.server;

import dev.gamagent.util.Json;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Issue 38, item 8: an image URL {@code gam serve} refuses is refused for what is wrong with it. {@code "null"} and
 * {@code //host/x.png} were told "':' URLs are refused"; {@code 127.1}, {@code 0x7f.0.0.1} and {@code 127.0.0.1.}
 * "images from host 'null' are not allowed" — with 127.0.0.1 itself allowed. Nothing is fetched for any of them.
 */
class ImageUrlRefusalTest {
    @TempDir Path dir;

    @ParameterizedTest(name = "{0} → {1} {2}")
    @CsvSource(delimiter = '|', textBlock = """
            null                        | 400 | invalid_image_url      | messages[0].content[1]: 'null' is not a URL: it has no scheme (http:// or https://); 'null' is what a program writes for a missing value; image URLs must be data: URLs or http(s) URLs from allowed hosts
            //127.0.0.1/x.png           | 400 | invalid_image_url      | messages[0].content[1]: '//127.0.0.1/x.png' is a scheme-relative URL (it starts with //): write http:// or https:// in front of it; image URLs must be data: URLs or http(s) URLs from allowed hosts
            http://127.1/x.png          | 400 | invalid_image_url      | messages[0].content[1]: host '127.1' is the IPv4 address 127.0.0.1, a loopback address (this machine), written in shorthand (2 numbers, not 4); write an address as four decimal numbers (127.0.0.1), or use a host name; image URLs must be data: URLs or http(s) URLs from allowed hosts
            http://0x7f.0.0.1/x.png     | 400 | invalid_image_url      | messages[0].content[1]: host '0x7f.0.0.1' is the IPv4 address 127.0.0.1, a loopback address (this machine), written with octal or hexadecimal numbers; write an address as four decimal numbers (127.0.0.1), or use a host name; image URLs must be data: URLs or http(s) URLs from allowed hosts
            http://127.0.0.1./x.png     | 400 | invalid_image_url      | messages[0].content[1]: host '127.0.0.1.' is the IPv4 address 127.0.0.1, a loopback address (this machine), written with a trailing dot; write an address as four decimal numbers (127.0.0.1), or use a host name; image URLs must be data: URLs or http(s) URLs from allowed hosts
            http://2130706433/x.png     | 400 | invalid_image_url      | messages[0].content[1]: host '2130706433' is the IPv4 address 127.0.0.1, a loopback address (this machine), written as one number; write an address as four decimal numbers (127.0.0.1), or use a host name; image URLs must be data: URLs or http(s) URLs from allowed hosts
            http://my_host/x.png        | 400 | invalid_image_url      | messages[0].content[1]: host 'my_host' is not a valid host name (letters, digits, '-' and dots); image URLs must be data: URLs or http(s) URLs from allowed hosts
            file:///etc/passwd          | 400 | image_url_scheme       | messages[0].content[1]: image URLs must be data: URLs or http(s) URLs from allowed hosts; 'file:' URLs are refused (the server never reads its own files)
            http://169.254.169.254/x    | 403 | image_host_not_allowed | messages[0].content[1]: images from host '169.254.169.254' are not allowed; send the image as a data URL or add the host to config server.allowed_image_hosts
            """)
    void aRefusedImageUrlSaysWhatWasWrong(String url, int status, String code, String message) {
        ServerSettings settings = new ServerSettings("127.0.0.1", 0, null, 0, 0, 0, List.of("127.0.0.1"), dir.resolve("traces.db"), 0);
        AtomicInteger fetched = new AtomicInteger();
        String body = "{\"model\": \"single\", \"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"q?\"}, "
                + "{\"type\": \"image_url\", \"image_url\": {\"url\": " + Json.MAPPER.valueToTree(url) + "}}]}]}";
        ApiError e = catchThrowableOfType(() -> CompletionRequest.parse(body.getBytes(StandardCharsets.UTF_8), settings, u -> {
            fetched.incrementAndGet();
            return new byte[0];
        }), ApiError.class);
        assertThat(e).as(url).isNotNull();
        assertThat(e.status()).isEqualTo(status);
        assertThat(e.code()).isEqualTo(code);
        assertThat(e.getMessage()).isEqualTo(message);
        assertThat(fetched).as("nothing fetched").hasValue(0);
    }
}
