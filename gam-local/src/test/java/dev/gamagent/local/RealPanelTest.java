package dev.gamagent.local;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.image.Picture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.awt.Color;
import java.awt.Font;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The panel over the real engines (PP-OCRv4, PP-OCRv3, both segmenters) on a drawn sign with a decoy word beside it. */
class RealPanelTest {
    static LocalBackend backend;

    @BeforeAll
    static void open() { backend = RealEngines.backend(); }

    @AfterAll
    static void close() { backend.close(); }

    /** "OPEN" in white on a green board, "OCEAN" larger in dark ink on the grey background below it. */
    static Picture sign() {
        BufferedImage img = new BufferedImage(480, 360, BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(new Color(236, 236, 230));
        g.fillRect(0, 0, 480, 360);
        g.setColor(new Color(40, 140, 60));
        g.fillRoundRect(170, 60, 120, 44, 10, 10);
        g.setColor(Color.WHITE);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString("OPEN", 206, 88);
        g.setColor(new Color(50, 50, 50));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 22));
        g.drawString("OCEAN", 196, 190);
        g.dispose();
        return new Picture("sign", img);
    }

    static String ask(String prompt) {
        return backend.chat(ChatRequest.of(List.of(ChatMessage.user(prompt, List.of(sign()))))).text();
    }

    @Test
    void thePlainAnswerAndTheExpertsReadTheSignNotTheLargerWordBesideIt() {
        String q = "What word is written on the sign?\nA. ocean\nB. open\nC. opcn";
        assertThat(ask(q + "\nAnswer with the option's letter from the given choices directly.")).as("the plain answer reads the sign too").isEqualTo("B");
        for (String role : List.of("scene expert", "ocr expert")) {
            assertThat(ask(PanelTest.tagged(role, "answer", q) + PanelTest.LINES)).as(role).startsWith("ANSWER: B\nCLAIM 1: The sign reads \"open\"");
        }
    }

    @Test
    void theFactCheckerAttendsToEachClaimedRegionAsSent() {
        String prompt = PanelTest.tagged("fact checker", "critique", "What word is written on the sign?\nA. ocean\nB. open\nC. opcn") + """

                <claims>
                CLAIM 1 [expert=agent, confidence=0.90, region=0.40,0.47,0.57,0.55]: The sign reads "ocean"
                CLAIM 2 [expert=scene, confidence=0.60, region=0.35,0.16,0.61,0.29]: The sign reads "open"
                CLAIM 3 [expert=ocr, confidence=0.60, region=0.35,0.16,0.61,0.29]: The sign reads "opcn"
                </claims>
                CLAIM n: ACCURATE|PARTIALLY ACCURATE|INACCURATE | REASON: ... | CORRECTION: ... | CONFIDENCE: <0..1>""";
        String[] lines = ask(prompt).split("\n");
        assertThat(lines[0]).startsWith("CLAIM 1: INACCURATE").contains("on the open background");
        assertThat(lines[1]).startsWith("CLAIM 2: ACCURATE").contains("as sent").contains("on a bounded surface");
        assertThat(lines[2]).startsWith("CLAIM 3: INACCURATE").contains("CORRECTION: the sign reads \"open\"");
    }

    @Test
    void gamOnAnOpenQuestionTheModelCannotReadEndsWithoutAConfidentAnswer() {
        var q = dev.gamagent.api.Question.of("why", List.of(sign()), "Why is the sign green?", java.util.Map.of());
        try (var gam = dev.gamagent.Gam.builder().backend(backend.withOwnCaches()).method("gam").set("gam.embedding", "none").build()) {
            var a = gam.ask(q);
            // every expert declines: none of them holds an opinion, so there is no answer to be confident in
            assertThat(a.answer()).as("never a placeholder of the model's distribution").isNull();
            assertThat(a.confidence()).isZero();
            assertThat(a.trace().rounds()).allSatisfy(r -> assertThat(r.agents())
                    .allSatisfy(t -> assertThat(t.answer()).as("round " + r.k()).doesNotContain("\uFFFD")));
        }
    }
}
