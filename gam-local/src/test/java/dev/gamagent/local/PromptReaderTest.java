package dev.gamagent.local;

import dev.gamagent.backend.ChatMessage;
import dev.gamagent.backend.ChatRequest;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PromptReaderTest {
    static final String LINES = """
            Answer in this format:
            ANSWER: <letter or short answer>
            CLAIM 1: <claim> | CONFIDENCE: 0.8 | EVIDENCE: <what in the image shows it> | REGION: x0,y0,x1,y1
            CONFIDENCE: <0..1 overall>""";

    static ParsedPrompt read(String text) {
        return PromptReader.read(ChatRequest.of(List.of(ChatMessage.user(text, List.of()))));
    }

    @Test
    void anAnswerPromptGivesQuestionOptionsRoleTaskAndTheLineFormat() {
        ParsedPrompt p = read("""
                <role>ocr expert</role>
                <task>answer</task>
                <question>
                Hint: look closely
                What word is written on the sign?
                A. sale
                B. stop
                </question>
                """ + LINES);
        assertThat(p.question()).isEqualTo("What word is written on the sign?");
        assertThat(p.hint()).isEqualTo("look closely");
        assertThat(p.options()).containsExactly(java.util.Map.entry("A", "sale"), java.util.Map.entry("B", "stop"));
        assertThat(p.role()).isEqualTo("ocr expert");
        assertThat(p.task()).isEqualTo(ParsedPrompt.Task.ANSWER);
        assertThat(p.format()).isEqualTo(ParsedPrompt.OutputFormat.LINES);
    }

    @Test
    void aCritiquePromptGivesTheClaimsWithExpertConfidenceAndRegion() {
        ParsedPrompt p = read("""
                <role>fact checker</role>
                <task>critique</task>
                <question>
                What color is the triangle?
                A. red
                B. blue
                </question>
                <consensus>A (0.62)</consensus>
                <claims>
                CLAIM 1 [expert=scene-0, confidence=0.62, region=0.1,0.2,0.4,0.5]: The triangle is red
                CLAIM 2 [expert=ocr-1, confidence=0.30]: No text is visible
                </claims>
                For each claim answer one line:
                CLAIM n: ACCURATE|PARTIALLY ACCURATE|INACCURATE | REASON: ... | CORRECTION: ... | CONFIDENCE: 0.7
                """);
        assertThat(p.task()).isEqualTo(ParsedPrompt.Task.CRITIQUE);
        assertThat(p.claims()).hasSize(2);
        ParsedPrompt.ClaimRef c = p.claims().get(0);
        assertThat(c.number()).isEqualTo(1);
        assertThat(c.expert()).isEqualTo("scene-0");
        assertThat(c.confidence()).isCloseTo(0.62, within(1e-9));
        assertThat(c.region().x0()).isCloseTo(0.1, within(1e-9));
        assertThat(c.region().y1()).isCloseTo(0.5, within(1e-9));
        assertThat(c.text()).isEqualTo("The triangle is red");
        assertThat(p.claims().get(1).region()).isNull();
        assertThat(p.consensus()).isEqualTo("A (0.62)");
        assertThat(p.format()).isEqualTo(ParsedPrompt.OutputFormat.LINES);
    }

    @Test
    void aRevisePromptGivesPeersWithWeightsCritiquesAndThePreviousAnswer() {
        ParsedPrompt p = read("""
                <role>scene expert</role>
                <task>revise</task>
                <question>
                What color is the triangle?
                A. red
                B. blue
                </question>
                <previous>ANSWER: A
                CONFIDENCE: 0.6</previous>
                <peer id="ocr-1" weight="0.41">ANSWER: B
                CONFIDENCE: 0.9</peer>
                <peer id="rel-2" weight="0.2">ANSWER: A</peer>
                <critique critic="fact">CLAIM 1: INACCURATE | REASON: it is blue | CORRECTION: the triangle is blue | CONFIDENCE: 0.8</critique>
                """ + LINES);
        assertThat(p.task()).isEqualTo(ParsedPrompt.Task.REVISE);
        assertThat(p.peers()).extracting(ParsedPrompt.Peer::id).containsExactly("ocr-1", "rel-2");
        assertThat(p.peers().get(0).weight()).isCloseTo(0.41, within(1e-9));
        assertThat(p.peers().get(0).text()).startsWith("ANSWER: B");
        assertThat(p.critiques()).singleElement().satisfies(c -> assertThat(c.critic()).isEqualTo("fact"));
        assertThat(p.previous()).startsWith("ANSWER: A");
        assertThat(p.question()).isEqualTo("What color is the triangle?");
        assertThat(p.format()).isEqualTo(ParsedPrompt.OutputFormat.LINES);
    }

    @Test
    void probeJudgeAndModerateTasksAreRecognised() {
        assertThat(read("<task>probe</task>\n<question>\nHow many objects are there in the image?\n</question>\nAnswer the question using a single word or phrase.").task())
                .isEqualTo(ParsedPrompt.Task.PROBE);
        assertThat(read("<role>judge</role>\n<task>judge</task>\n<question>\nQ\nA. x\nB. y\n</question>\n" + LINES).task())
                .isEqualTo(ParsedPrompt.Task.JUDGE);
        assertThat(read("<role>moderator</role>\n<task>moderate</task>\n<question>\nQ\nA. x\nB. y\n</question>").task())
                .isEqualTo(ParsedPrompt.Task.MODERATE);
    }

    @Test
    void theBaselineLetterPromptIsReadWithoutTags() {
        ParsedPrompt p = read("What color is the triangle?\nA. red\nB. blue\nAnswer with the option's letter from the given choices directly.");
        assertThat(p.question()).isEqualTo("What color is the triangle?");
        assertThat(p.options()).containsOnlyKeys("A", "B");
        assertThat(p.format()).isEqualTo(ParsedPrompt.OutputFormat.LETTER);
        assertThat(p.role()).isEqualTo("assistant");
        assertThat(p.task()).isEqualTo(ParsedPrompt.Task.ANSWER);
    }

    @Test
    void theOpenBaselinePromptAsksForAShortAnswer() {
        ParsedPrompt p = read("How many circles are there in the image?\nAnswer the question using a single word or phrase.");
        assertThat(p.question()).isEqualTo("How many circles are there in the image?");
        assertThat(p.options()).isEmpty();
        assertThat(p.format()).isEqualTo(ParsedPrompt.OutputFormat.SHORT);
    }

    @Test
    void aResponseSchemaAsksForJson() throws Exception {
        ChatRequest r = ChatRequest.of(List.of(ChatMessage.user("<task>answer</task>\n<question>\nQ\nA. x\n</question>", List.of())))
                .withSchema("answer", Json.MAPPER.readTree("{\"type\":\"object\"}"));
        assertThat(PromptReader.read(r).format()).isEqualTo(ParsedPrompt.OutputFormat.JSON);
    }

    @Test
    void theAnswerWordInsidePeerBlocksDoesNotMakeTheFormatLineBased() {
        ParsedPrompt p = read("<task>revise</task>\n<question>\nQ\nA. x\nB. y\n</question>\n<peer id=\"p\" weight=\"1\">ANSWER: B</peer>\nAnswer with the option's letter from the given choices directly.");
        assertThat(p.format()).isEqualTo(ParsedPrompt.OutputFormat.LETTER);
    }

    @Test
    void theRoleAndTaskMayComeFromTheSystemMessage() {
        ChatRequest r = ChatRequest.of(List.of(ChatMessage.system("<role>relational expert</role>\n<task>answer</task>"),
                ChatMessage.user("<question>\nWhich object is above the red circle?\nA. blue square\nB. green star\n</question>", List.of())));
        ParsedPrompt p = PromptReader.read(r);
        assertThat(p.role()).isEqualTo("relational expert");
        assertThat(p.question()).isEqualTo("Which object is above the red circle?");
    }

    @Test
    void aConversationsLastAssistantTurnIsTheAgentsPreviousAnswer() {
        String q = "<role>negative debater</role>\n<task>revise</task>\n<question>\nWhat color is the circle?\nA. red\nB. blue\n</question>";
        ChatRequest r = ChatRequest.of(List.of(ChatMessage.system("You debate."), ChatMessage.user(q, List.of()),
                ChatMessage.assistant("The circle looks blue.\nANSWER: B"), ChatMessage.user(q + "\n<peer id=\"affirmative\">ANSWER: A</peer>", List.of())));
        assertThat(PromptReader.read(r).previous()).isEqualTo("The circle looks blue.\nANSWER: B");
        // a <previous> block, when the prompt gives one, is the previous answer
        ChatRequest tagged = ChatRequest.of(List.of(ChatMessage.assistant("ANSWER: A"),
                ChatMessage.user(q + "\n<previous>\nANSWER: B\n</previous>", List.of())));
        assertThat(PromptReader.read(tagged).previous()).isEqualTo("ANSWER: B");
    }

    /**
     * requests.rounds = conversation: a later round's turn says only what is new (RequestLayout.continuation); the model
     * reads the question and role from the turn that asked it and its previous answer from its own reply, and otherwise
     * what it reads is what it reads from the fresh prompt of the same round.
     */
    @Test
    void aConversationsLaterTurnReadsAsTheFreshPromptOfTheSameRound() {
        var prompts = new dev.gamagent.engine.Prompts(dev.gamagent.config.Config.defaults());
        String question = "Hint: count them all\nHow many circles are there?\nA. 2\nB. 3\nC. 4";
        String format = "Reply in this format:\nANSWER: <option letter>\nCONFIDENCE: <0..1>";
        java.util.Map<String, Object> v = new java.util.LinkedHashMap<>(java.util.Map.of("question", question, "role", "debater",
                "agent", "agent-1", "note", "", "format", format));
        String first = prompts.render("debate_answer", v);
        String reply = "I count three circles in the image.\nANSWER: B\nCONFIDENCE: 0.7";
        v.put("previous", "I count three circles in the image.\nANSWER: B");
        v.put("peers", "<peer id=\"agent-2\">\nThere are four.\nANSWER: C\n</peer>\n<peer id=\"agent-3\">\nANSWER: B\n</peer>");
        String revise = prompts.render("debate_revise", v);
        var image = new Drawing(64, 48).picture("img");
        ParsedPrompt fresh = PromptReader.read(ChatRequest.of(List.of(ChatMessage.user(revise, List.of(image)))));
        ParsedPrompt talk = PromptReader.read(ChatRequest.of(List.of(ChatMessage.user(first, List.of(image)), ChatMessage.assistant(reply),
                ChatMessage.user(dev.gamagent.engine.RequestLayout.continuation(first, revise), List.of()))));
        assertThat(talk.question()).isEqualTo(fresh.question()).isEqualTo("How many circles are there?");
        assertThat(talk.hint()).isEqualTo(fresh.hint());
        assertThat(talk.options()).isEqualTo(fresh.options()).hasSize(3);
        assertThat(talk.role()).isEqualTo(fresh.role()).isEqualTo("debater");
        assertThat(talk.task()).isEqualTo(fresh.task()).isEqualTo(ParsedPrompt.Task.REVISE);
        assertThat(talk.peers()).isEqualTo(fresh.peers()).hasSize(2);
        assertThat(talk.format()).isEqualTo(fresh.format());
        assertThat(talk.claimsRequested()).isEqualTo(fresh.claimsRequested());
        assertThat(talk.confidenceRequested()).isEqualTo(fresh.confidenceRequested());
        assertThat(talk.images()).isEqualTo(fresh.images()).hasSize(1);
        // its previous answer: its own reply, whole (with the confidence it stated), where the fresh prompt quotes it
        assertThat(talk.previous()).isEqualTo(reply);
        assertThat(fresh.previous()).isEqualTo("I count three circles in the image.\nANSWER: B");
    }
}
