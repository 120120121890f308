package dev.gamagent.eval.grade;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A harness's judge prompt, kept as data ({@code /grading/*.json}, extracted from the pinned source by
 * {@code bench/harness-prompts.sh}; a test compares it with that source): VLMEvalKit's answer-extraction prompt for
 * MathVista ({@code build_mathvista_gpt4_prompt}) or MathVision ({@code build_mathv_gpt4_prompt}). Both are built the
 * same way: the task description, each in-context example followed by a newline, the question and a newline, the
 * response label (VLMEvalKit's spelling, "Model respone: ") with the reply, then the answer label.
 *
 * @param source   where it comes from: repository, commit, path, blob and line range
 */
record HarnessPrompt(String name, String source, String taskDescription, List<String> examples, String responseLabel, String answerLabel) {
    static final HarnessPrompt MATHVISTA = load("vlmevalkit-mathvista");
    static final HarnessPrompt MATHVISION = load("vlmevalkit-mathvision");

    /** The prompt VLMEvalKit sends for {@code question} (its TSV's question column, hint and choices included) and a reply. */
    String render(String question, String prediction) {
        StringBuilder p = new StringBuilder(taskDescription);
        for (String e : examples) p.append(e).append('\n');
        return p.append(question).append('\n').append(responseLabel).append(prediction).append(answerLabel).toString();
    }

    static HarnessPrompt load(String name) {
        String resource = "/grading/" + name + ".json";
        try (InputStream in = HarnessPrompt.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("resource " + resource + " is missing from the jar");
            JsonNode n = Json.MAPPER.readTree(in);
            JsonNode s = n.path("source");
            List<String> examples = new ArrayList<>();
            n.path("examples").forEach(e -> examples.add(e.asText()));
            return new HarnessPrompt(name, s.path("repository").asText() + "@" + s.path("commit").asText() + ":" + s.path("path").asText()
                    + " lines " + s.path("lines").asText(), text(n, "task_description", resource), List.copyOf(examples),
                    text(n, "response_label", resource), text(n, "answer_label", resource));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource + ": " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode n, String field, String resource) {
        if (!n.path(field).isTextual()) throw new IllegalStateException(resource + ": missing text field '" + field + "'");
        return n.get(field).asText();
    }
}
