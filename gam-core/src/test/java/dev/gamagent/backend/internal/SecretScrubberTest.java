package dev.gamagent.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.testing.KeyRecovery;
import dev.gamagent.testing.SecretForm;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;

/**
 * Issue 28, item 1, and issue 38, item 4: a key is found in every form it can come back in (escaped, split by white
 * space, base64 wrapped at any width and alignment, hex, {@code \xNN}, any part of it long enough to matter), and
 * nothing else is touched. What is left is read by {@link KeyRecovery}, written apart from the scrubber.
 */
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
        // "sk-test/SECR": 9 characters of the secret part, one fewer than what counts (see theLengthThatCounts...)
        String text = "image " + java.util.Base64.getEncoder().encodeToString(noise) + " sk-test/SECR SECRET abc";
        assertThat(scrubber.scrub(text)).isSameAs(text);
        assertThat(scrubber.scrub("sk-test/SECRE SECRET abc")).isEqualTo("[redacted] SECRET abc");
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

    // ---- issue 38, item 4 ------------------------------------------------------------------------------------

    /** Keys shaped like real ones (lengths and alphabets of OpenAI project, Anthropic and Gemini keys) and two plain random ones. */
    static List<String> realisticKeys() {
        Random r = new Random(38);
        return List.of("sk-proj-" + random(r, 156, true), "sk-ant-api03-" + random(r, 95, true), "AIza" + random(r, 35, true),
                random(r, 40, false), random(r, 12, false));
    }

    static String random(Random r, int n, boolean dashes) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" + (dashes ? "-_" : "");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        return sb.toString();
    }

    /** The secret part of a key: what follows its public prefix ({@code sk-proj-}, {@code AIza}). */
    private static String secretPart(String key) { return key.substring(SecretFinder.publicPrefix(key)); }

    @Test void theLengthThatCountsFollowsTheBitsOfTheKey() {
        List<String> keys = realisticKeys();
        assertThat(keys.stream().map(SecretFinder::publicPrefix)).containsExactly(8, 13, 4, 0, 0);
        // 64 bits at 6 bits a character (base64url alphabet) or 5.95 (letters and digits): 11 characters
        assertThat(keys.subList(0, 4).stream().map(SecretFinder::fragmentLength)).containsOnly(11);
        // 12 random characters: 8 of them leave 24 bits to guess; the floor of 8 is what counts
        assertThat(SecretFinder.fragmentLength(keys.get(4))).isEqualTo(8);
        // 20 random characters (119 bits): 10 leave 59.5 bits hidden, fewer than 64
        assertThat(SecretFinder.fragmentLength(random(new Random(1), 20, false))).isEqualTo(10);
        // 32 hex digits: 4 bits each, 16 of them are 64 bits
        assertThat(SecretFinder.fragmentLength("0123456789abcdef0123456789abcdef")).isEqualTo(16);
        // this test's key, "sk-" and 19 characters of 92 kinds (6.52 bits)
        assertThat(SecretFinder.publicPrefix(KEY)).isEqualTo(3);
        assertThat(SecretFinder.fragmentLength(KEY)).isEqualTo(10);
    }

    @Test void everyPartOfAKeyThatCountsIsRedactedAndShorterPartsAreKept() {
        for (String key : realisticKeys()) {
            SecretScrubber s = new SecretScrubber(List.of(key));
            int prefix = SecretFinder.publicPrefix(key), k = SecretFinder.fragmentLength(key), n = key.length();
            for (int c = k; c <= n - prefix; c++) {
                // "(" and ")" are not in the key's alphabet: a neighbour that is the key's next character would go too
                assertThat(s.scrub("( " + key.substring(0, prefix + c) + " )")).as(key + " first " + c).isEqualTo("( [redacted] )");
                assertThat(s.scrub("( " + key.substring(n - c) + " )")).as(key + " last " + c).isEqualTo("( [redacted] )");
            }
            String middle = key.substring(prefix + 1, prefix + 1 + k);
            assertThat(s.scrub("( " + middle + " )")).as(key + " middle").isEqualTo("( [redacted] )");
            String shortPrefix = "( " + key.substring(0, prefix + k - 1) + " )", shortSuffix = "( " + key.substring(n - k + 1) + " )";
            assertThat(s.scrub(shortPrefix)).isSameAs(shortPrefix);
            assertThat(s.scrub(shortSuffix)).isSameAs(shortSuffix);
            // all but the last 3 and all but the first 3, as the issue found them
            assertThat(s.scrub(key.substring(0, n - 3) + "...")).isEqualTo("[redacted]...");
            assertThat(s.scrub("..." + key.substring(3))).isEqualTo("...[redacted]");
        }
    }

    @Test void aKeySplitByAnyWhiteSpaceIsFoundAsTextAndInsideAJsonString() {
        Random r = new Random(7);
        String[] spaces = {" ", "\t", "\n", "\r\n", "\u00A0", "\u200B", "    ", "\n\n\t "};
        List<String> keys = new ArrayList<>(realisticKeys());
        keys.add(KEY);
        for (String key : keys) {
            SecretScrubber s = new SecretScrubber(List.of(key));
            for (int trial = 0; trial < 40; trial++) {
                StringBuilder split = new StringBuilder();
                for (int i = 0; i < key.length(); i++) {
                    if (i > 0 && (trial == 0 || r.nextInt(4) == 0)) split.append(spaces[r.nextInt(spaces.length)]);
                    split.append(key.charAt(i));
                }
                String text = "said: " + split + " (end)";
                String out = s.scrub(text);
                assertThat(out).as(text).isEqualTo("said: [redacted] (end)");
                String json = "{\"content\":\"said: " + SecretForm.jsonEscaped(split.toString()) + " (end)\"}";
                assertThat(s.scrub(json)).as(json).isEqualTo("{\"content\":\"said: [redacted] (end)\"}");
            }
        }
    }

    @Test void base64AtEveryAlignmentWrappedAtAnyWidthIsFound() {
        List<String> keys = new ArrayList<>(realisticKeys());
        keys.add(KEY);
        for (String key : keys) {
            SecretScrubber s = new SecretScrubber(List.of(key));
            int k = SecretFinder.fragmentLength(key);
            for (String before : List.of("", "u", "us", "user:", "Authorization: Bearer ")) {
                byte[] data = (before + key + "\r\nAccept: */*").getBytes(StandardCharsets.UTF_8);
                for (Base64.Encoder enc : List.of(Base64.getEncoder(), Base64.getUrlEncoder())) {
                    String b64 = enc.encodeToString(data);
                    for (int width : List.of(1, 2, 3, 4, 5, 7, 10, 16, 60, 64, 76)) {
                        for (String lineBreak : List.of("\n", "\r\n", "\\n", "\\r\\n", " ")) {
                            StringBuilder wrapped = new StringBuilder();
                            for (int i = 0; i < b64.length(); i += width) {
                                if (i > 0) wrapped.append(lineBreak);
                                wrapped.append(b64, i, Math.min(b64.length(), i + width));
                            }
                            String text = "data: " + wrapped + " end";
                            String out = s.scrub(text);
                            String what = key + " after '" + before + "', width " + width + ", " + SecretForm.jsonEscaped(lineBreak);
                            assertThat(out).as(what).startsWith("data: ").endsWith(" end").contains(SecretScrubber.MARK);
                            assertThat(KeyRecovery.holdsRun(out, secretPart(key), k)).as(what + ": " + out).isFalse();
                        }
                    }
                }
            }
        }
        // MIME's own wrapping, the key's digits across its line break
        String mime = Base64.getMimeEncoder().encodeToString(("Host: 127.0.0.1:8000\r\nAuthorization: Bearer " + KEY + "\r\n")
                .getBytes(StandardCharsets.UTF_8));
        assertThat(mime).contains("\r\n");
        assertThat(KeyRecovery.holdsRun(scrubber.scrub(mime), secretPart(KEY), 10)).isFalse();
    }

    @Test void hexInEveryCommonSpellingIsFound() {
        List<String> keys = new ArrayList<>(realisticKeys());
        keys.add(KEY);
        List<HexFormat> formats = List.of(HexFormat.of(), HexFormat.of().withUpperCase(), HexFormat.ofDelimiter(":"),
                HexFormat.ofDelimiter(":").withUpperCase(), HexFormat.ofDelimiter(" "), HexFormat.ofDelimiter("-"),
                HexFormat.ofDelimiter(", ").withPrefix("0x"), HexFormat.ofDelimiter(" ").withPrefix("0X").withUpperCase());
        for (String key : keys) {
            SecretScrubber s = new SecretScrubber(List.of(key));
            int k = SecretFinder.fragmentLength(key);
            for (String before : List.of("", "Bearer ", "u:")) {
                byte[] data = (before + key).getBytes(StandardCharsets.UTF_8);
                for (HexFormat f : formats) {
                    String hex = f.formatHex(data);
                    for (String glue : List.of(" ", "a", "\n", "\\n")) { // "a": a hex digit just before, so the bytes start at the second digit
                        String text = "bytes:" + glue + hex + " end";
                        String out = s.scrub(text);
                        assertThat(out).as(f + " " + text).startsWith("bytes:").endsWith(" end").contains(SecretScrubber.MARK);
                        assertThat(KeyRecovery.holdsRun(out, secretPart(key), k)).as(text + " -> " + out).isFalse();
                    }
                    String wrapped = hex.replaceAll("(.{32})", "$1\n");
                    assertThat(KeyRecovery.holdsRun(s.scrub(wrapped), secretPart(key), k)).as("wrapped " + wrapped).isFalse();
                }
            }
        }
    }

    @Test void backslashXEscapesAloneMixedOrEscapedAgainAreFound() {
        String all = HexFormat.of().withPrefix("\\x").formatHex(KEY.getBytes(StandardCharsets.UTF_8));
        assertThat(scrubber.scrub("b'" + all + "'")).isEqualTo("b'[redacted]'");
        assertThat(scrubber.scrub("\"" + all.replace("\\", "\\\\") + "\"")).isEqualTo("\"[redacted]\"");
        StringBuilder mixed = new StringBuilder();
        for (int i = 0; i < KEY.length(); i++) mixed.append(i % 2 == 0 ? String.format("\\x%02X", (int) KEY.charAt(i)) : KEY.substring(i, i + 1));
        assertThat(scrubber.scrub(mixed + " ok")).isEqualTo("[redacted] ok");
    }

    @Test void textThatLooksLikeHexOrBase64ButHoldsNoKeyIsUntouched() {
        List<String> keys = realisticKeys();
        SecretScrubber s = new SecretScrubber(keys);
        Random r = new Random(3);
        byte[] noise = new byte[300_000];
        r.nextBytes(noise);
        List<String> texts = List.of(HexFormat.of().formatHex(noise), HexFormat.ofDelimiter(":").formatHex(noise, 0, 100_000),
                Base64.getMimeEncoder().encodeToString(noise), Base64.getUrlEncoder().encodeToString(noise),
                HexFormat.of().withPrefix("\\x").formatHex(noise, 0, 50_000),
                // the keys' public prefixes and short runs of them, as a text about keys would hold them
                keys.stream().map(k -> "a key like " + k.substring(0, SecretFinder.publicPrefix(k) + 6) + "... or ..."
                        + k.substring(k.length() - 4)).reduce("", String::concat));
        for (String t : texts) assertThat(s.scrub(t)).isSameAs(t);
    }

    @Test void aScrubbingStreamFindsAKeyPrintedOneCharacterALine() {
        for (String key : realisticKeys()) {
            SecretScrubber s = new SecretScrubber(List.of(key));
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            PrintStream out = s.scrubbing(new PrintStream(sink, true, StandardCharsets.UTF_8));
            out.println("the key:");
            for (char c : key.toCharArray()) out.println(c);
            out.println("done");
            out.flush();
            String printed = sink.toString(StandardCharsets.UTF_8);
            assertThat(printed).startsWith("the key:\n").endsWith("done\n").contains(SecretScrubber.MARK);
            // what went out before the key could be told from chance is shorter than what counts
            assertThat(KeyRecovery.holdsRun(printed, secretPart(key), SecretFinder.fragmentLength(key))).as(printed).isFalse();
        }
    }

    @Test void aLongBodyIsReadInPiecesAndAKeyAcrossTheirSeamIsFound() {
        for (int at : List.of(65_536 - 4096 - 5, 65_536 - 10, 65_536 + 3, 3 * 61_440 - 7)) {
            String text = "x".repeat(at) + KEY + "y".repeat(200_000);
            assertThat(scrubber.scrub(text)).as("at " + at).isEqualTo("x".repeat(at) + "[redacted]" + "y".repeat(200_000));
            String spaced = " ".repeat(at) + String.join(" ".repeat(9_000), KEY.split("")) + " end";
            assertThat(scrubber.scrub(spaced)).as("spaced, at " + at).isEqualTo(" ".repeat(at) + "[redacted] end");
        }
    }
}
