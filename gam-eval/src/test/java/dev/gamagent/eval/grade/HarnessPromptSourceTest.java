package dev.gamagent.eval.grade;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.util.Json;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The judge prompts gam sends are VLMEvalKit's own at the pinned commit: the data files' strings are the Python string
 * literals of the committed source excerpt (decoded here, independently of bench/harness-prompts.sh), the excerpt is the
 * one whose sha256 was recorded at extraction, and, where the pinned repository is on this machine, the excerpt is those
 * lines of that commit's file.
 */
class HarnessPromptSourceTest {
    private static final Pattern TRIPLE = Pattern.compile("(\\w+) = \"\"\"(.*?)\"\"\"", Pattern.DOTALL);
    private static final Pattern APPENDED = Pattern.compile("prompt \\+= '((?:[^'\\\\]|\\\\.)*)'");
    /** Where bench/harness-prompts.sh finds VLMEvalKit (the fetch mirror); VLMEVALKIT_GIT overrides it. */
    private static final Path MIRROR = Path.of(System.getenv().getOrDefault("VLMEVALKIT_GIT", "/work/.mirror/open-compass+VLMEvalKit/repo"));

    @ParameterizedTest @ValueSource(strings = {"mathvista", "mathvision"})
    void theDataFileHoldsTheStringLiteralsOfThePinnedSourceExcerpt(String name) throws Exception {
        JsonNode data = data(name);
        String excerpt = Files.readString(Path.of("gam-eval/src/test/resources/harness/vlmevalkit-" + name + ".py.txt"));
        assertThat(sha256(excerpt)).as("the excerpt is the one recorded at extraction").isEqualTo(data.path("source").path("excerpt_sha256").asText());
        Map<String, String> literals = new LinkedHashMap<>();
        Matcher m = TRIPLE.matcher(excerpt);
        while (m.find()) literals.put(m.group(1), python(m.group(2)));
        List<String> examples = new ArrayList<>();
        for (var e : literals.entrySet()) if (e.getKey().startsWith("example_")) examples.add(e.getValue());
        List<String> inData = new ArrayList<>();
        data.path("examples").forEach(e -> inData.add(e.asText()));
        assertThat(inData).hasSize(5).isEqualTo(examples);
        assertThat(data.path("task_description").asText()).isEqualTo(literals.get("task_description"));
        List<String> appended = new ArrayList<>();
        Matcher a = APPENDED.matcher(excerpt);
        while (a.find()) appended.add(python(a.group(1)));
        assertThat(appended).containsExactly(data.path("response_label").asText(), data.path("answer_label").asText());
        // and the prompt the grader builds is these, in VLMEvalKit's order
        HarnessPrompt p = HarnessPrompt.load("vlmevalkit-" + name);
        assertThat(p.render("Q?", "R")).isEqualTo(literals.get("task_description") + String.join("\n", examples) + "\n" + "Q?\n"
                + appended.get(0) + "R" + appended.get(1));
    }

    @ParameterizedTest @ValueSource(strings = {"mathvista", "mathvision"})
    void theExcerptIsThoseLinesOfThePinnedCommitWhereTheRepositoryIsHere(String name) throws Exception {
        JsonNode s = data(name).path("source");
        Assumptions.assumeTrue(Files.isDirectory(MIRROR), "skipped: VLMEvalKit's git directory is not at " + MIRROR
                + " (set VLMEVALKIT_GIT); the sha256 check above still ran");
        String spec = s.path("commit").asText() + ":" + s.path("path").asText();
        assertThat(git("rev-parse", spec).strip()).isEqualTo(s.path("blob").asText());
        String[] lines = s.path("lines").asText().split("-");
        List<String> file = git("show", spec).lines().toList();
        String excerpt = String.join("\n", file.subList(Integer.parseInt(lines[0]) - 1, Integer.parseInt(lines[1]))) + "\n";
        assertThat(excerpt).isEqualTo(Files.readString(Path.of("gam-eval/src/test/resources/harness/vlmevalkit-" + name + ".py.txt")));
    }

    @Test void theMathVistaPromptReadsAsVlmEvalKitWritesIt() {
        String p = HarnessPrompt.MATHVISTA.render("Hint: Please answer the question requiring an integer answer and provide the final value, "
                + "e.g., 1, 2, 3, at the end.\nQuestion: How many bars?", "There are 14 bars.");
        assertThat(p).startsWith("\nPlease read the following example.\nThen extract the answer from the model response and type it at the end of the prompt.\n\n"
                + "\nHint: Please answer the question requiring an integer answer and provide the final value,\ne.g., 1, 2, 3, at the end.\n\n"
                + "Question: Which number is missing?\n\nModel response: The number missing in the sequence is 14.\n\nExtracted answer: 14\n\n");
        // VLMEvalKit's own spelling ("respone") and no newline between the reply and the answer label
        assertThat(p).endsWith("Question: How many bars?\nModel respone: There are 14 bars.Extracted answer:");
        assertThat(HarnessPrompt.MATHVISION.examples().get(0)).contains("Hint: Please answer the question and provide the final answer at the end.");
    }

    private static JsonNode data(String name) throws Exception {
        try (InputStream in = HarnessPrompt.class.getResourceAsStream("/grading/vlmevalkit-" + name + ".json")) {
            return Json.MAPPER.readTree(in);
        }
    }

    /** A Python string literal's value: the escapes these sources use, and a backslash-newline continuation. */
    private static String python(String body) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c != '\\' || i + 1 == body.length()) {
                sb.append(c);
                continue;
            }
            char n = body.charAt(++i);
            switch (n) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case '\\', '\'', '"' -> sb.append(n);
                case '\n' -> { }
                default -> sb.append('\\').append(n);
            }
        }
        return sb.toString();
    }

    private static String git(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "--git-dir", MIRROR.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", cmd) + ": " + out).isZero();
        return out;
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
