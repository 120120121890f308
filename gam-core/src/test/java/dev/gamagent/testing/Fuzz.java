package dev.gamagent.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Random;

/**
 * Structure-aware inputs for the fuzz tests ({@link FuzzRun}): texts built from the tokens our parsers look for,
 * JSON trees built from the field names of the wire formats, and byte-level mutations of valid samples
 * (cut, splice, repeat, flip, invalid UTF-8). Purely random strings rarely get past a parser's first
 * check; these reach the branches behind it.
 */
public final class Fuzz {
    private Fuzz() { }

    /** Tokens the reply, claim and option parsers react to, plus hostile ones. */
    public static final List<String> REPLY_TOKENS = List.of("ANSWER:", "ANSWER: B", "Answer: (C)", "CLAIM 1:", "CLAIM 2:", " | CONFIDENCE: ",
            "CONFIDENCE:", "80%", "0.7", "1.5", "-3", "-1e309", "1e309", "NaN", "Infinity", "REGION:", "0.1,0.2,0.5,0.6",
            "[0.1, 0.2, 0.5, 0.6]", "[", "]", "{", "}", "\"answer\":", "\"claims\":", "\"confidence\":", "\"region\":", "\"text\":", ",", ":",
            "\n", "\r\n", " ", "The answer is ", "(A)", "A.", "B)", "option C", "D", "Z", "a", "NOT APPLICABLE", "N/A", "EVIDENCE:",
            "ASSESSMENT:", "VERDICT:", "correct", "incorrect", "unsupported", "PATH:", "EXPERT:", "I cannot answer", "I'm not sure",
            "probably", "red", "blue", "triangle", "\u0000", "\uFFFD", "\uD83D\uDE00", "\uD83D", "```json", "```", "\\", "\"", "'",
            "<|im_end|>", "**B**", "Option A: red", "1.", "2)", "🙂", "ß", "İ", "\t", "|", " | ", "CLAIM 99999999999:", "12345678901234567890");

    /** Field names of the OpenAI, Ollama, Gemini and Anthropic answers and of chat requests. */
    public static final List<String> WIRE_FIELDS = List.of("id", "object", "model", "choices", "index", "message", "role", "content", "logprobs",
            "top_logprobs", "token", "logprob", "bytes", "finish_reason", "usage", "prompt_tokens", "completion_tokens", "total_tokens",
            "done_reason", "prompt_eval_count", "eval_count", "candidates", "parts", "text", "thought", "logprobsResult", "chosenCandidates",
            "topCandidates", "logProbability", "finishReason", "usageMetadata", "promptTokenCount", "candidatesTokenCount", "modelVersion",
            "promptFeedback", "blockReason", "type", "stop_reason", "input_tokens", "output_tokens", "refusal", "messages", "image_url",
            "url", "detail", "stream", "n", "temperature", "max_tokens", "seed", "response_format", "json_schema", "schema", "name");

    public static final List<String> WIRE_STRINGS = List.of("assistant", "user", "system", "text", "image_url", "stop", "length", "A", "B",
            "ANSWER: A", "", "-inf", "-Infinity", "NaN", "null", "data:image/png;base64,AAAA", "data:image/png;base64,", "data:text/plain;base64,aGk=",
            "http://127.0.0.1/x.png", "file:///etc/passwd", "json_schema", "single", "gam", "\u0000", "\uD83D");

    public static String reply(Random r) {
        int n = r.nextInt(40);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) sb.append(r.nextInt(8) == 0 ? randomString(r, 8) : REPLY_TOKENS.get(r.nextInt(REPLY_TOKENS.size())));
        return r.nextInt(10) == 0 ? mutate(sb.toString(), r, REPLY_TOKENS) : sb.toString();
    }

    /** Any UTF-16, including lone surrogates and controls. */
    public static String randomString(Random r, int maxLength) {
        int n = r.nextInt(maxLength + 1);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            int kind = r.nextInt(6);
            sb.append(kind == 0 ? (char) r.nextInt(32) : kind == 1 ? (char) (0xD800 + r.nextInt(0x800)) : kind == 2 ? (char) r.nextInt(0x10000)
                    : (char) (32 + r.nextInt(95)));
        }
        return sb.toString();
    }

    /** A random JSON tree using {@code fields} for keys, at most {@code depth} deep. */
    public static JsonNode json(Random r, int depth, List<String> fields, List<String> strings) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        int kind = depth <= 0 ? 3 + r.nextInt(6) : r.nextInt(9);
        switch (kind) {
            case 0, 1 -> {
                ObjectNode o = f.objectNode();
                int n = r.nextInt(6);
                for (int i = 0; i < n; i++) o.set(fields.get(r.nextInt(fields.size())), json(r, depth - 1, fields, strings));
                return o;
            }
            case 2 -> {
                ArrayNode a = f.arrayNode();
                int n = r.nextInt(5);
                for (int i = 0; i < n; i++) a.add(json(r, depth - 1, fields, strings));
                return a;
            }
            case 3 -> { return f.textNode(strings.get(r.nextInt(strings.size()))); }
            case 4 -> { return f.textNode(randomString(r, 12)); }
            case 5 -> {
                double[] specials = {0, -0.0, 1, -1, 1e308, -1e308, 4.9e-324, -9999, 0.5, 12_845_056, Integer.MAX_VALUE, Long.MIN_VALUE};
                return r.nextBoolean() ? f.numberNode(specials[r.nextInt(specials.length)]) : f.numberNode(r.nextInt(2000) - 1000);
            }
            case 6 -> { return f.booleanNode(r.nextBoolean()); }
            case 7 -> { return f.nullNode(); }
            default -> { return f.numberNode(r.nextGaussian() * 10); }
        }
    }

    /** Cuts, splices, repeats and flips: what a truncated download or a confused server produces. */
    public static String mutate(String s, Random r, List<String> splices) {
        StringBuilder sb = new StringBuilder(s);
        int ops = 1 + r.nextInt(4);
        for (int k = 0; k < ops; k++) {
            int len = sb.length();
            int at = len == 0 ? 0 : r.nextInt(len + 1);
            switch (r.nextInt(6)) {
                case 0 -> sb.setLength(at); // truncate
                case 1 -> sb.insert(at, splices.get(r.nextInt(splices.size())));
                case 2 -> { if (at < len) sb.delete(at, Math.min(len, at + 1 + r.nextInt(8))); }
                case 3 -> { if (at < len) sb.setCharAt(at, (char) (sb.charAt(at) ^ (1 << r.nextInt(7)))); }
                case 4 -> { if (at < len) sb.insert(at, sb.substring(at, Math.min(len, at + 1 + r.nextInt(30)))); }
                default -> sb.insert(at, randomString(r, 4));
            }
        }
        return sb.toString();
    }

    /** Bytes with some invalid UTF-8 sequences inserted (lone continuation bytes, overlong forms, cut code points). */
    public static byte[] withBadUtf8(byte[] b, Random r) {
        byte[][] bad = {{(byte) 0xE9}, {(byte) 0x80}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xF0, (byte) 0x9F}, {(byte) 0xFF}, {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}};
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int cuts = r.nextInt(3);
        int[] at = new int[cuts];
        for (int i = 0; i < cuts; i++) at[i] = b.length == 0 ? 0 : r.nextInt(b.length);
        java.util.Arrays.sort(at);
        int from = 0;
        for (int a : at) {
            out.write(b, from, a - from);
            byte[] x = bad[r.nextInt(bad.length)];
            out.write(x, 0, x.length);
            from = a;
        }
        out.write(b, from, b.length - from);
        return out.toByteArray();
    }
}
