package dev.gamagent.engine;

import dev.gamagent.api.Question;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The question read back from the prompts the harnesses' own builders write (their code read at VLMEvalKit commit
 * e8e78f05f3080fe28154f2130321f17951c3be94 and lmms-eval commit 75571cfe0fa36ca5ec2e6aa2bb268f9d38295af3; the strings
 * below are what those functions return for the rows named), and from the OpenAI cookbook's and people's phrasings.
 */
class QuestionTextTest {
    private static final Map<String, String> RGB = opts("A", "red", "B", "green", "C", "blue");

    private static Map<String, String> opts(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return m;
    }

    private static void reads(String prompt, String question, String hint, Map<String, String> options) {
        QuestionText.Read r = QuestionText.read(prompt);
        assertThat(r.question()).as(prompt).isEqualTo(question);
        assertThat(r.hint()).as(prompt).isEqualTo(hint);
        assertThat(r.options()).as(prompt).containsExactlyEntriesOf(options);
    }

    /** vlmeval/dataset/image_mcq.py, ImageMCQDataset.build_prompt. */
    private static String vlmEvalKit(String hint, String question, Map<String, String> options) {
        StringBuilder p = new StringBuilder();
        if (hint != null) p.append("Hint: ").append(hint).append('\n');
        p.append("Question: ").append(question).append('\n');
        if (!options.isEmpty()) {
            p.append("Options:\n");
            options.forEach((k, v) -> p.append(k).append(". ").append(v).append('\n'));
            p.append("Please select the correct answer from the options above. \n");
        }
        return p.toString();
    }

    /** lmms_eval/tasks/mmbench/en_utils.py, mmbench_doc_to_text with the default post_prompt. */
    private static String lmmsEvalMmbench(String hint, String question, Map<String, String> options) {
        StringBuilder o = new StringBuilder("There are several options:\n");
        options.forEach((k, v) -> o.append(k).append(". ").append(v).append('\n'));
        String optionsPrompt = o.toString().replaceAll("\n+$", "");
        String query = hint != null ? hint + " " + question + " " + optionsPrompt : question + " " + optionsPrompt;
        return query + "\n" + "\nAnswer with the option's letter from the given choices directly.";
    }

    @Test void aFormatBlockAfterTheOptionsIsNeitherTheLastOptionNorTheQuestion() {
        // an instruction line after the options, then the reply's format: none of it continues option C or asks anything
        reads("What colour is the triangle?\nA. red\nB. green\nC. blue\nReply in this format:\nANSWER: <the option letter>\n"
                + "CONFIDENCE: <0..1>", "What colour is the triangle?", null, RGB);
        reads("What colour is the triangle?\nA. red\nB. green\nC. blue\nAnswer with the option's letter from the given choices directly.\n"
                + "Then explain why.", "What colour is the triangle?", null, RGB);
        // a code option's lines still continue it (no instruction came between)
        reads("Which prints 3?\nA. x = 1\nprint(x + 2)\nB. print(4)", "Which prints 3?", null, opts("A", "x = 1\nprint(x + 2)", "B", "print(4)"));
    }

    @Test void vlmEvalKitsPromptWithAndWithoutAHint() {
        reads(vlmEvalKit(null, "What colour is the triangle?", RGB), "What colour is the triangle?", null, RGB);
        Map<String, String> solutions = opts("A", "neither; their concentrations are the same", "B", "Solution B", "C", "Solution A");
        reads(vlmEvalKit("The diagram below is a model of two solutions. Each green ball represents one particle of solute.",
                "Which solution has a higher concentration of green particles?", solutions),
                "Which solution has a higher concentration of green particles?",
                "The diagram below is a model of two solutions. Each green ball represents one particle of solute.", solutions);
        // a hint of several lines runs up to the "Question:" label
        reads(vlmEvalKit("Line one.\nLine two.", "What is it?", RGB), "What is it?", "Line one.\nLine two.", RGB);
        QuestionText.Read r = QuestionText.read(vlmEvalKit(null, "What colour is the triangle?", RGB));
        assertThat(r.instructions()).contains("Please select the correct answer from the options above.");
    }

    @Test void lmmsEvalsMmbenchPromptPutsTheLabelAfterTheQuestionAndTheInstructionAfterABlankLine() {
        reads(lmmsEvalMmbench(null, "What colour is the triangle?", RGB), "What colour is the triangle?", null, RGB);
        // its hint has no label: it stays before the question, in the question's text
        reads(lmmsEvalMmbench("The diagram below is a model.", "Which solution is stronger?", opts("A", "Solution B", "B", "Solution A")),
                "The diagram below is a model. Which solution is stronger?", null, opts("A", "Solution B", "B", "Solution A"));
        // a question without a final mark still loses the label
        reads(lmmsEvalMmbench(null, "Identify the emotion expressed in this image", RGB), "Identify the emotion expressed in this image", null, RGB);
    }

    @Test void lmmsEvalsOtherBuilders() {
        // seedbench/utils.py seed_doc_to_text; ai2d/utils.py ai2d_doc_to_text (mcq, default and gpt4v post_prompts)
        reads("Which fruit is shown?\nA. apple\nB. pear\nC. plum\nD. fig\nAnswer with the option's letter from the given choices directly.",
                "Which fruit is shown?", null, opts("A", "apple", "B", "pear", "C", "plum", "D", "fig"));
        reads("Which fruit is shown?\nA. apple\nB. pear\nAbove choices are given in {option}. {content} format.\n"
                + "Please answer with the option letter from the given choices directly.", "Which fruit is shown?", null, opts("A", "apple", "B", "pear"));
        // scienceqa/utils.py sqa_doc_to_text, default (a "Context:" line) and qwen_vl ("Options: A. …" on the label's line, "Answer:")
        reads("Context: Select the better estimate.\nHow long is a pen?\nA. 14 centimeters\nB. 14 meters\n"
                + "Answer with the option's letter from the given choices directly.", "How long is a pen?", "Select the better estimate.",
                opts("A", "14 centimeters", "B", "14 meters"));
        reads("Context: N/A\nQuestion: How long is a pen?\nOptions: A. 14 centimeters\nB. 14 meters\nAnswer:", "How long is a pen?", null,
                opts("A", "14 centimeters", "B", "14 meters"));
        // mmstar/utils.py mmstar_oc_doc_to_text; a pre_prompt before the question; the single-word post_prompt
        reads("Which one is red?\nOptions:\nA. circle\nB. square\nAnswer with the option letter only.", "Which one is red?", null,
                opts("A", "circle", "B", "square"));
        reads("Please answer the following questions about the image.\nWhat is written on the sign?", "What is written on the sign?", null, Map.of());
        reads("What is written on the sign?\nAnswer the question using a single word or phrase.", "What is written on the sign?", null, Map.of());
        reads("Answer the question using a single word or phrase. What is written on the sign?", "What is written on the sign?", null, Map.of());
        reads("When the provided information is insufficient, respond with 'Unanswerable'.\nAnswer the question using a single word or phrase.\n"
                + "What is written on the sign?", "What is written on the sign?", null, Map.of());
        reads("Which fruit is shown?\nA. apple\nB. pear\nSelect the best answer to the above multiple-choice question based on the image. "
                + "Respond with only the letter (A, B, C, D, or E) of the correct option.", "Which fruit is shown?", null, opts("A", "apple", "B", "pear"));
        reads("Which fruit is shown?\nA. apple\nB. pear\n请直接使用所提供的选项字母作为答案回答。", "Which fruit is shown?", null, opts("A", "apple", "B", "pear"));
    }

    @Test void mathVistasQueryWithAnInstructionAsItsHintAndLetteredChoices() {
        reads("Hint: Please answer the question and provide the correct option letter, e.g., A, B, C, D, at the end.\n"
                + "Question: What is the value of x?\nChoices:\n(A) 3\n(B) 4\n(C) 5", "What is the value of x?", null, opts("A", "3", "B", "4", "C", "5"));
    }

    @Test void theCookbooksQuestionAndAPersonsOneLine() {
        reads("What's the area of the triangle?", "What's the area of the triangle?", null, Map.of());
        reads("What colour is the triangle? A. red B. green C. blue", "What colour is the triangle?", null, RGB);
        reads("What colour is the triangle? (A) red (B) green (C) blue. Answer with the letter.", "What colour is the triangle?", null, RGB);
        reads("What colour is the triangle?\nOptions: A: red, B: green, C: blue", "What colour is the triangle?", null, RGB);
        reads("What colour is the triangle?\nA) red\nB) green\nC) blue", "What colour is the triangle?", null, RGB);
        // options first, the question after them
        reads("A. red\nB. green\nC. blue\nWhat colour is the triangle?", "What colour is the triangle?", null, RGB);
    }

    @Test void proseThatLooksLikeOptionsIsText() {
        reads("In the triangle, angle A: 30 degrees, angle B: 60 degrees. What is angle C?",
                "In the triangle, angle A: 30 degrees, angle B: 60 degrees. What is angle C?", null, Map.of());
        reads("Plan A. first step is key?", "Plan A. first step is key?", null, Map.of());
        reads("Which shape?\nA. circle", "Which shape?\nA. circle", null, Map.of());
        reads("What is the answer: yes or no?", "What is the answer: yes or no?", null, Map.of());
    }

    @Test void questionsThatAreImperativesStayQuestions() {
        reads(vlmEvalKit(null, "Select the organism in the same genus as the common ostrich.", opts("A", "emu", "B", "rhea")),
                "Select the organism in the same genus as the common ostrich.", null, opts("A", "emu", "B", "rhea"));
        reads("Identify the emotion expressed in this image.\nA. happiness\nB. sadness\nAnswer with the option's letter from the given choices directly.",
                "Identify the emotion expressed in this image.", null, opts("A", "happiness", "B", "sadness"));
        reads("Choose the word written on the sign.\nA. open\nB. closed", "Choose the word written on the sign.", null, opts("A", "open", "B", "closed"));
        // nothing but an instruction before the options: it is the question
        reads("Choose the correct option.\nA. open\nB. closed\nAnswer with the option's letter from the given choices directly.",
                "Choose the correct option.", null, opts("A", "open", "B", "closed"));
    }

    @Test void optionsOfSeveralLinesKeepTheirLines() {
        // MMBench dev row 1 (open-compass/MMBench samples), as VLMEvalKit writes it: code options over several lines
        Map<String, String> code = opts("A", "for x in range(6):\n     print(x)\n   else:\n     print(\"Finally finished!\")",
                "B", "thisdict = {\n     \"brand\": \"Ford\"\n   }\n   \n   print(len(thisdict))", "C", "x = 1\ny = 2.8\nz = 1j",
                "D", "fruits = [\"apple\", \"banana\", \"cherry\"]\n   for x in fruits:\n     print(x)");
        reads(vlmEvalKit(null, "What is correct Python code to generate the content of the image?", code),
                "What is correct Python code to generate the content of the image?", null, code);
        reads(lmmsEvalMmbench(null, "What is correct Python code to generate the content of the image?", code),
                "What is correct Python code to generate the content of the image?", null, code);
    }

    @Test void aRenderedQuestionReadsBackAsItself() {
        Question q = new Question("q", List.of(), "What color is the circle?", "Look at the middle.", opts("A", "purple", "B", "yellow", "C", "gray"));
        reads(q.render(), q.text(), q.hint(), q.options());
        Question open = new Question("q", List.of(), "How many circles are there in the image?", null, Map.of());
        reads(open.render(), open.text(), null, Map.of());
    }

    @Test void aSystemMessageKeepsItsContextAndLosesItsInstructions() {
        // the cookbook's system message: a persona, then a request that is context
        assertThat(QuestionText.withoutInstructions("You are a helpful assistant that responds in Markdown. Help me with my math homework!"))
                .isEqualTo("Help me with my math homework!");
        assertThat(QuestionText.withoutInstructions("You are a helpful assistant.\nAnswer with the option's letter from the given choices directly."))
                .isNull();
        assertThat(QuestionText.withoutInstructions("The chart shows 2023's sales.")).isEqualTo("The chart shows 2023's sales.");
    }

    @Test void instructionsAreSentencesAboutTheAnswersForm() {
        assertThat(List.of("Answer with the option's letter from the given choices directly.", "Please select the correct answer from the options above.",
                "Answer the question using a single word or phrase.", "Only give the best option.", "Give me the answer letter directly.",
                "Your response must be concise.", "Keep your answer as short as possible!", "Let's think step by step.",
                "Based on your visual observation, answer with the option's letter from the given choices directly.",
                "You are a helpful assistant that responds in Markdown.", "Provide a short and direct response."))
                .allMatch(QuestionText::instruction);
        assertThat(List.of("What colour is the triangle?", "Select the better estimate.", "Identify the emotion expressed in this image.",
                "Choose the word written on the sign.", "Which option is correct?", "You are looking at a map.",
                "Based on this image, please predict what will happen next?", "Think about the magnetic force between the magnets.",
                "识别这张图片中表达的情感是什么？", "这是一道看图猜成语题目，请问图中画面对应的是哪个成语？"))
                .noneMatch(QuestionText::instruction);
    }
}
