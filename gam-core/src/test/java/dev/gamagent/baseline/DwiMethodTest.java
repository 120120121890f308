package dev.gamagent.baseline;

import dev.gamagent.MethodRegistry;
import dev.gamagent.api.Answer;
import dev.gamagent.api.Termination;
import dev.gamagent.api.Trace;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.image.Picture;
import dev.gamagent.image.Region;
import dev.gamagent.testing.ScriptedBackend;
import org.junit.jupiter.api.Test;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Map;

import static dev.gamagent.baseline.SingleRoundMethodsTest.tokensOf;
import static dev.gamagent.testing.MethodFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class DwiMethodTest {

    /** Debater 1 says A and marks the left half, debater 2 says B and marks the right; the judge says B. */
    static String script(String u) {
        if (u.contains("<role>judge</role>")) return "Debater 2's evidence is clearer.\nANSWER: B\nCONFIDENCE: 0.8";
        if (u.contains("It is your turn, debater-1")) {
            return "I think it is red.\nANSWER: A\nCLAIM 1: the shape on the left is red | EVIDENCE: red shape | REGION: 0.0,0.0,0.5,1.0\nCONFIDENCE: 0.6";
        }
        return "It is blue.\nANSWER: B\nCLAIM 1: the triangle is blue | EVIDENCE: blue triangle | REGION: 0.5,0.0,1.0,1.0\nCONFIDENCE: 0.7";
    }

    static List<ChatRequest> sent(ScriptedBackend b) {
        synchronized (b.requests) { return List.copyOf(b.requests); }
    }

    @Test
    void debatersSpeakInTurnSeeingEveryEarlierTurnAndItsMarkedImageThenTheJudgeDecides() {
        var b = textBackend(DwiMethodTest::script);
        Answer a = new DwiMethod().run(question(), context(b));
        List<ChatRequest> r = sent(b);
        assertThat(r).hasSize(5); // 2 debaters × 2 rounds + judge
        assertThat(r).extracting(x -> user(x).contains("<role>judge</role>") ? "judge" : agentTurn(user(x)))
                .containsExactly("debater-1", "debater-2", "debater-1", "debater-2", "judge");
        assertThat(user(r.get(0))).contains("<task>answer</task>", "Image 1 is the question's image.").doesNotContain("<peer");
        assertThat(r.get(0).messages().get(0).text()).contains("Ground everything in the image");
        assertThat(images(r.get(0))).hasSize(1);
        // the second speaker sees the first turn and the picture with its region drawn
        assertThat(user(r.get(1))).contains("<task>revise</task>", "<peer id=\"debater-1-round1\"", "REGION: 0.0,0.0,0.5,1.0",
                "Image 2 shows the regions debater-1 marked in round 1.");
        List<Picture> second = images(r.get(1));
        assertThat(second).hasSize(2);
        assertThat(differs(second.get(0), second.get(1))).isTrue();
        // every later speaker and the judge see all earlier turns, each with its marked image
        assertThat(images(r.get(2))).hasSize(3);
        assertThat(images(r.get(3))).hasSize(4);
        assertThat(user(r.get(4))).contains("<task>judge</task>", "debater-1-round1", "debater-2-round2",
                "Image 5 shows the regions debater-2 marked in round 2.");
        assertThat(images(r.get(4))).hasSize(5);
        assertThat(a.option()).isEqualTo("B");
        assertThat(a.rounds()).isEqualTo(1);
        assertThat(a.termination()).isEqualTo(Termination.FIXED_ROUNDS);
        assertThat(a.calls()).isEqualTo(5);
        assertThat(a.tokens()).isEqualTo(tokensOf(5));
        Trace t = a.trace();
        assertThat(t.extra()).containsEntry("decided_by", "judge");
        assertThat(t.rounds()).hasSize(2);
        assertThat(t.rounds().get(0).agents()).extracting(Trace.AgentTurn::id).containsExactly("debater-1", "debater-2");
        assertThat(t.rounds().get(1).agents()).extracting(Trace.AgentTurn::id).containsExactly("debater-1", "debater-2", "judge");
        @SuppressWarnings("unchecked") var evidence = (Map<String, List<VisualEvidence.Mark>>) t.rounds().get(0).extra().get("evidence");
        assertThat(evidence.get("debater-2")).containsExactly(new VisualEvidence.Mark("blue triangle", new Region(0.5, 0, 1, 1)));
    }

    @Test
    void aTurnThatMarksNothingAddsNoImageAndAnUnreadableJudgeLeavesTheDecisionToTheVote() {
        var b = textBackend(u -> u.contains("<role>judge</role>") ? "I cannot decide."
                : u.contains("It is your turn, debater-1") ? "ANSWER: B" : "ANSWER: B\nCLAIM 1: blue | REGION: 0.2,0.2,0.6,0.6");
        Answer a = new DwiMethod().run(question(), context(b, "dwi.agents=3", "dwi.rounds=1"));
        List<ChatRequest> r = sent(b);
        assertThat(r).hasSize(4);
        assertThat(images(r.get(1))).as("debater-1 marked nothing").hasSize(1);
        assertThat(images(r.get(2))).hasSize(2);
        assertThat(images(r.get(3))).hasSize(3);
        assertThat(a.option()).isEqualTo("B");
        assertThat(a.rounds()).isZero();
        assertThat(a.trace().extra()).containsEntry("decided_by", "vote");
    }

    @Test
    void dwiRunsUnderDreamWithOneProbedAgentPerDebater() {
        var b = textBackend(DwiMethodTest::script);
        Answer a = MethodRegistry.create("dream+dwi").run(question(), context(b));
        assertThat(a.option()).isEqualTo("B");
        assertThat(a.trace().method()).isEqualTo("dream+dwi");
        assertThat(sent(b).stream().filter(x -> user(x).contains("<task>probe</task>")).count()).as("2 debaters × 3 scales").isEqualTo(6);
    }

    @Test
    void regionsAreReadFromClaimLinesWithTheirLabelsAndPixelCoordinatesAreNormalised() {
        String reply = """
                ANSWER: B
                CLAIM 1: the circle is blue | EVIDENCE: blue circle | REGION: 0.1,0.2,0.3,0.4
                CLAIM 2: the sign says OPEN | REGION: [50, 20, 150, 80]
                CLAIM 3: nothing here | REGION: 0.5,0.5,0.5,0.9
                REGION: 0.9, 0.9, 0.7, 0.7
                CONFIDENCE: 0.7""";
        List<VisualEvidence.Mark> marks = VisualEvidence.read(reply, 200, 100);
        assertThat(marks).extracting(VisualEvidence.Mark::label).containsExactly("blue circle", "the sign says OPEN", "evidence");
        assertThat(marks.get(1).region().x0()).isCloseTo(0.25, within(1e-9));
        assertThat(marks.get(1).region().y1()).isCloseTo(0.8, within(1e-9));
        assertThat(marks.get(2).region()).isEqualTo(new Region(0.7, 0.7, 0.9, 0.9));
        assertThat(VisualEvidence.read("ANSWER: B", 10, 10)).isEmpty();
    }

    @Test
    void aMarkIsDrawnAsAnOutlineAndLeavesTheRestOfThePictureAlone() {
        BufferedImage img = new BufferedImage(200, 100, BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, 200, 100);
        g.dispose();
        Picture base = new Picture("p", img);
        Picture drawn = VisualEvidence.draw(base, List.of(new VisualEvidence.Mark("x", new Region(0.25, 0.5, 0.75, 0.9))), "marked");
        assertThat(drawn.width()).isEqualTo(200);
        assertThat(new Color(drawn.image().getRGB(100, 89))).isNotEqualTo(Color.WHITE); // bottom edge of the box
        assertThat(new Color(drawn.image().getRGB(100, 70))).isEqualTo(Color.WHITE);    // inside
        assertThat(new Color(drawn.image().getRGB(10, 95))).isEqualTo(Color.WHITE);     // outside
        assertThat(new Color(base.image().getRGB(100, 89))).as("the original is untouched").isEqualTo(Color.WHITE);
    }

    private static String agentTurn(String u) {
        var m = java.util.regex.Pattern.compile("It is your turn, (debater-\\d+)").matcher(u);
        return m.find() ? m.group(1) : "?";
    }

    private static boolean differs(Picture a, Picture b) {
        for (int y = 0; y < a.height(); y++) for (int x = 0; x < a.width(); x++) if (a.image().getRGB(x, y) != b.image().getRGB(x, y)) return true;
        return false;
    }
}
