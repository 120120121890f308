package dev.gamagent.backend;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.testing.SecretForm;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 28, item 1: a key is found in every form it can come back in, and nothing else is touched. */
class SecretScrubberTest {
    /** A key with the characters escapers change: '/', '+', '='. */
    static final String KEY = "sk-test/SECRET+123=abc";
    private final SecretScrubber scrubber = new SecretScrubber(List.of(KEY));

    @ParameterizedTest(name = "{0}")
    @EnumSource(SecretForm.class)
    void everyFormOfTheKeyIsRemovedAndTheTextAroundItKept(SecretForm form) {
        String echoed = form.of(KEY);
        if (form != SecretForm.RAW) assertThat(echoed).isNotEqualTo(KEY);
        String text = "upstream said: Bearer " + echoed + " (end)";
        String out = scrubber.scrub(text);
        assertThat(out).startsWith("upstream said: Bearer ").endsWith(" (end)").contains(SecretScrubber.MARK);
        for (SecretForm f : SecretForm.values()) assertThat(out).as(f.name()).doesNotContain(f.of(KEY));
        assertThat(out).doesNotContain("SECRET");
    }

    @Test void mixedEscapesInOneKeyAreFound() {
        String mixed = "sk-test\\/SECRET%2B123&#61;abc";
        assertThat(scrubber.scrub("x " + mixed + " y")).isEqualTo("x [redacted] y");
    }

    @Test void aKeyInsideBase64OfAnyTextAtAnyOffsetIsFoundAndTheWholeRunGoes() {
        for (String prefix : List.of("", "u", "us", "user:", "Authorization: Bearer ", "ab")) {
            String b64 = java.util.Base64.getEncoder().encodeToString((prefix + KEY + "!tail").getBytes(StandardCharsets.UTF_8));
            assertThat(scrubber.scrub("Basic " + b64 + " done")).as(prefix).isEqualTo("Basic [redacted] done");
            String urlSafe = java.util.Base64.getUrlEncoder().encodeToString((prefix + KEY).getBytes(StandardCharsets.UTF_8));
            assertThat(scrubber.scrub("t=" + urlSafe)).as("url-safe " + prefix).isEqualTo("t=[redacted]");
        }
    }

    @Test void textWithoutTheKeyIsReturnedUnchangedIncludingLongBase64() {
        byte[] noise = new byte[200_000];
        new Random(1).nextBytes(noise);
        String text = "image " + java.util.Base64.getEncoder().encodeToString(noise) + " sk-test/SECRET+12 SECRET abc";
        assertThat(scrubber.scrub(text)).isSameAs(text);
    }

    @Test void placeholdersAreNotSecretsSoOrdinaryWordsSurvive() {
        assertThat(new SecretScrubber(List.of("x", "ab", "  ", "EMPTY", "dummy", "test", "none", "sk-no-key-required")).isEmpty()).isTrue();
        String text = "the latest test: none EMPTY dummy x ab";
        assertThat(new SecretScrubber(List.of("x", "ab", "test", "none", "EMPTY", "dummy")).scrub(text)).isEqualTo(text);
        assertThat(new SecretScrubber(List.of("hunt3r", "s3cr")).size()).as("short, but not plain words").isEqualTo(2);
    }

    @Test void jsonTreesAreScrubbedInValuesAndFieldNamesAndStayValid() {
        JsonNode n = Json.MAPPER.createObjectNode().put("model", KEY).put(KEY, 1)
                .set("a", Json.MAPPER.createArrayNode().add("x sk-test\\u002fSECRET\\u002b123\\u003dabc y").add(3));
        JsonNode s = scrubber.scrub(n);
        assertThat(Json.write(s)).doesNotContain("SECRET").contains("\"model\":\"[redacted]\"", "\"[redacted]\":1", "x [redacted] y");
        JsonNode clean = Json.MAPPER.createObjectNode().put("a", "b");
        assertThat(scrubber.scrub(clean)).isSameAs(clean);
    }

    @Test void aKeySplitAcrossTokensIsBlankedInEveryTokenItTouches() {
        String text = "ANSWER: A " + KEY + " ok";
        List<TokenLogprob> tokens = new ArrayList<>();
        for (int i = 0; i < text.length(); i += 4) {
            String t = text.substring(i, Math.min(text.length(), i + 4));
            tokens.add(new TokenLogprob(t, -0.1, List.of(new TokenLogprob.Alternative(t, -0.1), new TokenLogprob.Alternative(KEY, -3))));
        }
        Choice c = scrubber.scrub(new Choice(text, tokens, "stop"));
        StringBuilder joined = new StringBuilder();
        for (TokenLogprob t : c.logprobs()) {
            joined.append(t.token());
            assertThat(t.top().get(0).token()).as("the chosen token among the alternatives").isEqualTo(t.token());
            assertThat(t.top().get(1).token()).isEqualTo(SecretScrubber.MARK);
        }
        assertThat(c.text()).isEqualTo("ANSWER: A [redacted] ok");
        assertThat(joined.toString()).isEqualTo("ANSWER: A [redacted] ok");
        assertThat(c.logprobs()).hasSameSizeAs(tokens);
    }

    @Test void theProcessSecretsComeFromKeyVariablesAndUrls() {
        Map<String, String> env = Map.of("OPENAI_API_KEY", "sk-openai-0001", "VLLM_AUTH", "vllm-secret-02", "MY_API_KEY", "my-api-key-003",
                "HOME", "/home/someone", "SHORT_API_KEY", "abc");
        SecretScrubber s = SecretScrubber.of(env, List.of("VLLM_AUTH"), List.of("https://u:url-pass-0004@h/v1",
                "https://generativelanguage.googleapis.com/v1beta?key=gemini-key-0005&alt=json"));
        String out = s.scrub("sk-openai-0001 vllm-secret-02 my-api-key-003 url-pass-0004 gemini-key-0005 /home/someone abc json");
        assertThat(out).isEqualTo("[redacted] [redacted] [redacted] [redacted] [redacted] /home/someone abc json");
        assertThat(s.size()).isEqualTo(5);
    }

    @Test void aScrubbingStreamPassesLinesScrubbedAndHoldsNothingBackAfterAFlush() {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream target = new PrintStream(sink, true, StandardCharsets.UTF_8);
        PrintStream out = scrubber.scrubbing(target);
        out.println("one " + KEY);
        assertThat(sink.toString(StandardCharsets.UTF_8)).isEqualTo("one [redacted]\n");
        out.print("two " + KEY.substring(0, 5)); // half a key, then the rest in the same line
        out.print(KEY.substring(5) + " é");
        assertThat(sink.toString(StandardCharsets.UTF_8)).isEqualTo("one [redacted]\n");
        out.println();
        out.print("\r[###] 3/10");
        out.flush();
        assertThat(sink.toString(StandardCharsets.UTF_8)).isEqualTo("one [redacted]\ntwo [redacted] é\n\r[###] 3/10");
        String big = "x".repeat(20_000) + KEY + "y".repeat(20_000);
        out.print(big);
        out.flush();
        assertThat(sink.toString(StandardCharsets.UTF_8)).doesNotContain("SECRET").endsWith("x[redacted]" + "y".repeat(20_000));
    }

    @Test void aHalfWrittenMultiByteCharacterIsHeldUntilItsEnd() {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream out = scrubber.scrubbing(new PrintStream(sink, true, StandardCharsets.UTF_8));
        byte[] e = "é".getBytes(StandardCharsets.UTF_8);
        out.write(e, 0, 1);
        out.flush();
        out.write(e, 1, 1);
        out.flush();
        assertThat(sink.toString(StandardCharsets.UTF_8)).isEqualTo("é");
    }
}
