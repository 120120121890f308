package dev.gamagent.local;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.image.Picture;
import dev.gamagent.local.vision.ClassicalSceneAnalyzer;
import dev.gamagent.local.vision.CoreSegmenter;
import dev.gamagent.local.vision.Surfaces;
import org.junit.jupiter.api.Test;

import java.awt.Color;
import java.awt.Rectangle;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The built-in model as a panel: experts with their own instruments, critics that re-perceive, revision from evidence. */
class PanelTest {
    static final String LINES = "\nReply in exactly this format:\nANSWER: <the option letter>\nCLAIM 1: <claim> | CONFIDENCE: <0..1> | EVIDENCE: <evidence> | REGION: x0,y0,x1,y1\nCONFIDENCE: <0..1 overall>";

    static String tagged(String role, String task, String question) {
        return "<role>" + role + "</role>\n<task>" + task + "</task>\n<question>\n" + question + "\n</question>";
    }

    static ChatRequest ask(String text, Picture pic) { return ChatRequest.of(List.of(ChatMessage.user(text, List.of(pic)))); }

    /** A blue sign board with its text box inside, and a larger word on the white background below it. */
    static Picture signScene() {
        BufferedImage img = new BufferedImage(400, 300, BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, 400, 300);
        g.setColor(new Color(40, 80, 200));
        g.fillRoundRect(120, 40, 160, 60, 10, 10);
        g.dispose();
        return new Picture("sign", img);
    }

    /** The OCR of {@link #signScene}: "OPEN" inside the board (small), "OCEAN" on the background (larger). */
    static LayoutOcr signOcr() {
        return new LayoutOcr(new LayoutOcr.Placed("OPEN", new Rectangle2D.Double(0.40, 0.20, 0.20, 0.05)),
                new LayoutOcr.Placed("OCEAN", new Rectangle2D.Double(0.35, 0.60, 0.30, 0.08)));
    }

    static LocalBackend backend(LayoutOcr ocr) { return new LocalBackend(new LocalPerception(ocr, new BlobSceneAnalyzer(), 32)); }

    @Test
    void theDefaultExpertsGiveAtLeastTwoEvidenceBasedAnswersOnEveryFamily() {
        List<Expertise> defaults = List.of(Expertise.of("scene expert"), Expertise.of("ocr expert"), Expertise.of("relational expert"));
        assertThat(defaults).containsExactly(Expertise.SCENE, Expertise.TEXT, Expertise.RELATIONS);
        for (String q : List.of("What word is written on the sign?", "How many circles are there in the image?", "What color is the square?",
                "What shape is the red object?", "Which object is left of the red circle?", "Which bar is the tallest?")) {
            QuestionFamily f = QuestionReader.recognize(q);
            assertThat(defaults.stream().filter(e -> e.examines(f)).count()).as(q).isGreaterThanOrEqualTo(2);
        }
        assertThat(Expertise.of("voter")).isEqualTo(Expertise.GENERAL);
        assertThat(Expertise.of("answerer")).isEqualTo(Expertise.GENERAL);
    }

    @Test
    void theCoreSegmenterSplitsTouchingObjectsOfOneColourThatTheClassicalAnalyserMerges() {
        // Two red circles whose centres are 0.7 of the sum of their radii apart: one blob of one colour.
        Picture pic = new Drawing(300, 200).circle(Drawing.RED, 120, 100, 30).circle(Drawing.RED, 162, 100, 30)
                .square(Drawing.BLUE, 250, 60, 20).picture("touching");
        assertThat(new ClassicalSceneAnalyzer().analyze(pic.image()).objects()).hasSize(2);
        var cores = new CoreSegmenter().analyze(pic.image()).objects();
        assertThat(cores).hasSize(3);
        assertThat(cores.stream().filter(o -> o.color().equals("red")).count()).isEqualTo(2);
    }

    @Test
    void textOnASignIsOnABoundedSurfaceAndAWordBesideItIsNot() {
        Surfaces s = new Surfaces(signScene().image());
        Surfaces.Surface board = s.around(new Rectangle(160, 60, 80, 15));
        assertThat(board.bounded()).isTrue();
        assertThat(board.box().x).isBetween(118, 122);
        assertThat(board.box().width).isBetween(156, 162);
        assertThat(s.around(new Rectangle(140, 180, 120, 24)).bounded()).isFalse();
    }

    @Test
    void thePlainAnswerAndTheSceneExpertAlikeReadTheSignNotTheLargerWordBesideIt() {
        LocalBackend b = backend(signOcr());
        String q = "What word is written on the sign?\nA. ocean\nB. open";
        // no role has an instrument the plain call lacks: it too asks which text is on the sign (issue 39)
        assertThat(b.chat(ask(q + "\nAnswer with the option's letter from the given choices directly.", signScene())).text()).isEqualTo("B");
        String scene = b.chat(ask(tagged("scene expert", "answer", q) + LINES, signScene())).text();
        assertThat(scene).startsWith("ANSWER: B\nCLAIM 1: The sign reads \"open\"").contains("on a bounded surface").contains("\"OCEAN\" on the open background");
        assertThat(b.chat(ask(tagged("relational expert", "answer", q) + LINES, signScene())).text()).startsWith("ANSWER: NOT APPLICABLE");
    }

    @Test
    void theFactCheckerFindsAClaimedWordOffTheSignAndNamesTheSignsWord() {
        LocalBackend b = backend(signOcr());
        String prompt = tagged("fact checker", "critique", "What word is written on the sign?\nA. ocean\nB. open") + """

                <claims>
                CLAIM 1 [expert=ocr, confidence=0.90, region=0.35,0.60,0.65,0.68]: The sign reads "ocean"
                CLAIM 2 [expert=scene, confidence=0.60, region=0.30,0.13,0.70,0.34]: The sign reads "open"
                </claims>
                CLAIM n: ACCURATE|PARTIALLY ACCURATE|INACCURATE | REASON: ... | CORRECTION: ... | CONFIDENCE: <0..1>""";
        String[] lines = b.chat(ask(prompt, signScene())).text().split("\n");
        // (The layout OCR places its words at the same relative places in any crop, so only the decoy's crop is checked here;
        // RealPanelTest reads real crops.)
        assertThat(lines[0]).startsWith("CLAIM 1: INACCURATE").contains("as sent").contains("on the open background");
        // The completeness checker looks at the whole image: the sign's word was overlooked by claim 1.
        String completeness = b.chat(ask(prompt.replace("fact checker", "completeness checker"), signScene())).text();
        assertThat(completeness.split("\n")[0]).startsWith("CLAIM 1: INACCURATE").contains("CORRECTION: the sign reads \"open\"");
    }

    @Test
    void anExpertRevisingWeighsTheCriticsEvidenceAndSaysWhichCritiquesItWeighed() {
        LocalBackend b = backend(signOcr());
        String q = "What word is written on the sign?\nA. ocean\nB. open";
        // Its previous answer was "ocean"; the critics re-examined and found otherwise.
        String critiques = """

                <previous>
                ANSWER: A. ocean
                CONFIDENCE: 0.70
                </previous>
                <critique critic="fact">CLAIM by agent: The sign reads "ocean" | INACCURATE | REASON: not on the sign | CORRECTION: the sign reads "open" | CONFIDENCE: 0.90</critique>
                <critique critic="completeness">CLAIM by agent: The sign reads "ocean" | INACCURATE | REASON: overlooks the board | CORRECTION: the sign reads "open" | CONFIDENCE: 0.85</critique>
                """;
        String revised = b.chat(ask(tagged("assistant", "revise", q) + critiques + LINES, signScene())).text();
        assertThat(revised).startsWith("ANSWER: B").contains("fact found the claim for ocean inaccurate")
                .contains("completeness found the claim for ocean inaccurate").contains("before, I answered ocean");
        // One confident peer alone does not carry an expert whose own reading is clear.
        String peers = "\n<peer id=\"x\" weight=\"0.9\">ANSWER: A\nCONFIDENCE: 0.99</peer>";
        assertThat(b.chat(ask(tagged("scene expert", "revise", q) + peers + LINES, signScene())).text()).startsWith("ANSWER: B");
    }

    @Test
    void critiquesMultiplyTheExpertsOwnEvidenceAndTwoAgreeingCriticsOutweighAFourToOneReading() {
        Distribution own = Distribution.of(List.of("a", "b", "c"), new double[]{0.8, 0.2, 0.0});
        Revision.Evidence against = new Revision.Evidence("fact", "a", 0.2, "b", "INACCURATE");
        assertThat(Revision.revise(own, List.of(against)).answer().best()).isEqualTo("a");
        Revision.Result two = Revision.revise(own, List.of(against, new Revision.Evidence("completeness", "a", 0.2, "b", "INACCURATE")));
        assertThat(two.answer().best()).isEqualTo("b");
        assertThat(two.used()).hasSize(2);
        // L(a) = 0.9·0.2 + 0.1/3, L(b) = 0.9·0.8 + 0.1/3, L(c) = 0.1/3 (the correction names b): p(b)/p(a) = 0.2·Lb² / (0.8·La²).
        double la = 0.9 * 0.2 + 0.1 / 3, lb = 0.9 * 0.8 + 0.1 / 3;
        assertThat(two.answer().p("b") / two.answer().p("a")).isCloseTo(0.2 * lb * lb / (0.8 * la * la), org.assertj.core.api.Assertions.within(0.3));
        // A critique of an option the expert does not hold as an option changes nothing.
        assertThat(Revision.revise(own, List.of(new Revision.Evidence("fact", "z", 0.0, null, "INACCURATE"))).used()).isEmpty();
    }

    @Test
    void critiquesAreParsedIntoTheOptionTheClaimStatesAndTheOneTheCorrectionNames() {
        ParsedPrompt p = PromptReader.read(tagged("scene expert", "revise", "How many stars are there?\nA. 7\nB. 8\nC. 9")
                + "\n<critique critic=\"fact\">CLAIM by relational: There are 8 stars | INACCURATE | REASON: counted 9 at 2x | CORRECTION: the count is \"9\" | CONFIDENCE: 0.75</critique>"
                + "\n<critique critic=\"logic\">CLAIM by scene: There are 7 stars | ACCURATE | REASON: ok | CORRECTION: none | CONFIDENCE: 0.60</critique>"
                + "\n<critique critic=\"logic\">ALL CLAIMS | ACCURATE | CONFIDENCE: 0.9</critique>", List.of(), null);
        List<Revision.Evidence> ev = Revision.evidence(p);
        assertThat(ev).hasSize(2);
        assertThat(ev.get(0).claimed()).isEqualTo("8");
        assertThat(ev.get(0).corrected()).isEqualTo("9");
        assertThat(ev.get(0).truth()).isEqualTo(0.25, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(ev.get(1).claimed()).isEqualTo("7");
        assertThat(ev.get(1).corrected()).isNull();
    }

    @Test
    void aClaimStatesTheOptionItNamesLastOrQuotes() {
        List<String> opts = List.of("green star", "red square", "star");
        assertThat(OptionText.named("The object left of the red square is the green star", opts)).isEqualTo("green star");
        assertThat(OptionText.named("The label reads \"Tickat\"", List.of("ticket", "pocket"))).isEqualTo("ticket");
        assertThat(OptionText.named("There are 18 objects", List.of("8", "9"))).isNull();
        assertThat(OptionText.named("The red circle is to the left of the blue square", List.of("left", "right"))).isEqualTo("left");
    }
}
