package dev.gamagent.util;

import dev.gamagent.config.Config;
import dev.gamagent.config.internal.RemoteMedia;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The one host rule (exact names, '.'-domains with their subdomains) and the media policy the configuration gives. */
class HostPolicyTest {
    @Test void aDotEntryAllowsTheDomainAndItsSubdomainsOnlyAndNamesMatchExactlyWithoutCase() {
        HostPolicy p = new HostPolicy(List.of(" .Example.org ", "images.test", ""));
        assertThat(p.entries()).containsExactly(".example.org", "images.test");
        assertThat(p.allows("example.org")).isTrue();
        assertThat(p.allows("CDN.example.org")).isTrue();
        assertThat(p.allows("a.b.example.org")).isTrue();
        assertThat(p.allows("badexample.org")).isFalse();
        assertThat(p.allows("example.org.evil.test")).isFalse();
        assertThat(p.allows("Images.TEST")).isTrue();
        assertThat(p.allows("cdn.images.test")).isFalse();
        assertThat(p.allows(null)).isFalse();
        assertThat(new HostPolicy(null).allows("example.org")).isFalse();
        assertThat(new HostPolicy(List.of("*")).allows("example.org")).as("'*' is no wildcard for media").isFalse();
    }

    @Test void theMediaPolicyComesFromTheServerKeysAsAListOrACommaString() {
        RemoteMedia none = RemoteMedia.from(Config.defaults());
        assertThat(none.hosts().isEmpty()).isTrue();
        assertThat(none.maxBytes()).isEqualTo(Math.round(Config.defaults().number("server.max_body_mb") * 1024 * 1024));
        assertThat(none.fetchTimeout()).isEqualTo(Duration.ofMillis(Math.round(Config.defaults().number("server.image_fetch_timeout_s") * 1000)));
        RemoteMedia set = RemoteMedia.from(Config.defaults().with("server.allowed_image_hosts", ".example.org,img.test")
                .with("server.max_body_mb", "2").with("server.image_fetch_timeout_s", "1.5"));
        assertThat(set.hosts().entries()).containsExactly(".example.org", "img.test");
        assertThat(set.maxBytes()).isEqualTo(2L * 1024 * 1024);
        assertThat(set.fetchTimeout()).isEqualTo(Duration.ofMillis(1500));
        RemoteMedia list = RemoteMedia.from(Config.defaults().withTree((com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.valueToTree(
                java.util.Map.of("server", java.util.Map.of("allowed_image_hosts", List.of("a.test", ".b.test"))))));
        assertThat(list.hosts().allows("x.b.test")).isTrue();
        assertThat(list.hosts().allows("a.test")).isTrue();
    }
}
