package dev.gamagent.reliability;

import dev.gamagent.api.Question;
import dev.gamagent.api.Trace;
import dev.gamagent.engine.ReplyParser;
import dev.gamagent.engine.AnswerExtractor;
import dev.gamagent.gam.Assessment;
import dev.gamagent.gam.ClaimParser;
import dev.gamagent.gam.ParsedResponse;
import dev.gamagent.testing.Fuzz;
import dev.gamagent.testing.FuzzRun;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzing of what reads model replies: the claim parser (answers and critiques), the answer
 * extractor and the baseline reply parser. Any text a model might write must be read without an
 * exception escaping, and what comes back must be usable: an extracted option letter that exists,
 * confidences that are probabilities, regions inside the image.
 */
class ReplyFuzzTest {
    private static final Map<String, String> OPTIONS = new LinkedHashMap<>(Map.of("A", "red", "B", "blue", "C", "green", "D", "a red triangle"));
    private static final Question MC = new Question("q", List.of(), "What colour?", null, OPTIONS);
    private static final Question OPEN = new Question("q", List.of(), "What is written?", null, Map.of());

    @Test void theClaimParserReadsAnyReply() {
        FuzzRun.check("claim parser", Fuzz::reply, ReplyFuzzTest::claims);
    }

    @Test void theAnswerExtractorAndReplyParserReadAnyReply() {
        FuzzRun.check("answer extractor", Fuzz::reply, ReplyFuzzTest::options);
    }

    private static void claims(String text) {
        for (Map<String, String> options : List.of(OPTIONS, Map.<String, String>of())) {
            ParsedResponse p = ClaimParser.parseAnswer(text, options);
            assertThat(p).isNotNull();
            if (p.confidence() != null) assertThat(p.confidence()).as("confidence of %s", text).isBetween(0.0, 1.0);
            for (Trace.Claim c : p.claims()) {
                assertThat(c.confidence()).as("claim confidence of %s", text).isBetween(0.0, 1.0);
                if (c.region() != null) {
                    assertThat(c.region().x0()).isBetween(0.0, 1.0);
                    assertThat(c.region().x1()).isBetween(c.region().x0(), 1.0);
                    assertThat(c.region().y1()).isBetween(c.region().y0(), 1.0);
                }
            }
        }
        List<Assessment> a = ClaimParser.parseCritique(text, 3);
        assertThat(a).isNotNull();
        ClaimParser.critiquePath(text);
    }

    private static void options(String text) {
        AnswerExtractor.Extraction e = AnswerExtractor.extract(text, OPTIONS);
        if (e instanceof AnswerExtractor.Matched m) assertThat(OPTIONS).containsKey(m.letter());
        String letter = AnswerExtractor.option(text, OPTIONS);
        if (letter != null) assertThat(OPTIONS).containsKey(letter);
        ReplyParser.Parsed mc = ReplyParser.parse(text, MC);
        if (mc.option() != null) assertThat(OPTIONS).containsKey(mc.option());
        ReplyParser.parse(text, OPEN);
        ReplyParser.statedAnswer(text);
        ReplyParser.reasoning(text);
    }
}
