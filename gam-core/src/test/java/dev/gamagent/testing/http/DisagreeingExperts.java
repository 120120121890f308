package dev.gamagent.testing.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.util.Json;

import javax.imageio.ImageIO;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A test tool, never a result: a wire-server responder that plays a panel of VLM agents on a three-option
 * question, reading each prompt's {@code <role>} and {@code <task>} lines (docs/CONTRACTS.md §1). In the
 * first answer the scene expert says A sharply, the OCR expert B with medium confidence and the relational
 * expert C vaguely, so GAM's debate starts; critics mark every disputed claim inaccurate; on revision every
 * expert says A sharply. DREAM probes answer A most sharply when the image is wider than {@code baseWidth},
 * sharply at {@code baseWidth}, else B vaguely. Any other prompt gets "ANSWER: A" (line format). Replies carry top-5 log-probs for every
 * token, and the first answer of each role is kept ({@link #firstAnswer}) so tests can recompute Φ_gen.
 */
public final class DisagreeingExperts implements Function<Received, Reply> {
    private static final Pattern ROLE = Pattern.compile("<role>([^<]*)</role>");
    private static final Pattern TASK = Pattern.compile("<task>([^<]*)</task>");
    private static final Pattern CLAIM_LINE = Pattern.compile("(?m)^CLAIM (\\d+) \\[");

    /** How one reply is generated: the answer letter's distribution and the probability of every other token. */
    public record Voice(String letter, Map<String, Double> letterProbs, double fillerP) { }

    public static final Voice SCENE = new Voice("A", ordered("A", 0.95, "B", 0.01, "C", 0.01), 0.97);
    public static final Voice OCR = new Voice("B", ordered("B", 0.85, "A", 0.02, "C", 0.02), 0.85);
    public static final Voice RELATIONAL = new Voice("C", ordered("C", 0.70, "B", 0.04, "A", 0.04), 0.70);
    public static final Voice REVISED = new Voice("A", ordered("A", 0.97, "B", 0.02, "C", 0.005), 0.995);
    public static final Voice PROBE_SHARPEST = new Voice("A", ordered("A", 0.99, "B", 0.005, "C", 0.001), 0.999);
    public static final Voice PROBE_SHARP = new Voice("A", ordered("A", 0.95, "B", 0.03, "C", 0.01), 0.99);
    public static final Voice PROBE_VAGUE = new Voice("B", ordered("B", 0.45, "A", 0.35, "C", 0.15), 0.60);

    private final int baseWidth;
    private final Voice voice;
    private final Map<String, List<TokenLogprob>> firstAnswer = new ConcurrentHashMap<>();
    private final Map<String, Integer> tasks = new ConcurrentHashMap<>();

    /** @param baseWidth the question image's width; DREAM probes below it are answered vaguely */
    public DisagreeingExperts(int baseWidth) { this(baseWidth, null); }

    private DisagreeingExperts(int baseWidth, Voice voice) {
        this.baseWidth = baseWidth;
        this.voice = voice;
    }

    /** A server whose experts all answer first in {@code voice}, whatever their role (one model, one opinion). */
    public static DisagreeingExperts speaking(int baseWidth, Voice voice) { return new DisagreeingExperts(baseWidth, voice); }

    /** The tokens (with their top-k log-probs) sent as the first {@code <task>answer</task>} reply to this role label. */
    public List<TokenLogprob> firstAnswer(String roleLabel) { return firstAnswer.get(roleLabel); }

    /** How many prompts of each task arrived ("answer", "critique", "revise", "probe", ...). */
    public Map<String, Integer> tasks() { return Map.copyOf(tasks); }

    @Override public Reply apply(Received r) {
        String prompt = promptText(r.json());
        String role = group(ROLE, prompt, "assistant");
        String task = group(TASK, prompt, "answer");
        tasks.merge(task, 1, Integer::sum);
        boolean json = r.json().has("response_format") || r.json().has("format") || r.json().path("generationConfig").has("responseJsonSchema");
        switch (task) {
            case "critique" -> {
                int n = 0;
                for (Matcher m = CLAIM_LINE.matcher(prompt); m.find(); ) n = Math.max(n, Integer.parseInt(m.group(1)));
                return certain(critique(Math.max(1, n), json));
            }
            case "probe" -> {
                int w = imageWidth(r.json());
                Voice v = w > baseWidth ? PROBE_SHARPEST : w == baseWidth ? PROBE_SHARP : PROBE_VAGUE;
                return reply(v, "ANSWER: " + v.letter(), "ANSWER: ".length());
            }
            case "revise" -> { return expert(REVISED, json, "The triangle is red in every part of the image."); }
            case "answer" -> {
                Voice v = voice != null && role.endsWith("expert") ? voice : switch (role) {
                    case "scene expert" -> SCENE;
                    case "ocr expert" -> OCR;
                    case "relational expert" -> RELATIONAL;
                    default -> REVISED;
                };
                String colour = voice != null ? switch (v.letter()) { case "A" -> "red"; case "B" -> "blue"; default -> "green"; }
                        : v == SCENE ? "red" : v == OCR ? "blue" : "green";
                Reply.Answer a = expert(v, json, "The triangle looks " + colour + " to me.");
                if (role.endsWith("expert")) firstAnswer.putIfAbsent(role, a.choices().get(0).tokens());
                return a;
            }
            default -> { return reply(REVISED, "ANSWER: A\nCONFIDENCE: 0.9", "ANSWER: ".length()); }
        }
    }

    private static Reply.Answer expert(Voice v, boolean json, String claim) {
        if (json) {
            String head = "{\"answer\": \"";
            String text = head + v.letter() + "\", \"claims\": [{\"text\": \"" + claim + "\", \"confidence\": "
                    + v.letterProbs().get(v.letter()) + ", \"evidence\": \"the colour of the shape\", \"region\": [0.1, 0.2, 0.6, 0.8]}], "
                    + "\"confidence\": " + v.letterProbs().get(v.letter()) + "}";
            return reply(v, text, head.length());
        }
        String head = "ANSWER: ";
        String text = head + v.letter() + "\nCLAIM 1: " + claim + " | CONFIDENCE: " + v.letterProbs().get(v.letter())
                + " | EVIDENCE: the colour of the shape | REGION: 0.1,0.2,0.6,0.8\nCONFIDENCE: " + v.letterProbs().get(v.letter());
        return reply(v, text, head.length());
    }

    private static String critique(int claims, boolean json) {
        StringBuilder sb = new StringBuilder(json ? "{\"assessments\": [" : "");
        for (int i = 1; i <= claims; i++) {
            if (json) {
                sb.append(i > 1 ? ", " : "").append("{\"claim\": ").append(i).append(", \"assessment\": \"inaccurate\", ")
                        .append("\"reason\": \"the shape is red\", \"correction\": \"A. red\", \"confidence\": 0.8}");
            } else {
                sb.append("CLAIM ").append(i).append(": INACCURATE | REASON: the shape is red | CORRECTION: A. red | CONFIDENCE: 0.8\n");
            }
        }
        return json ? sb.append("]}").toString() : sb.toString().strip();
    }

    /**
     * Splits {@code text} into word, space and punctuation tokens; the answer letter at {@code letterAt} gets the
     * voice's letter distribution, every other token probability {@code fillerP} with four made-up alternatives
     * (they leave a residual mass, as a real top-5 does).
     */
    static Reply.Answer reply(Voice v, String text, int letterAt) {
        List<TokenLogprob> tokens = new ArrayList<>();
        Matcher m = Pattern.compile("\\w+|\\s+|[^\\w\\s]").matcher(text);
        while (m.find()) {
            String t = m.group();
            if (m.start() == letterAt) {
                List<TokenLogprob.Alternative> alts = new ArrayList<>();
                v.letterProbs().forEach((l, p) -> alts.add(new TokenLogprob.Alternative(l, Math.log(p))));
                alts.add(new TokenLogprob.Alternative(" The", Math.log(0.01)));
                tokens.add(new TokenLogprob(t, Math.log(v.letterProbs().get(v.letter())), alts));
            } else {
                double p = v.fillerP(), rest = 1 - p;
                tokens.add(new TokenLogprob(t, Math.log(p), List.of(new TokenLogprob.Alternative(t, Math.log(p)),
                        new TokenLogprob.Alternative("~1", Math.log(rest * 0.5)), new TokenLogprob.Alternative("~2", Math.log(rest * 0.25)),
                        new TokenLogprob.Alternative("~3", Math.log(rest * 0.1)), new TokenLogprob.Alternative("~4", Math.log(rest * 0.05)))));
            }
        }
        return Reply.answer(text, tokens);
    }

    private static Reply.Answer certain(String text) {
        return Reply.answer(text, List.of(new TokenLogprob(text, 0.0, List.of(new TokenLogprob.Alternative(text, 0.0)))));
    }

    /** Every text of the request: OpenAI/Anthropic text parts or string contents, Ollama string contents, Gemini parts. */
    public static String promptText(JsonNode body) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode m : messages(body)) {
            JsonNode c = m.has("parts") ? m.path("parts") : m.path("content");
            if (c.isTextual()) sb.append(c.asText()).append('\n');
            for (JsonNode part : c.isArray() ? c : Json.MAPPER.createArrayNode()) {
                if (part.path("text").isTextual()) sb.append(part.path("text").asText()).append('\n');
            }
        }
        return sb.toString();
    }

    private static JsonNode messages(JsonNode body) { return body.has("contents") ? body.path("contents") : body.path("messages"); }

    /** Width of the request's first image (OpenAI data URL, Ollama, Gemini or Anthropic base64), 0 when there is none. */
    public static int imageWidth(JsonNode body) {
        for (JsonNode m : messages(body)) {
            String b64 = null;
            if (m.path("images").isArray() && !m.path("images").isEmpty()) b64 = m.path("images").get(0).asText();
            JsonNode parts = m.has("parts") ? m.path("parts") : m.path("content");
            for (JsonNode part : parts.isArray() ? parts : Json.MAPPER.createArrayNode()) {
                if (b64 != null) break;
                if (part.has("image_url")) {
                    String url = part.path("image_url").path("url").asText();
                    b64 = url.substring(url.indexOf(',') + 1);
                } else if (part.has("inlineData")) {
                    b64 = part.path("inlineData").path("data").asText();
                } else if (part.path("source").has("data")) {
                    b64 = part.path("source").path("data").asText();
                }
            }
            if (b64 != null) {
                try {
                    BufferedImage img = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(b64)));
                    return img == null ? 0 : img.getWidth();
                } catch (IOException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    private static String group(Pattern p, String text, String otherwise) {
        Matcher m = p.matcher(text);
        return m.find() ? m.group(1).strip().toLowerCase(Locale.ROOT) : otherwise;
    }

    private static Map<String, Double> ordered(Object... kv) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], (Double) kv[i + 1]);
        return m;
    }
}
