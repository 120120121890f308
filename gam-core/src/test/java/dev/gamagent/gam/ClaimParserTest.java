package dev.gamagent.gam;

import dev.gamagent.image.Region;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ClaimParserTest {
    private static final Map<String, String> OPTS = Map.of("A", "red", "B", "blue");

    @Test void jsonInsideACodeFenceIsReadWithClaimsEvidenceAndRegions() {
        String text = """
                ```json
                {"answer": "B", "claims": [{"text": "The triangle is blue", "confidence": 0.8,
                  "evidence": "blue pixels", "region": [0.1, 0.2, 0.5, 0.6]}], "confidence": 0.75}
                ```""";
        ParsedResponse p = ClaimParser.parseAnswer(text, OPTS);
        assertThat(p.parse()).isEqualTo("json");
        assertThat(p.answer()).isEqualTo("B");
        assertThat(p.confidence()).isCloseTo(0.75, within(1e-12));
        assertThat(p.claims()).singleElement().satisfies(c -> {
            assertThat(c.text()).isEqualTo("The triangle is blue");
            assertThat(c.confidence()).isCloseTo(0.8, within(1e-12));
            assertThat(c.evidence()).isEqualTo("blue pixels");
            assertThat(c.region()).isEqualTo(new Region(0.1, 0.2, 0.5, 0.6));
        });
    }

    @Test void theLineFormatIsReadWhenThereIsNoJson() {
        String text = """
                ANSWER: B
                CLAIM 1: The triangle is blue | CONFIDENCE: 80% | EVIDENCE: its fill colour | REGION: 0.1,0.2,0.5,0.6
                CLAIM 2: Nothing else is blue | CONFIDENCE: 0.4
                CONFIDENCE: 0.7""";
        ParsedResponse p = ClaimParser.parseAnswer(text, OPTS);
        assertThat(p.parse()).isEqualTo("lines");
        assertThat(p.answer()).isEqualTo("B");
        assertThat(p.confidence()).isCloseTo(0.7, within(1e-12));
        assertThat(p.claims()).hasSize(2);
        assertThat(p.claims().get(0).confidence()).isCloseTo(0.8, within(1e-12));
        assertThat(p.claims().get(0).region()).isEqualTo(new Region(0.1, 0.2, 0.5, 0.6));
        assertThat(p.claims().get(1).evidence()).isNull();
    }

    @Test void freeProseFallsBackToTheOptionExtractorAndSentenceClaims() {
        ParsedResponse p = ClaimParser.parseAnswer("The triangle looks blue. So the answer is B.", OPTS);
        assertThat(p.parse()).isEqualTo("prose");
        assertThat(p.answer()).isEqualTo("B");
        assertThat(p.claims()).hasSize(2);
        ParsedResponse open = ClaimParser.parseAnswer("The answer is a red bicycle.\nIt leans on the wall.", Map.of());
        assertThat(open.answer()).isEqualTo("a red bicycle");
    }

    @Test void anUnreadableReplyGivesNoClaimsAndParseNone() {
        assertThat(ClaimParser.parseAnswer("", OPTS).parse()).isEqualTo("none");
        assertThat(ClaimParser.parseAnswer(null, OPTS).parse()).isEqualTo("none");
        ParsedResponse p = ClaimParser.parseAnswer("{\"answer\": [broken", OPTS);
        assertThat(p.parse()).isEqualTo("none");
        assertThat(p.claims()).isEmpty();
        assertThat(ClaimParser.parseAnswer("I like turtles.", OPTS).parse()).isEqualTo("none");
    }

    @Test void anExpertSayingItDoesNotApplyIsFlagged() {
        assertThat(ClaimParser.parseAnswer("ANSWER: NOT APPLICABLE\nCONFIDENCE: 0.9", OPTS).notApplicable()).isTrue();
        assertThat(ClaimParser.parseAnswer("There is no text in the image.", OPTS).notApplicable()).isTrue();
        assertThat(ClaimParser.parseAnswer("{\"answer\":\"N/A\",\"claims\":[],\"confidence\":1}", OPTS).notApplicable()).isTrue();
        assertThat(ClaimParser.parseAnswer("ANSWER: B", OPTS).notApplicable()).isFalse();
    }

    @Test void critiquesAreReadFromJsonLinesAndProse() {
        String json = "{\"assessments\":[{\"claim\":2,\"assessment\":\"inaccurate\",\"reason\":\"it is red\",\"correction\":\"red\",\"confidence\":0.9}]}";
        assertThat(ClaimParser.parseCritique(json, 3)).singleElement().satisfies(a -> {
            assertThat(a.claim()).isEqualTo(2);
            assertThat(a.assessment()).isEqualTo("inaccurate");
            assertThat(a.correction()).isEqualTo("red");
        });
        assertThat(ClaimParser.critiquePath(json)).isEqualTo("json");
        String lines = "CLAIM 1: PARTIALLY ACCURATE | REASON: only half | CORRECTION: none | CONFIDENCE: 0.6\n"
                + "CLAIM 2: ACCURATE | REASON: fine | CONFIDENCE: 0.9\nCLAIM 9: INACCURATE | REASON: out of range";
        var ls = ClaimParser.parseCritique(lines, 2);
        assertThat(ls).extracting(Assessment::assessment).containsExactly("partially accurate", "accurate");
        assertThat(ls.get(0).correction()).isNull();
        assertThat(ClaimParser.parseCritique("All of these claims are accurate as far as I can see.", 2))
                .singleElement().satisfies(a -> assertThat(a.claim()).isZero());
        assertThat(ClaimParser.parseCritique("hmm", 2)).isEmpty();
        assertThat(ClaimParser.critiquePath("hmm")).isEqualTo("none");
    }

    /** Found by ReplyFuzzTest: an empty claim line and a claim number too long for an int threw instead of being read. */
    @Test void anEmptyClaimLineAndAnOverlongClaimNumberAreReadNotThrown() {
        assertThat(ClaimParser.parseAnswer("ANSWER: B\nCLAIM 2: |", OPTS).answer()).isEqualTo("B");
        assertThat(ClaimParser.parseAnswer("ANSWER: B\nCLAIM 99999999999: The triangle is blue", OPTS).claims())
                .singleElement().satisfies(c -> assertThat(c.text()).isEqualTo("The triangle is blue"));
        assertThat(ClaimParser.parseCritique("CLAIM 1: |", 2)).isNotNull();
        assertThat(ClaimParser.parseCritique("CLAIM 12345678901: supported | REASON: fine", 2)).isNotNull();
    }

    @Test void anAnswerThatOnlyDeclinesIsToldApartFromOneThatHedges() {
        for (String no : List.of("cannot determine", "Cannot be determined.", "I cannot tell from the image", "It is impossible to say",
                "unable to read the sign", "Unknown.", "I don't know", "not sure", "It's unclear"))
            assertThat(dev.gamagent.influence.Consensus.declines(no)).as(no).isTrue();
        for (String yes : List.of("square", "Unknown soldier", "I cannot read it, but it says STOP", "cannot determine exactly; probably 3",
                "The sign probably reads STOP", "a red triangle, though I cannot tell its size for sure from this small image at all", ""))
            assertThat(dev.gamagent.influence.Consensus.declines(yes)).as(yes).isFalse();
    }

    @Test void aClaimNamesItsFrameInTheLineFormatAndInJson() {
        String lines = """
                ANSWER: A
                CLAIM 1: The ball is on the left | CONFIDENCE: 0.8 | EVIDENCE: red disc | REGION: 0.1,0.4,0.3,0.6 | FRAME: 2
                CLAIM 2: Later it is on the right | CONFIDENCE: 0.7 | FRAME: 7 | EVIDENCE: red disc at the right edge
                CLAIM 3: It moves right | CONFIDENCE: 0.6
                CONFIDENCE: 0.7""";
        ParsedResponse p = ClaimParser.parseAnswer(lines, OPTS);
        assertThat(p.claims()).extracting(c -> c.frame()).containsExactly(2, 7, null);
        assertThat(p.claims().get(1).evidence()).isEqualTo("red disc at the right edge");
        String json = "{\"answer\":\"A\",\"claims\":[{\"text\":\"left\",\"confidence\":0.8,\"region\":[0,0,0.5,0.5],\"frame\":3},"
                + "{\"text\":\"right\",\"frame\":\"frame 5\"},{\"text\":\"moves\"},{\"text\":\"half\",\"frame\":2.5}],\"confidence\":0.7}";
        assertThat(ClaimParser.parseAnswer(json, OPTS).claims()).extracting(c -> c.frame()).containsExactly(3, 5, null, null);
        // the frame is scaffolding, not content, for Φ_gen's content scoring
        String one = "ANSWER: A\nCLAIM 1: left | FRAME: 2";
        assertThat(ClaimParser.contentSpans(one)).extracting(r -> one.substring(r[0], r[1])).containsExactly("A", "left");
    }

    @Test void aFrameOutsideTheRequestIsIgnoredWithANoteNeverACrash() {
        String text = """
                ANSWER: A
                CLAIM 1: left | FRAME: 0
                CLAIM 2: right | FRAME: 9
                CLAIM 3: moving | FRAME: 4
                CLAIM 4: huge | FRAME: 99999999999""";
        ParsedResponse p = ClaimParser.parseAnswer(text, OPTS).withFramesWithin(8);
        assertThat(p.claims()).extracting(c -> c.frame()).containsExactly(null, null, 4, null);
        assertThat(p.notes()).containsExactly(
                "claim 1 names frame 0 but the request has 8 images (frames 1..8): frame ignored",
                "claim 2 names frame 9 but the request has 8 images (frames 1..8): frame ignored");
        assertThat(p.claims().get(1).text()).isEqualTo("right");
        ParsedResponse single = ClaimParser.parseAnswer("ANSWER: A\nCLAIM 1: left | FRAME: 2", OPTS).withFramesWithin(1);
        assertThat(single.claims().get(0).frame()).isNull();
        assertThat(single.notes()).containsExactly("claim 1 names frame 2 but the request has 1 image (frames 1..1): frame ignored");
    }
}
