package dev.gamagent.local;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.backend.Choice;
import dev.gamagent.image.Picture;
import org.junit.jupiter.api.Test;

import java.awt.Color;
import java.awt.Dimension;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The built-in model as a fair testbed (docs/local-model.md, "A fair testbed"): what it sees depends on the request
 * alone, sampling draws the look and the answer, and shown other answers it looks again and weighs them.
 */
class TestbedBehaviourTest {
    static final String SIGN = "What word is written on the sign?\nA. sale\nB. sole";
    static final String LINES = "\nReply in this format:\nANSWER: <option letter>\nCONFIDENCE: <0..1>";
    static final String LETTER = "\nAnswer with the option's letter from the given choices directly.";

    /** The two readers read the one word differently: PP-OCRv4's stand-in "SALE", PP-OCRv3's "SOLE". */
    final LayoutOcr v4 = new LayoutOcr(new LayoutOcr.Placed("SALE", new Rectangle2D.Double(0.35, 0.1, 0.3, 0.08)));
    final LayoutOcr v3 = new LayoutOcr(new LayoutOcr.Placed("SOLE", new Rectangle2D.Double(0.35, 0.1, 0.3, 0.08)));
    final BlobSceneAnalyzer classical = new BlobSceneAnalyzer(), cores = new BlobSceneAnalyzer();

    LocalBackend backend(Calibration c) {
        return new LocalBackend(new LocalPerception(v4, () -> v3, classical, cores, 64), c);
    }

    LocalBackend backend() { return backend(Calibration.DEFAULT); }

    static Picture sign() {
        BufferedImage img = new BufferedImage(400, 300, BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, 400, 300);
        g.setColor(new Color(200, 40, 40));
        g.fillRect(60, 150, 80, 80);
        g.dispose();
        return new Picture("sign", img);
    }

    static ChatRequest ask(String text) { return ChatRequest.of(List.of(ChatMessage.user(text, List.of(sign())))); }

    static String tagged(String role, String task, String question) {
        return "<role>" + role + "</role>\n<task>" + task + "</task>\n<question>\n" + question + "\n</question>";
    }

    static Set<String> letters(List<Choice> choices) {
        Set<String> out = new HashSet<>();
        for (Choice c : choices) {
            String t = c.text().strip();
            out.add(t.contains("ANSWER:") ? t.replaceAll("(?s).*ANSWER:\\s*([A-Z]).*", "$1") : t);
        }
        return out;
    }

    @Test
    void aPlainGreedyCallReadsWithBothReadersAtTheImagesOwnSize() {
        LocalBackend b = backend();
        String reply = b.chat(ask(SIGN + LINES)).text();
        // the two readers disagree ("sale" / "sole"), each counting half: the answer is far from sure
        assertThat(v4.calls.get()).isEqualTo(1);
        assertThat(v3.calls.get()).isEqualTo(1);
        assertThat(classical.sizes).containsOnly(new Dimension(400, 300));
        assertThat(cores.sizes).isEmpty();
        double confidence = Double.parseDouble(reply.replaceAll("(?s).*CONFIDENCE:\\s*([0-9.]+).*", "$1"));
        assertThat(confidence).isLessThan(0.7);
    }

    @Test
    void aRoleLeansOnItsOwnReader() {
        LocalBackend b = backend();
        assertThat(b.chat(ask(tagged("ocr expert", "answer", SIGN) + LINES)).text()).contains("ANSWER: A");
        assertThat(b.chat(ask(tagged("scene expert", "answer", SIGN) + LINES)).text()).contains("ANSWER: B");
    }

    @Test
    void theSameRoleTextGetsTheSameInstrumentsWhicheverPromptCarriesIt() {
        LocalBackend b = backend();
        String asExpert = tagged("scene expert", "answer", SIGN) + "\nCheck the image for text on signs." + LINES;
        String asDebater = tagged("scene expert", "answer", SIGN) + "\nYou are agent-2, one of several agents." + LINES;
        String expert = b.chat(ask(asExpert)).text(), debater = b.chat(ask(asDebater)).text();
        assertThat(expert).contains("ANSWER: B");
        assertThat(debater).contains("ANSWER: B");
        // the scene expert leans on PP-OCRv3 ("sole") whatever prompt carries its role, with the same confidence
        assertThat(expert.replaceAll("(?s).*CONFIDENCE: ", "")).isEqualTo(debater.replaceAll("(?s).*CONFIDENCE: ", ""));
    }

    @Test
    void aRoleIsReadByItsWordsNotByLettersInsideOtherWords() {
        // "context" holds "text": read as the OCR expert, the role abstained from a colour question
        String q = "What color is the square?\nA. red\nB. blue";
        String reply = backend().chat(ask(tagged("context checker", "answer", q) + LINES)).text();
        assertThat(reply).contains("ANSWER: A").doesNotContain("NOT APPLICABLE");
        assertThat(Expertise.of("context checker")).isEqualTo(Expertise.GENERAL);
        assertThat(Expertise.of("OCR expert")).isEqualTo(Expertise.TEXT);
        assertThat(Expertise.of("text reader")).isEqualTo(Expertise.TEXT);
    }

    @Test
    void everyChoiceOfASampledRequestDrawsItsOwnLookAndThenItsAnswer() {
        List<Choice> choices = backend().chat(ask(SIGN + LETTER).withSampling(0.7, 16, 16, 5L)).choices();
        assertThat(choices).hasSize(16);
        // some choices read with PP-OCRv3 ("sole"), some with PP-OCRv4 ("sale")
        assertThat(letters(choices)).containsExactlyInAnyOrder("A", "B");
        assertThat(v3.calls.get()).isEqualTo(1);
        assertThat(v4.calls.get()).isEqualTo(1);
    }

    @Test
    void theFirstChoiceOfASampledRequestIsASampleToo() {
        String q = "Why is the square sad?\nA. rain\nB. loss\nC. tired\nD. hungry" + LETTER;
        Set<String> first = new HashSet<>();
        for (long seed = 1; seed <= 12; seed++) first.add(backend().chat(ask(q).withSampling(0.7, 16, 1, seed)).text().strip());
        assertThat(first.size()).isGreaterThan(1);
    }

    @Test
    void sampledLooksArePerceivedOncePerImageAndLookWhateverTheRequest() {
        LocalBackend b = backend();
        b.chat(ask(SIGN + LETTER).withSampling(1.0, 16, 30, 3L));
        long ocr = b.perception().ocrPasses(), scenes = b.perception().sceneAnalyses();
        // text is read once per reader; objects once per scale, segmentation and threshold level
        assertThat(ocr).isEqualTo(2);
        assertThat(scenes).isLessThanOrEqualTo(Calibration.SCALES.size() * 2 * 3);
        b.chat(ask("<role>voter</role>\n" + SIGN + LETTER).withSampling(1.0, 16, 30, 4L));
        assertThat(b.perception().ocrPasses()).isEqualTo(ocr);
        assertThat(b.perception().sceneAnalyses()).isLessThanOrEqualTo(Calibration.SCALES.size() * 2 * 3);
    }

    @Test
    void aDrawnLookIsOneOfTheRolesReadingsAndThePlainCallsDrawsEveryInstrument() {
        Calibration still = new Calibration(1, 0, 0, 0.5, 0.5, 0.5);
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < 20; i++) assertThat(Look.draw(Expertise.SCENE, r, still)).isEqualTo(Look.of(Expertise.SCENE, still));
        // with the default focus a role's own reader is drawn about three times in four
        int own = 0;
        for (int i = 0; i < 400; i++) if (Look.draw(Expertise.SCENE, r, Calibration.DEFAULT).v4() == 0) own++;
        assertThat(own).isBetween(260, 340);
        Set<Look> plain = new HashSet<>();
        for (int i = 0; i < 200; i++) plain.add(Look.draw(Expertise.GENERAL, r, still));
        assertThat(plain).hasSize(4); // each reader with each segmentation
        assertThat(Look.of(Expertise.GENERAL, still)).isEqualTo(new Look(0.5, 0.5, 1.0, 0));
    }

    @Test
    void anExpertShownDisagreeingPeersLooksAgainEvenAtTemperatureZero() {
        LocalBackend b = backend();
        String agree = tagged("ocr expert", "revise", SIGN) + "\n<peer id=\"agent-2\" weight=\"0.33\">ANSWER: A</peer>" + LINES;
        assertThat(b.chat(ask(agree)).text()).doesNotContain("looking again");
        String disagree = tagged("ocr expert", "revise", SIGN) + "\n<peer id=\"agent-2\" weight=\"0.33\">ANSWER: B</peer>" + LINES;
        assertThat(b.chat(ask(disagree)).text()).contains("looking again (V");
    }

    @Test
    void aPeerNamingARegionIsAttendedToInTheImageAsSent() {
        LocalBackend b = backend();
        String peer = "\n<peer id=\"ocr\" weight=\"0.5\">ANSWER: B\nCLAIM 1: The sign reads \"sole\" | CONFIDENCE: 0.90 | EVIDENCE: read | "
                + "REGION: 0.30,0.05,0.70,0.20\nCONFIDENCE: 0.90</peer>";
        String reply = b.chat(ask(tagged("ocr expert", "revise", SIGN) + peer + LINES)).text();
        assertThat(reply).contains("looking again (").contains(", at 0.");
        List<Dimension> seen = new java.util.ArrayList<>(classical.sizes);
        seen.addAll(cores.sizes);
        // never a crop, never enlarged: the image as sent, or a sampled look's smaller scale of it
        assertThat(seen).allSatisfy(d -> assertThat(d.width).isLessThanOrEqualTo(400));
        assertThat(seen).allSatisfy(d -> assertThat((double) d.width / d.height).isCloseTo(400.0 / 300, org.assertj.core.data.Offset.offset(0.02)));
    }

    @Test
    void anExpertRevisingFromCritiquesWeighsItsPeersToo() {
        // Small print read weakly (9 px): "sale" is favoured about 9 to 1. The critics found nothing either way; two peers
        // say "sole" and are sure of it. Before, an expert with critiques ignored its peers.
        LayoutOcr faint = new LayoutOcr(new LayoutOcr.Placed("SALE", new Rectangle2D.Double(0.35, 0.1, 0.3, 0.03)));
        LocalBackend b = new LocalBackend(new LocalPerception(faint, classical, 16), new Calibration(1, 0, 0, 0.5, 0.5, 0.5));
        String prompt = tagged("assistant", "revise", SIGN) + """

                <peer id="scene" weight="0.40">ANSWER: B. sole
                CONFIDENCE: 0.99</peer>
                <peer id="relational" weight="0.30">ANSWER: B. sole
                CONFIDENCE: 0.99</peer>
                <critique critic="fact">CLAIM by ocr: The sign reads "sale" | PARTIALLY ACCURATE | REASON: unclear | CORRECTION: none | CONFIDENCE: 0.50</critique>
                """ + LINES;
        String reply = b.chat(ask(prompt)).text();
        assertThat(reply).contains("ANSWER: B").contains("scene answered sole (sure 0.99)");
        // without the peers, the same expert keeps its own reading
        assertThat(b.chat(ask(prompt.replaceAll("(?s)<peer.*</peer>", ""))).text()).contains("ANSWER: A");
    }

    @Test
    void howSureAPeerSaysItIsDecidesHowMuchItCounts() {
        assertThat(Deliberation.stated("ANSWER: B\nCONFIDENCE: 0.30")).isEqualTo(0.30);
        assertThat(Deliberation.stated("ANSWER: B\nCONFIDENCE: 85%")).isEqualTo(0.85);
        assertThat(Deliberation.stated("The sign reads sole.\nANSWER: B")).isEqualTo(Deliberation.SAYS_NOTHING);
        assertThat(Deliberation.stated("This is probably right.\nANSWER: B")).isEqualTo(Deliberation.SAYS_PROBABLY);
        assertThat(Deliberation.stated("I am not sure of this.\nANSWER: B")).isEqualTo(Deliberation.SAYS_NOT_SURE);
        Distribution own = Distribution.of(List.of("sale", "sole"), new double[]{0.75, 0.25});
        List<Deliberation.Voice> sure = List.of(new Deliberation.Voice("a", "sole", 0.92, null), new Deliberation.Voice("b", "sole", 0.92, null));
        List<Deliberation.Voice> unsure = List.of(new Deliberation.Voice("a", "sole", 0.4, null), new Deliberation.Voice("b", "sole", 0.4, null));
        assertThat(Deliberation.weigh(own, sure, List.of(), 0.5).best()).isEqualTo("sole");     // groupthink: weak evidence gives way
        assertThat(Deliberation.weigh(own, unsure, List.of(), 0.5).best()).isEqualTo("sale");
        Distribution strong = Distribution.of(List.of("sale", "sole"), new double[]{0.98, 0.02});
        assertThat(Deliberation.weigh(strong, sure, List.of(), 0.5).best()).isEqualTo("sale");
        assertThat(Deliberation.weigh(strong, sure, List.of(), 0.5).bestProbability()).isLessThan(0.9); // but it is less sure
    }

    @Test
    void anAgentsOwnPreviousAnswerHoldsItsSuccessiveAnswersTogether() {
        // a fresh look leaning the other way does not by itself overturn what the agent said, and was sure of, before
        Distribution fresh = Distribution.of(List.of("sale", "sole"), new double[]{0.4, 0.6});
        List<Deliberation.Voice> before = List.of(new Deliberation.Voice(Deliberation.PREVIOUS, "sale", 0.92, null));
        assertThat(Deliberation.weigh(fresh, before, List.of(), 0.5, Calibration.DEFAULT.selfTrust()).best()).isEqualTo("sale");
        assertThat(Deliberation.weigh(fresh, before, List.of(), 0.5, 0).best()).isEqualTo("sole");
        // the previous answer is read from the prompt's <previous> block
        ParsedPrompt p = PromptReader.read(tagged("debater", "revise", SIGN) + "\n<previous>\nThe sign reads sale.\nANSWER: A\n</previous>"
                + "\n<peer id=\"agent-2\">I am not sure of this.\nANSWER: B</peer>" + LINES, List.of(sign()), null);
        assertThat(Deliberation.voices(p)).containsExactly(new Deliberation.Voice(Deliberation.PREVIOUS, "sale", Deliberation.SAYS_NOTHING, null),
                new Deliberation.Voice("agent-2", "sole", Deliberation.SAYS_NOT_SURE, null));
    }

    @Test
    void aReplysReasoningSaysInWordsHowSureItIs() {
        ParsedPrompt p = PromptReader.read(tagged("debater", "answer", SIGN) + LINES, List.of(sign()), null);
        Judgement.Finding f = new Judgement.Finding(List.of(Piece.plain("The sign reads sale")), 0.7, "OCR read SALE", null);
        java.util.function.DoubleFunction<String> reply = pa -> Piece.join(ReplyWriter.answer(p, new ReplyWriter.Answer(
                Distribution.of(List.of("sale", "sole"), new double[]{pa, 1 - pa}), 0, null, List.of(f), false, null), true));
        assertThat(reply.apply(0.95)).doesNotContain("probably").doesNotContain("not sure");
        assertThat(reply.apply(0.7)).contains("This is probably right.");
        assertThat(reply.apply(0.55)).contains("I am not sure of this.");
        // as peers are shown it (Panel.body drops the CONFIDENCE line), the words carry it
        assertThat(Deliberation.stated(reply.apply(0.7).replaceAll("(?m)^CONFIDENCE:.*$", ""))).isEqualTo(Deliberation.SAYS_PROBABLY);
    }
}
