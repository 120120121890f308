package dev.gamagent.eval.load;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Issue 38, item 8: a row's {@code video} URL that is refused is refused for what is wrong with it; a host written as a
 * spelling of a numeric address ({@code 127.1}) used to be "host null is not allowed", with 127.0.0.1 itself allowed.
 */
class VideoUrlRefusalTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            http://127.1/clip.mp4        | 'video' URL: host '127.1' is the IPv4 address 127.0.0.1, a loopback address (this machine), written in shorthand (2 numbers, not 4); write an address as four decimal numbers (127.0.0.1), or use a host name
            http://0x7f.0.0.1/clip.mp4   | 'video' URL: host '0x7f.0.0.1' is the IPv4 address 127.0.0.1, a loopback address (this machine), written with octal or hexadecimal numbers; write an address as four decimal numbers (127.0.0.1), or use a host name
            http://127.0.0.1./clip.mp4   | 'video' URL: host '127.0.0.1.' is the IPv4 address 127.0.0.1, a loopback address (this machine), written with a trailing dot; write an address as four decimal numbers (127.0.0.1), or use a host name
            http://my_host/clip.mp4      | 'video' URL: host 'my_host' is not a valid host name (letters, digits, '-' and dots)
            http:/clip.mp4               | 'video' URL: 'http:/clip.mp4' names no host (an http URL is http://host/path)
            https://[::1/clip.mp4        | 'video' URL: 'https://[::1/clip.mp4' is not a valid URL (Expected closing bracket for IPv6 address at index 12: …)
            http://10.0.0.1/clip.mp4     | 'video' URL http://10.0.0.1/clip.mp4: host 10.0.0.1 is not allowed (config server.allowed_image_hosts: [127.0.0.1])
            """)
    void aRefusedVideoUrlSaysWhatWasWrong(String url, String message) {
        VideoUrls policy = new VideoUrls(List.of("127.0.0.1"), 1000, Duration.ofSeconds(1));
        BadRowException e = catchThrowableOfType(() -> policy.check(url), BadRowException.class);
        assertThat(e).as(url).isNotNull();
        assertThat(e.getMessage()).isEqualTo(message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"http://127.0.0.1:8000/clip.mp4", "HTTP://127.0.0.1/clip.mp4"})
    void anAllowedHostPasses(String url) {
        assertThat(new VideoUrls(List.of("127.0.0.1"), 1000, Duration.ofSeconds(1)).check(url).getHost()).isEqualTo("127.0.0.1");
    }
}
