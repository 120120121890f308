package dev.gamagent.backend.internal;

import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.Usage;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A recorded reply keeps the server's cached prompt tokens, and a reply without them records and replays without them. */
class CanonicalResultUsageTest {
    private static ChatResult reply(Usage u) {
        return new ChatResult(List.of(new Choice("A", List.of(), "stop")), u, Duration.ofMillis(5), "m");
    }

    @Test void theCachedCountIsRecordedAndReplayedOnlyWhenTheServerReportedIt() {
        ChatResult cached = reply(new Usage(900, 3, false, 640L));
        assertThat(CanonicalRequest.readResult(CanonicalRequest.result(cached)).usage()).isEqualTo(cached.usage());
        assertThat(CanonicalRequest.result(cached).path("usage").path("cached").asLong()).isEqualTo(640);

        ChatResult zero = reply(new Usage(900, 3, false, 0L));
        assertThat(CanonicalRequest.readResult(CanonicalRequest.result(zero)).usage().cachedPromptTokens()).isZero();

        ChatResult unreported = reply(new Usage(900, 3, false));
        assertThat(CanonicalRequest.result(unreported).path("usage").has("cached")).as("recordings made before stay as they were").isFalse();
        assertThat(CanonicalRequest.readResult(CanonicalRequest.result(unreported)).usage().cachedPromptTokens()).isNull();
    }
}
