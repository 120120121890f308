package dev.gamagent.bench.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.TokenLogprob;
import dev.gamagent.backend.openai.ChatCompletionReply;
import dev.gamagent.backend.openai.ChatCompletionWriter;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A simulated reply: not a model's answer but a well-formed one, so a client does all the work it would
 * do for a real server. It names an option of the question (or a word for an open question), in the
 * project's line format or as an instance of the requested JSON schema, padded to the configured length,
 * with a log-prob and top-k alternatives for every token in OpenAI's shape. The same request gets the
 * same reply; agents of one question name the common answer with probability {@code agreement}.
 */
final class SimulatedReply {
    /** The {@code system_fingerprint} of its replies and the {@code owned_by} of its model: how a client knows the simulator. */
    static final String FINGERPRINT = "gam-bench-serve-sim";
    private static final Pattern OPTION = Pattern.compile("(?m)^\\(?([A-Z])[.)]\\s+\\S");
    private static final List<String> WORDS = List.of("red", "blue", "green", "circle", "square", "left", "right", "three", "seven",
        "large", "small", "text", "sign", "chart", "bar", "top", "below", "near", "shape", "color");
    private static final List<String> FILLER = List.of(" the", " image", " shows", " a", " clear", " region", " with", " visible",
        " detail", " and", " it", " is", " near", " that", " part", " of", " scene");
    private static final List<String> ALTERNATIVES = List.of(" the", " a", ",", " of", " this", " in", ".", " which");

    /** One generated token and its alternatives, the chosen token first. */
    record Token(String text, double logprob, List<Alternative> top) { }

    record Alternative(String text, double logprob) { }

    /** One choice: its content, tokens (as many as counted) and why it ended. */
    record Choice(String content, List<Token> tokens, String finishReason) { }

    private final SimulatedRequest request;
    private final SimulatorSettings settings;
    private final SplittableRandom random;
    private final List<String> letters;
    private final String answer;
    private final List<String> others;
    private final double answerProbability;
    private final List<Token> tokens = new ArrayList<>();
    private final StringBuilder content = new StringBuilder();

    private SimulatedReply(SimulatedRequest request, SimulatorSettings settings, int index) {
        this.request = request;
        this.settings = settings;
        long seed = request.text().hashCode() * 0x9E3779B97F4A7C15L + (request.seed() == null ? 0 : request.seed()) * 31 + index;
        this.random = new SplittableRandom(seed);
        this.letters = options(request.text());
        List<String> pool = letters.isEmpty() ? WORDS : letters;
        int common = Math.floorMod(identity(request.text(), letters).hashCode(), pool.size());
        int chosen = common;
        if (pool.size() > 1 && random.nextDouble() >= settings.agreement()) chosen = (common + 1 + random.nextInt(pool.size() - 1)) % pool.size();
        this.answer = pool.get(chosen);
        List<String> rest = new ArrayList<>();
        for (int i = 1; i < pool.size() && rest.size() < 4; i++) rest.add(pool.get((chosen + i) % pool.size()));
        this.others = rest;
        this.answerProbability = 0.55 + 0.44 * random.nextDouble();
    }

    /** Choice {@code index} (0-based) of {@code request}. */
    static Choice generate(SimulatedRequest request, SimulatorSettings settings, int index) {
        return new SimulatedReply(request, settings, index).build();
    }

    private Choice build() {
        int budget = Math.min(settings.completionTokens(), request.maxTokens());
        if (request.schema() != null) {
            json(budget);
        } else {
            lines(budget);
        }
        if (tokens.size() <= request.maxTokens()) return new Choice(content.toString(), List.copyOf(tokens), "stop");
        List<Token> kept = List.copyOf(tokens.subList(0, request.maxTokens()));
        StringBuilder sb = new StringBuilder();
        for (Token t : kept) sb.append(t.text());
        return new Choice(sb.toString(), kept, "length");
    }

    private void lines(int budget) {
        text("ANSWER:");
        answer(" " + answer);
        text(String.format(Locale.ROOT, "\nCONFIDENCE: %.2f", answerProbability));
        int left = budget - tokens.size() - 2;
        if (left > 0) {
            text("\nREASON:");
            filler(left);
        }
    }

    /** An instance of the schema; its free-text strings share what is left of the budget. */
    private void json(int budget) {
        int slots = fillerSlots(request.schema(), null);
        SimulatedReply probe = new SimulatedReply(request, settings, 0);
        probe.instance(request.schema(), null, 0);
        int perSlot = slots == 0 ? 0 : Math.max(3, (budget - probe.tokens.size()) / slots); // never empty strings
        instance(request.schema(), null, perSlot);
    }

    private void instance(JsonNode schema, String name, int words) {
        JsonNode en = schema.path("enum");
        if (en.isArray() && en.size() > 0) {
            text("\"" + en.get(random.nextInt(en.size())).asText() + "\"");
            return;
        }
        String type = schema.path("type").asText("string");
        switch (type) {
            case "object" -> {
                text("{");
                boolean first = true;
                for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    text((first ? "" : ",") + "\"" + e.getKey() + "\":");
                    first = false;
                    instance(e.getValue(), e.getKey(), words);
                }
                text("}");
            }
            case "array" -> {
                JsonNode items = schema.path("items");
                boolean numbers = items.path("type").asText().equals("number");
                int count = numbers ? 4 : 2;
                text("[");
                for (int i = 0; i < count; i++) {
                    if (i > 0) text(",");
                    if (numbers) text(String.format(Locale.ROOT, "%.2f", 0.1 + 0.2 * i)); // x0 < x1, y0 < y1 for a region
                    else instance(items, name, words);
                }
                text("]");
            }
            case "number" -> text(String.format(Locale.ROOT, "%.2f", name != null && name.contains("confidence")
                    ? answerProbability : random.nextDouble()));
            case "integer" -> text("1");
            case "boolean" -> text("false");
            default -> {
                if ("answer".equals(name)) {
                    text("\"");
                    answer(answer);
                    text("\"");
                } else {
                    text("\"");
                    filler(words);
                    text("\"");
                }
            }
        }
    }

    private static int fillerSlots(JsonNode schema, String name) {
        if (schema.path("enum").isArray()) return 0;
        return switch (schema.path("type").asText("string")) {
            case "object" -> {
                int n = 0;
                for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    n += fillerSlots(e.getValue(), e.getKey());
                }
                yield n;
            }
            case "array" -> schema.path("items").path("type").asText().equals("number") ? 0 : 2 * fillerSlots(schema.path("items"), name);
            case "string" -> "answer".equals(name) ? 0 : 1;
            default -> 0;
        };
    }

    private void filler(int words) {
        for (int i = 0; i < words; i++) text(FILLER.get(random.nextInt(FILLER.size())));
    }

    /** The answer token: its alternatives are the other options (or words), with what probability is left. */
    private void answer(String text) {
        String prefix = text.startsWith(" ") ? " " : "";
        List<Alternative> top = new ArrayList<>();
        top.add(new Alternative(text, Math.log(answerProbability)));
        double rest = 1 - answerProbability;
        for (String o : others) {
            double q = rest * 0.6;
            rest -= q;
            top.add(new Alternative(prefix + o, Math.log(q)));
        }
        for (int i = 0; top.size() < 5 && i < ALTERNATIVES.size(); i++) {
            double q = rest * 0.5; // a server returns k alternatives even when few of them are options
            rest -= q;
            top.add(new Alternative(ALTERNATIVES.get(i), Math.log(q)));
        }
        content.append(text);
        tokens.add(new Token(text, Math.log(answerProbability), top));
    }

    /** Ordinary text: near-certain tokens with a few unlikely alternatives. */
    private void text(String s) {
        content.append(s);
        for (String t : tokenize(s)) {
            double p = 0.85 + 0.149 * random.nextDouble();
            List<Alternative> top = new ArrayList<>(5);
            top.add(new Alternative(t, Math.log(p)));
            double rest = 1 - p;
            int start = random.nextInt(ALTERNATIVES.size());
            for (int i = 0; top.size() < 5 && i < ALTERNATIVES.size(); i++) {
                String alt = ALTERNATIVES.get((start + i) % ALTERNATIVES.size());
                if (alt.equals(t)) continue;
                double q = rest * 0.5;
                rest -= q;
                top.add(new Alternative(alt, Math.log(q)));
            }
            tokens.add(new Token(t, Math.log(p), top));
        }
    }

    /** Word pieces as a BPE tokenizer would cut them: a leading space joins the word; long words split. */
    static List<String> tokenize(String s) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            int start = i;
            if (s.charAt(i) == ' ' && i + 1 < s.length() && Character.isLetterOrDigit(s.charAt(i + 1))) i++;
            if (Character.isLetter(s.charAt(i))) {
                int end = i;
                while (end < s.length() && Character.isLetter(s.charAt(end)) && end - start < 6) end++;
                i = end;
            } else if (Character.isDigit(s.charAt(i))) {
                int end = i;
                while (end < s.length() && (Character.isDigit(s.charAt(end)) || s.charAt(end) == '.') && end - start < 4) end++;
                i = end;
            } else {
                // punctuation runs such as '":"', '{"' or '],' are single tokens in BPE vocabularies
                int end = i + 1;
                while (end < s.length() && end - i < 3 && isPunctuation(s.charAt(end))) end++;
                i = isPunctuation(s.charAt(i)) ? end : i + 1;
            }
            out.add(s.substring(start, i));
        }
        return out;
    }

    private static boolean isPunctuation(char c) { return !Character.isLetterOrDigit(c) && !Character.isWhitespace(c); }

    /** The option letters of a multiple-choice prompt, in order, without repeats. */
    static List<String> options(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = OPTION.matcher(text);
        while (m.find()) if (!out.contains(m.group(1))) out.add(m.group(1));
        return out.size() >= 2 ? out : List.of();
    }

    /** What identifies the question across agents and rounds: its option lines, or its first line with a question mark. */
    private static String identity(String text, List<String> letters) {
        StringBuilder sb = new StringBuilder();
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (!letters.isEmpty() && l.length() > 2 && letters.contains(l.substring(0, 1)) && (l.charAt(1) == '.' || l.charAt(1) == ')')) sb.append(l).append('\n');
            else if (letters.isEmpty() && l.endsWith("?")) return l;
        }
        return sb.length() > 0 ? sb.toString() : text;
    }

    /**
     * The chat.completion body for {@code choices}, in OpenAI's shape ({@link ChatCompletionWriter}); {@code created} in
     * seconds since the epoch. Log-probs are rounded to 6 places, and each token keeps at most {@code top_logprobs}
     * alternatives. {@code cachedTokens}, when not null, is reported as {@code usage.prompt_tokens_details.cached_tokens}.
     */
    static byte[] body(String id, String model, long created, SimulatedRequest r, List<Choice> choices, long promptTokens, Long cachedTokens) {
        List<ChatCompletionReply.CompletionChoice> out = new ArrayList<>(choices.size());
        long completion = 0;
        for (int i = 0; i < choices.size(); i++) {
            Choice c = choices.get(i);
            completion += c.tokens().size();
            out.add(new ChatCompletionReply.CompletionChoice(i, new ChatCompletionReply.Message(c.content()),
                    r.logprobs() ? logprobs(c.tokens(), r.topLogprobs()) : null, c.finishReason()));
        }
        ChatCompletionReply.TokenUsage usage = ChatCompletionReply.TokenUsage.of(promptTokens, completion);
        if (cachedTokens != null) usage = usage.withCachedTokens(cachedTokens);
        return ChatCompletionWriter.bytes(new ChatCompletionReply.Completion(id, created, model, FINGERPRINT, out, usage, null));
    }

    private static ChatCompletionReply.Logprobs logprobs(List<Token> tokens, int top) {
        List<TokenLogprob> out = new ArrayList<>(tokens.size());
        for (Token t : tokens) {
            List<TokenLogprob.Alternative> alts = new ArrayList<>(t.top().size());
            for (Alternative a : t.top()) alts.add(new TokenLogprob.Alternative(a.text(), rounded(a.logprob())));
            out.add(new TokenLogprob(t.text(), rounded(t.logprob()), alts));
        }
        return ChatCompletionReply.Logprobs.of(out, top);
    }

    private static double rounded(double logprob) { return Math.round(logprob * 1e6) / 1e6; }
}
