package dev.gamagent.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingType;
import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.ChatResult;
import dev.gamagent.backend.Choice;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.image.internal.ImageTokens;
import dev.gamagent.image.Picture;
import dev.gamagent.image.Region;
import dev.gamagent.local.ocr.OcrEngine;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.awt.geom.Rectangle2D;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LocalBackendTest {
    static final String LETTER = "\nAnswer with the option's letter from the given choices directly.";
    static final String LINES = "\nAnswer in this format:\nANSWER: <letter>\nCLAIM 1: <claim> | CONFIDENCE: 0.8 | EVIDENCE: <evidence> | REGION: x0,y0,x1,y1\nCONFIDENCE: <0..1>";

    final BlobSceneAnalyzer vision = new BlobSceneAnalyzer();

    /** A red triangle, a blue circle and a green square in a row. */
    static Picture scene() {
        return new Drawing(400, 300).triangle(Drawing.RED, 80, 150, 40).circle(Drawing.BLUE, 200, 150, 40)
                .square(Drawing.GREEN, 320, 150, 35).picture("scene");
    }

    LocalBackend backend(OcrEngine ocr) { return new LocalBackend(new LocalPerception(ocr, vision, 64)); }

    LocalBackend backend() { return backend(new LayoutOcr()); }

    static ChatRequest ask(String text, Picture pic) { return ChatRequest.of(List.of(ChatMessage.user(text, List.of(pic)))); }

    static String tagged(String role, String task, String question) {
        return "<role>" + role + "</role>\n<task>" + task + "</task>\n<question>\n" + question + "\n</question>";
    }

    static double topMass(TokenLogprob t) {
        return t.top().stream().mapToDouble(a -> Math.exp(a.logprob())).sum();
    }

    static TokenLogprob token(Choice c, String text) {
        return c.logprobs().stream().filter(t -> t.token().strip().equals(text)).findFirst().orElseThrow();
    }

    @Test
    void aColourQuestionIsAnsweredWithTheLetterAndItsOptionDistribution() {
        ChatResult r = backend().chat(ask("What color is the triangle?\nA. blue\nB. red\nC. green" + LETTER, scene()));
        assertThat(r.text()).isEqualTo("B");
        TokenLogprob t = r.first().logprobs().get(0);
        assertThat(t.top()).extracting(TokenLogprob.Alternative::token).containsExactlyInAnyOrder("A", "B", "C");
        assertThat(topMass(t)).isCloseTo(1.0, within(1e-6));
        assertThat(Math.exp(t.logprob())).isGreaterThan(0.9);
    }

    @Test
    void theLineFormatCarriesAClaimWithRegionAndScoredColourWord() {
        Choice c = backend().chat(ask(tagged("scene expert", "answer", "What color is the triangle?\nA. blue\nB. red\nC. green") + LINES, scene())).first();
        assertThat(c.text()).startsWith("ANSWER: B\nCLAIM 1: The triangle is red | CONFIDENCE:").contains("REGION: 0.1").endsWith("\nCONFIDENCE: " + c.text().substring(c.text().length() - 4));
        TokenLogprob red = token(c, "red");
        assertThat(red.top().size()).isGreaterThanOrEqualTo(2);
        assertThat(red.top().get(0).token()).isEqualTo(" red");
    }

    @Test
    void tokensConcatenateToTheTextAndTheChosenTokenIsTheMostProbableAlternative() {
        for (String q : List.of("What color is the triangle?\nA. blue\nB. red", "How many objects are there in the image?\nA. 2\nB. 3\nC. 4",
                "Which object is to the left of the blue circle?\nA. red triangle\nB. green square")) {
            Choice c = backend().chat(ask(tagged("assistant", "answer", q) + LINES, scene())).first();
            StringBuilder sb = new StringBuilder();
            for (TokenLogprob t : c.logprobs()) {
                sb.append(t.token());
                assertThat(t.top()).isNotEmpty();
                assertThat(t.top().get(0).token()).isEqualTo(t.token());
                assertThat(t.top().get(0).logprob()).isEqualTo(t.logprob());
                assertThat(topMass(t)).isLessThanOrEqualTo(1.0 + 1e-9);
            }
            assertThat(sb.toString()).isEqualTo(c.text());
        }
    }

    @Test
    void theSameRequestGetsTheSameReply() {
        LocalBackend b = backend();
        ChatRequest req = ask(tagged("scene expert", "answer", "How many objects are there in the image?\nA. 2\nB. 3\nC. 4") + LINES, scene());
        Choice a = b.chat(req).first(), c = backend().chat(req).first();
        assertThat(c.text()).isEqualTo(a.text());
        assertThat(c.logprobs()).isEqualTo(a.logprobs());
        assertThat(a.text()).startsWith("ANSWER: B\nCLAIM 1: There are 3 objects");
    }

    @Test
    void aQuestionOutsideTheFamiliesGetsAUniformOptionDistribution() {
        TokenLogprob t = backend().chat(ask("Why is the circle sad?\nA. rain\nB. loss\nC. tired\nD. hungry" + LETTER, scene())).first().logprobs().get(0);
        assertThat(t.top()).hasSize(4);
        for (TokenLogprob.Alternative a : t.top()) assertThat(Math.exp(a.logprob())).isCloseTo(0.25, within(1e-9));
        assertThat(t.top().get(0).token()).isEqualTo(t.token());
        java.util.Set<String> picks = new java.util.HashSet<>();
        for (String role : List.of("scene expert", "relational expert", "object expert", "attribute expert", "assistant")) {
            picks.add(backend().chat(ask(tagged(role, "answer", "Why is the circle sad?\nA. rain\nB. loss\nC. tired\nD. hungry") + LETTER, scene())).text());
        }
        assertThat(picks).as("agents that know nothing do not all guess the same letter").hasSizeGreaterThan(1);
        Choice lines = backend().chat(ask(tagged("assistant", "answer", "Why is the circle sad?\nA. rain\nB. loss") + LINES, scene())).first();
        assertThat(lines.text()).contains("Cannot determine the answer").contains("CONFIDENCE: 0.50");
    }

    @Test
    void repeatedCallsPerceiveTheImageOnce() {
        LocalBackend b = backend();
        ChatRequest req = ask("What color is the triangle?\nA. blue\nB. red" + LETTER, scene());
        b.chat(req);
        b.chat(ask(tagged("relational expert", "answer", "Which object is to the left of the blue circle?\nA. red triangle\nB. green square") + LINES, scene()));
        assertThat(vision.sizes).hasSize(1);
        assertThat(b.perception().cache().hits()).isEqualTo(1);
        assertThat(b.perception().cache().misses()).isEqualTo(1);
    }

    @Test
    void countShapeAndSpatialQuestionsAreAnsweredFromTheScene() {
        LocalBackend b = backend();
        assertThat(b.chat(ask("How many objects are there in the image?\nA. 2\nB. 3\nC. 4" + LETTER, scene())).text()).isEqualTo("B");
        assertThat(b.chat(ask("How many circles are there in the image?\nA. 1\nB. 2" + LETTER, scene())).text()).isEqualTo("A");
        assertThat(b.chat(ask("What shape is the green object?\nA. circle\nB. square\nC. star" + LETTER, scene())).text()).isEqualTo("B");
        assertThat(b.chat(ask("Which object is to the left of the blue circle?\nA. green square\nB. red triangle" + LETTER, scene())).text()).isEqualTo("B");
        assertThat(b.chat(ask("Is the green square to the left of or to the right of the red triangle?\nA. left\nB. right" + LETTER, scene())).text()).isEqualTo("B");
        assertThat(b.chat(ask("Which object is nearest to the green square?\nA. red triangle\nB. blue circle" + LETTER, scene())).text()).isEqualTo("B");
    }

    @Test
    void anOpenQuestionGetsAShortAnswer() {
        LocalBackend b = backend();
        assertThat(b.chat(ask("What color is the circle?\nAnswer the question using a single word or phrase.", scene())).text()).isEqualTo("blue");
        assertThat(b.chat(ask("How many objects are there in the image?\nAnswer the question using a single word or phrase.", scene())).text()).isEqualTo("3");
    }

    @Test
    void smallPrintIsReadBetterAtHigherResolution() {
        LayoutOcr ocr = new LayoutOcr(new LayoutOcr.Placed("SALE", new Rectangle2D.Double(0.3, 0.1, 0.4, 0.2)),
                new LayoutOcr.Placed("open daily", new Rectangle2D.Double(0.3, 0.8, 0.3, 0.022)));
        LocalBackend b = backend(ocr);
        String q = "What is written in the small print?\nA. open daily\nB. closed" + LETTER;
        Picture base = scene();
        TokenLogprob low = b.chat(ask(q, base)).first().logprobs().get(0);
        TokenLogprob high = b.chat(ask(q, base.scaled(2.0, 0))).first().logprobs().get(0);
        double pLow = low.top().stream().filter(a -> a.token().equals("A")).mapToDouble(a -> Math.exp(a.logprob())).sum();
        double pHigh = high.top().stream().filter(a -> a.token().equals("A")).mapToDouble(a -> Math.exp(a.logprob())).sum();
        assertThat(pHigh).isGreaterThan(pLow);
        assertThat(high.token()).isEqualTo("A");
        assertThat(b.chat(ask("What word is written on the sign?\nA. stop\nB. sale\nC. sold" + LETTER, base)).text()).isEqualTo("B");
    }

    @Test
    void theOcrExpertDeclaresItselfNotApplicableWithoutText() {
        Choice c = backend().chat(ask(tagged("ocr expert", "answer", "What color is the triangle?\nA. blue\nB. red") + LINES, scene())).first();
        assertThat(c.text()).isEqualTo("ANSWER: NOT APPLICABLE\nREASON: this role reads text; the question is about color, which no text in the image states\nCONFIDENCE: 0.00");
    }

    @Test
    void theOcrExpertDeclaresItselfNotApplicableToANonTextQuestion() {
        LocalBackend b = backend(new LayoutOcr(new LayoutOcr.Placed("SALE", new Rectangle2D.Double(0.3, 0.1, 0.4, 0.2))));
        Choice c = b.chat(ask(tagged("ocr expert", "answer", "What color is the triangle?\nA. blue\nB. red") + LINES, scene())).first();
        assertThat(c.text()).startsWith("ANSWER: NOT APPLICABLE").contains("this role reads text").doesNotContain("CLAIM");
    }

    @Test
    void logProbsFollowTheRequest() {
        ChatRequest req = ask("What color is the triangle?\nA. blue\nB. red" + LETTER, scene());
        assertThat(backend().chat(req.withLogprobs(false, 0)).first().logprobs()).isEmpty();
        Choice chosenOnly = backend().chat(req.withLogprobs(true, 0)).first();
        assertThat(chosenOnly.logprobs()).singleElement().satisfies(t -> assertThat(t.top()).isEmpty());
        assertThat(backend().chat(req.withLogprobs(true, 1)).first().logprobs().get(0).top()).hasSize(1);
    }

    @Test
    void usageCountsPromptTextAndImageTokensLikeAModel() {
        String text = "What color is the triangle?\nA. blue\nB. red" + LETTER;
        ChatResult r = backend().chat(ask(text, scene()));
        long expected = 4 + Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE).countTokens(text)
                + ImageTokens.qwen(400, 300, 3136, 12_845_056);
        assertThat(r.usage().promptTokens()).isEqualTo(expected);
        assertThat(r.usage().completionTokens()).isEqualTo(1);
        assertThat(r.usage().estimated()).isFalse();
    }

    @Test
    void critiqueReexaminesTheClaimedRegionInTheImageAsSent() {
        LocalBackend b = backend();
        String prompt = tagged("fact checker", "critique", "What color is the triangle?\nA. blue\nB. red") + """

                <claims>
                CLAIM 1 [expert=scene-0, confidence=0.55, region=0.1,0.35,0.3,0.65]: The triangle is blue
                CLAIM 2 [expert=scene-0, confidence=0.9, region=0.1,0.35,0.3,0.65]: The triangle is red
                </claims>
                CLAIM n: ACCURATE|PARTIALLY ACCURATE|INACCURATE | REASON: ... | CORRECTION: ... | CONFIDENCE: 0.7""";
        Choice c = b.chat(ask(prompt, scene())).first();
        String[] lines = c.text().split("\n");
        assertThat(lines[0]).startsWith("CLAIM 1: INACCURATE | REASON:").contains("CORRECTION: the triangle is \"red\"");
        assertThat(lines[1]).startsWith("CLAIM 2: ACCURATE | REASON:").contains("CORRECTION: none");
        // it attends to the claim's region of the image as sent: no crop, nothing enlarged
        assertThat(lines[0]).contains("region ").contains("as sent").doesNotContain("enlarged");
        assertThat(vision.sizes).allSatisfy(d -> assertThat(d.width).isEqualTo(400));
        assertThat(token(c, "INACCURATE").top().get(0).token()).isEqualTo(" INACCURATE");
    }

    @Test
    void reviseFollowsWeightedPeersOnlyWhenItsOwnEvidenceIsWeak() {
        LocalBackend b = backend();
        String peers = "\n<peer id=\"a\" weight=\"0.6\">ANSWER: A\nCONFIDENCE: 0.9</peer>\n<peer id=\"b\" weight=\"0.3\">ANSWER: A\nCONFIDENCE: 0.8</peer>";
        String confident = tagged("scene expert", "revise", "What color is the triangle?\nA. blue\nB. red") + peers + LINES;
        assertThat(b.chat(ask(confident, scene())).text()).startsWith("ANSWER: B");
        // A role that looked and found nothing (no text in the image) has no evidence of its own: the peers decide.
        String blind = tagged("assistant", "revise", "What word is written on the sign?\nA. sale\nB. sole")
                + peers.replace("ANSWER: A", "ANSWER: B") + LINES;
        String revised = b.chat(ask(blind, scene())).text();
        assertThat(revised).startsWith("ANSWER: B").contains("REASON: own look found nothing to answer from");
        // A role whose instruments say nothing about the question stays out of it, whatever the peers say.
        String abstains = tagged("ocr expert", "revise", "What color is the triangle?\nA. blue\nB. red") + peers + LINES;
        assertThat(b.chat(ask(abstains, scene())).text()).startsWith("ANSWER: NOT APPLICABLE");
    }

    @Test
    void aRevisionWithTheExpertSchemaHasOnlyTheSchemasFields() throws Exception {
        JsonNode schema = Json.MAPPER.readTree("{\"type\":\"object\",\"properties\":{\"answer\":{\"type\":\"string\"},"
                + "\"claims\":{\"type\":\"array\"},\"confidence\":{\"type\":\"number\"}},\"additionalProperties\":false}");
        String prompt = tagged("relational expert", "revise", "What color is the triangle?\nA. blue\nB. red")
                + "\n<peer id=\"scene\" weight=\"0.70\">ANSWER: B\nCONFIDENCE: 0.95</peer>";
        JsonNode j = Json.MAPPER.readTree(backend().chat(ask(prompt, scene()).withSchema("expert", schema)).text());
        List<String> fields = new java.util.ArrayList<>();
        j.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("answer", "claims", "confidence");
        assertThat(j.path("answer").asText()).isEqualTo("B");
    }

    @Test
    void critiqueChecksTextAndCountClaimsAgainstTheZoomedRegion() {
        LayoutOcr ocr = new LayoutOcr(new LayoutOcr.Placed("SALE", new Rectangle2D.Double(0.3, 0.05, 0.4, 0.15)));
        String prompt = tagged("fact checker", "critique", "What word is written on the sign?\nA. sale\nB. sole") + """

                <claims>
                CLAIM 1 [expert=ocr, confidence=0.50, region=0.3,0.05,0.7,0.2]: The sign reads "SOLE"
                CLAIM 2 [expert=ocr, confidence=0.50, region=0.3,0.05,0.7,0.2]: The sign reads "sale"
                CLAIM 3 [expert=scene, confidence=0.50]: There are 4 objects
                </claims>
                CLAIM n: ACCURATE|PARTIALLY ACCURATE|INACCURATE | REASON: ... | CORRECTION: ... | CONFIDENCE: 0.7""";
        String[] lines = backend(ocr).chat(ask(prompt, scene())).text().split("\n");
        assertThat(lines[0]).startsWith("CLAIM 1: INACCURATE").contains("CORRECTION: the sign reads \"sale\"");
        assertThat(lines[1]).startsWith("CLAIM 2: ACCURATE");
        assertThat(lines[2]).startsWith("CLAIM 3: PARTIALLY ACCURATE").contains("CORRECTION: there are 3 objects");
    }

    @Test
    void aResponseSchemaGetsTheContractsJson() throws Exception {
        ChatRequest req = ask(tagged("scene expert", "answer", "What color is the triangle?\nA. blue\nB. red"), scene())
                .withSchema("answer", Json.MAPPER.readTree("{\"type\":\"object\"}"));
        Choice c = backend().chat(req).first();
        JsonNode j = Json.MAPPER.readTree(c.text());
        assertThat(j.path("answer").asText()).isEqualTo("B");
        assertThat(j.path("claims").get(0).path("text").asText()).isEqualTo("The triangle is red");
        assertThat(j.path("claims").get(0).path("region")).hasSize(4);
        assertThat(j.path("confidence").asDouble()).isGreaterThan(0.5);
    }

    @Test
    void theModeratorSaysWhetherToContinue() {
        LocalBackend b = backend();
        String agree = tagged("moderator", "moderate", "What color is the triangle?\nA. blue\nB. red")
                + "\n<peer id=\"a\" weight=\"0.5\">ANSWER: B\nCONFIDENCE: 0.95</peer>\n<peer id=\"b\" weight=\"0.5\">ANSWER: B\nCONFIDENCE: 0.9</peer>";
        assertThat(b.chat(ask(agree, scene())).text()).startsWith("DECISION: STOP\nANSWER: B");
        String split = tagged("moderator", "moderate", "Why is the circle sad?\nA. rain\nB. loss")
                + "\n<peer id=\"a\" weight=\"0.5\">ANSWER: A\nCONFIDENCE: 0.6</peer>\n<peer id=\"b\" weight=\"0.5\">ANSWER: B\nCONFIDENCE: 0.6</peer>";
        assertThat(b.chat(ask(split, scene())).text()).startsWith("DECISION: CONTINUE");
    }

    @Test
    void severalChoicesAtATemperatureAreDeterministicSamples() {
        ChatRequest req = ask("Why is the circle sad?\nA. rain\nB. loss\nC. tired\nD. hungry" + LETTER, scene()).withSampling(1.0, 16, 6, 7L);
        ChatResult a = backend().chat(req), b = backend().chat(req);
        assertThat(a.choices()).hasSize(6);
        assertThat(a.choices()).extracting(Choice::text).isEqualTo(b.choices().stream().map(Choice::text).toList());
        assertThat(a.choices().stream().map(Choice::text).distinct().count()).isGreaterThan(1);
    }

    @Test
    void requestsThatDifferDrawIndependentSamplesAsFromARealServer() {
        // the sampling fallback draws each expert's (and each probe's) answer n times; with one seed per question the
        // experts drew the same random numbers and their samples agreed or disagreed together
        String q = "Why is the circle sad?\nA. rain\nB. loss\nC. tired\nD. hungry";
        java.util.function.Function<ChatRequest, List<String>> letters = r -> backend().chat(r).choices().stream().skip(1)
                .map(c -> c.text().strip()).toList();
        List<String> scene = letters.apply(ask(tagged("scene expert", "answer", q) + LETTER, scene()).withSampling(1.0, 16, 9, 7L));
        List<String> ocr = letters.apply(ask(tagged("ocr expert", "answer", q) + LETTER, scene()).withSampling(1.0, 16, 9, 7L));
        assertThat(scene).hasSize(8).allMatch(l -> l.matches("[ABCD]"));
        assertThat(scene).isNotEqualTo(ocr);
        assertThat(scene).isEqualTo(letters.apply(ask(tagged("scene expert", "answer", q) + LETTER, scene()).withSampling(1.0, 16, 9, 7L)));
    }

    @Test
    void aFormatWithoutClaimLinesGetsTheFindingsAsReasoningBeforeTheAnswer() {
        String prompt = tagged("assistant", "answer", "What color is the triangle?\nA. blue\nB. red")
                + "\nReply in this format:\nANSWER: <option letter>\nCONFIDENCE: <0..1>";
        String text = backend().chat(ask(prompt, scene())).text();
        assertThat(text).startsWith("The triangle is red (triangle score").contains("\nANSWER: B\nCONFIDENCE: 0.9").doesNotContain("CLAIM");
    }

    @Test
    void aProbeAnswersBriefly() {
        String prompt = tagged("assistant", "probe", "What color is the triangle?\nA. blue\nB. red")
                + "\nAnswer briefly.\nReply in this format:\nANSWER: <option letter>\nCONFIDENCE: <0..1>";
        assertThat(backend().chat(ask(prompt, scene())).text()).matches("ANSWER: B\nCONFIDENCE: 0\\.9\\d");
        String oneLine = tagged("assistant", "probe", "What color is the triangle?\nA. blue\nB. red")
                + "\nAnswer briefly.\nReply with one line:\nANSWER: <option letter>";
        assertThat(backend().chat(ask(oneLine, scene())).text()).isEqualTo("ANSWER: B");
    }

    @Test
    void critiqueClaimsMayCarryTheControllersEvidenceTailAndJsonAssessmentsAreLowerCase() throws Exception {
        String prompt = tagged("fact checker", "critique", "What color is the triangle?\nA. blue\nB. red")
                + "\n<claims>\nCLAIM 1 [expert=scene, confidence=0.40, region=0.10,0.35,0.30,0.65]: The triangle is blue | EVIDENCE: it looks red to me\n</claims>"
                + "\nReply with one JSON object: {\"assessments\": [{\"claim\": n, \"assessment\": \"accurate\" | \"partially accurate\" | \"inaccurate\"}]}";
        JsonNode j = Json.MAPPER.readTree(backend().chat(ask(prompt, scene())).text());
        JsonNode a = j.path("assessments").get(0);
        assertThat(a.path("claim").asInt()).isEqualTo(1);
        assertThat(a.path("assessment").asText()).isEqualTo("inaccurate");
        assertThat(a.path("correction").asText()).isEqualTo("the triangle is \"red\"");
    }

    @Test
    void barChartsAreReadAgainstTheAxisTicksWithMergedLabels() {
        // value = 40 − (y − 40)·10/55: ticks 0..40 every 55 px; bars ab = 20, cd = 30, ef = 10.
        List<dev.gamagent.local.ocr.TextLine> lines = new java.util.ArrayList<>();
        int[] ys = {260, 205, 150, 95, 40};
        // Tick labels as the recogniser reads them: "30-" (tick mark as a dash), "404" (tick mark as a digit).
        String[] ticks = {"0", "10", "20", "30-", "404"};
        for (int i = 0; i < ys.length; i++) lines.add(LayoutOcr.line(ticks[i], new java.awt.Rectangle(30, ys[i] - 6, 20, 12)));
        lines.add(LayoutOcr.line("ab cd ef", new java.awt.Rectangle(85, 266, 190, 14)));
        var bars = List.of(new dev.gamagent.local.vision.Scene.Bar(new java.awt.Rectangle(80, 150, 40, 110), "blue"),
                new dev.gamagent.local.vision.Scene.Bar(new java.awt.Rectangle(160, 95, 40, 165), "blue"),
                new dev.gamagent.local.vision.Scene.Bar(new java.awt.Rectangle(240, 205, 40, 55), "blue"));
        var chart = new dev.gamagent.local.vision.Scene.Chart(bars, new java.awt.Rectangle(60, 40, 320, 220), 260);
        Perception p = new Perception(400, 300, new dev.gamagent.local.vision.Scene(400, 300, List.of(), chart), lines);
        FamilyReasoner r = new FamilyReasoner();
        assertThat(r.combine(QuestionReader.recognize("Which bar is the tallest?"), List.of(p), List.of("ab", "cd", "ef")).answer().best()).isEqualTo("cd");
        assertThat(r.combine(QuestionReader.recognize("Which bar is the shortest?"), List.of(p), List.of("ab", "cd", "ef")).answer().best()).isEqualTo("ef");
        Judgement value = r.combine(QuestionReader.recognize("What is the value of the bar labeled ab?"), List.of(p), List.of("10", "20", "30"));
        assertThat(value.answer().best()).isEqualTo("20");
        assertThat(value.answer().bestProbability()).isGreaterThan(0.9);
        assertThat(r.combine(QuestionReader.recognize("Which is larger, ef or ab?"), List.of(p), List.of("ef", "ab")).answer().best()).isEqualTo("ab");
        assertThat(r.combine(QuestionReader.recognize("What is the value of the bar labeled cd?"), List.of(p), List.of()).answer().best()).isEqualTo("30");
    }

    @Test
    void severalViewsOfOneImageAreCombined() {
        Picture base = scene();
        ChatRequest req = ChatRequest.of(List.of(ChatMessage.user("What color is the triangle?\nA. blue\nB. red" + LETTER,
                List.of(base.scaled(0.5, 0), base))));
        assertThat(backend().chat(req).text()).isEqualTo("B");
        assertThat(vision.sizes).extracting(d -> d.width).containsExactlyInAnyOrder(200, 400);
    }

    @Test
    void optionDistributionsAreProbabilityDistributions() {
        FamilyReasoner r = new FamilyReasoner();
        Perception p = new LocalPerception(new LayoutOcr(), vision, 4).perceive(scene());
        for (String q : List.of("What color is the triangle?", "How many objects are there in the image?", "What shape is the red object?",
                "Which object is above the blue circle?", "Is the red triangle above or below the green square?", "Why?")) {
            Judgement j = r.combine(QuestionReader.recognize(q), List.of(p), List.of("red", "3", "triangle", "green square", "above"));
            double sum = 0;
            for (double x : j.answer().probabilities()) { assertThat(x).isBetween(0.0, 1.0); sum += x; }
            assertThat(sum).as(q).isCloseTo(1.0, within(1e-9));
        }
    }

    static final String SHORT = "\nAnswer the question using a single word or phrase.";

    @Test
    void anOpenQuestionThisModelCannotReadGetsAnUncertainCannotDetermineNeverAConfidentOne() {
        Choice c = backend().chat(ask("Why is the triangle sad?" + SHORT, scene())).first();
        assertThat(c.text()).isEqualTo("cannot determine");
        assertThat(Math.exp(c.logprobs().get(0).logprob())).isCloseTo(1.0 / Judgement.OPEN_ALTERNATIVES, within(1e-9));
        assertThat(dev.gamagent.uncertainty.UncertaintyEstimator.defaults().estimate(c).value()).isGreaterThan(0.9);
    }

    @Test
    void aMultipleChoiceQuestionThisModelCannotReadGetsAUniformAnswer() {
        Choice c = backend().chat(ask("Why is the triangle sad?\nA. red\nB. blue\nC. green" + LETTER, scene())).first();
        assertThat(Math.exp(c.logprobs().get(0).logprob())).isCloseTo(1.0 / 3, within(1e-9));
        assertThat(dev.gamagent.uncertainty.UncertaintyEstimator.defaults().estimate(c).value()).isGreaterThan(0.85);
    }

    @Test
    void anObjectPlacedRatherThanNamedIsFound() {
        assertThat(backend().chat(ask("Which shape is on the right?" + SHORT, scene())).text()).isEqualTo("square");
        assertThat(backend().chat(ask("What colour is the object on the left?\nA. Green\nB. RED\nC. blue" + LETTER, scene())).text()).isEqualTo("B");
        assertThat(backend().chat(ask("Is the blue circle left or right of the red triangle?\nA. on the left\nB. on the right" + LETTER, scene())).text())
                .isEqualTo("B");
    }

    @Test
    void wordsTheModelDoesNotReadLowerItsConfidenceButNotItsAnswer() {
        Choice clear = backend().chat(ask("What colour is the triangle?\nA. blue\nB. red\nC. green" + LETTER, scene())).first();
        Choice fuzzy = backend().chat(ask("What colour is the triangle, roughly speaking, in daylight?\nA. blue\nB. red\nC. green" + LETTER, scene())).first();
        assertThat(fuzzy.text()).isEqualTo(clear.text()).isEqualTo("B");
        double pClear = Math.exp(clear.logprobs().get(0).logprob()), pFuzzy = Math.exp(fuzzy.logprobs().get(0).logprob());
        assertThat(pFuzzy).isCloseTo(0.25 * pClear + 0.75 / 3, within(1e-9));
    }
}
