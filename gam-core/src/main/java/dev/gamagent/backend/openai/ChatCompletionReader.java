package dev.gamagent.backend.openai;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gamagent.backend.openai.ChatCompletionRequest.ImageUrl;
import dev.gamagent.backend.openai.ChatCompletionRequest.Message;
import dev.gamagent.backend.openai.ChatCompletionRequest.Part;
import dev.gamagent.backend.openai.ChatCompletionRequest.ResponseFormat;
import dev.gamagent.backend.openai.ChatCompletionRequest.Role;
import dev.gamagent.backend.openai.ChatCompletionRequest.Text;
import dev.gamagent.backend.openai.WireFormatException.Problem;
import dev.gamagent.util.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an OpenAI chat-completions request body into a {@link ChatCompletionRequest}, the one reader of the wire
 * format on the receiving side (what {@code gam serve} takes: docs/SERVER.md). It reads in one streaming pass, so a
 * megabyte of base64 image is scanned once and never turned into a tree. What it refuses, it refuses with a
 * {@link WireFormatException} naming the field; a body that is not valid JSON anywhere is reported as that, whatever
 * else is wrong with it. Fields it does not know are skipped. What a receiver accepts beyond the shape (image hosts,
 * limits, defaults) is the receiver's.
 */
public final class ChatCompletionReader {
    private static final JsonFactory FACTORY = Json.MAPPER.getFactory();
    private static final String ROLES = "system, developer, user, assistant, tool or function";

    private ChatCompletionReader() { }

    /** Reads a body held in memory. */
    public static ChatCompletionRequest read(byte[] body) {
        try {
            return read(FACTORY.createParser(body));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // bytes in memory: no I/O can fail
        }
    }

    /** Reads a body as it arrives; an {@link IOException} is the stream's (the client went away), not the body's. */
    public static ChatCompletionRequest read(InputStream body) throws IOException {
        return read(FACTORY.createParser(body));
    }

    private static ChatCompletionRequest read(JsonParser p) throws IOException {
        try (p) {
            try {
                return request(p);
            } catch (WireFormatException e) {
                // a body broken further on is reported as not JSON, as a parser reading it whole would
                while (!p.getParsingContext().inRoot() && p.nextToken() != null) { }
                throw e;
            }
        } catch (JsonProcessingException e) {
            throw new WireFormatException(Problem.INVALID_JSON, "the request body is not valid JSON: " + Json.problem(e));
        }
    }

    private static ChatCompletionRequest request(JsonParser p) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) throw new WireFormatException(Problem.INVALID_JSON, "the request body must be a JSON object");
        String model = null;
        List<Message> messages = null;
        Integer maxTokens = null, maxCompletionTokens = null, n = null, top = null;
        Double temperature = null;
        Long seed = null;
        Boolean logprobs = null, stream = null;
        ResponseFormat response = null;
        List<String> stop = null;
        String toolChoice = null;
        List<String> others = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "model" -> model = string(p, field);
                case "messages" -> messages = messages(p);
                case "max_tokens" -> maxTokens = atLeast(p, field, 1);
                case "max_completion_tokens" -> maxCompletionTokens = atLeast(p, field, 1);
                case "n" -> n = atLeast(p, field, 1);
                case "top_logprobs" -> top = atLeast(p, field, 0);
                case "temperature" -> temperature = number(p, field);
                case "seed" -> seed = longValue(p, field);
                case "logprobs" -> logprobs = bool(p, field);
                case "stream" -> stream = bool(p, field);
                case "response_format" -> response = responseFormat(p);
                case "stop" -> stop = stop(p);
                case "tool_choice" -> toolChoice = toolChoice(p);
                default -> {
                    if (p.currentToken() != JsonToken.VALUE_NULL && !others.contains(field)) others.add(field);
                    p.skipChildren();
                }
            }
        }
        if (messages == null) {
            throw new WireFormatException(Problem.MISSING_MESSAGES, "'messages' is missing: send a non-empty array of {role, content}");
        }
        return new ChatCompletionRequest(model, messages, maxCompletionTokens != null ? maxCompletionTokens : maxTokens, temperature,
                n == null ? 1 : n, seed, logprobs != null && logprobs, top == null ? 0 : top, stream != null && stream, response,
                stop, toolChoice, others);
    }

    /** {@code stop}: a string or an array of strings (OpenAI's limit of 4 is the receivers' to apply). */
    private static List<String> stop(JsonParser p) throws IOException {
        switch (p.currentToken()) {
            case VALUE_NULL: return null;
            case VALUE_STRING: return List.of(p.getText());
            case START_ARRAY: break;
            default: throw invalid(p, "stop", "must be a string or an array of strings");
        }
        List<String> out = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t != JsonToken.VALUE_STRING) throw invalid(p, "stop[" + out.size() + "]", "must be a string");
            out.add(p.getText());
        }
        return out;
    }

    /** {@code tool_choice}: "none", "auto", "required", or an object whose {@code type} is read ("function"). */
    private static String toolChoice(JsonParser p) throws IOException {
        switch (p.currentToken()) {
            case VALUE_NULL: return null;
            case VALUE_STRING: return p.getText();
            case START_OBJECT: break;
            default: throw invalid(p, "tool_choice", "must be a string or an object");
        }
        String type = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            if (f.equals("type") && p.currentToken() == JsonToken.VALUE_STRING) type = p.getText();
            else p.skipChildren();
        }
        return type == null ? "object" : type;
    }

    private static List<Message> messages(JsonParser p) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NULL) return null;
        if (p.currentToken() != JsonToken.START_ARRAY) throw notMessages();
        List<Message> out = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            int i = out.size();
            if (t != JsonToken.START_OBJECT) throw new WireFormatException(Problem.INVALID_CONTENT, at(i) + ": must be an object {role, content}");
            Role role = null;
            List<Part> content = List.of();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "role" -> role = role(p, i);
                    case "content" -> content = content(p, i);
                    default -> p.skipChildren();
                }
            }
            if (role == null) throw new WireFormatException(Problem.INVALID_CONTENT, at(i) + ".role: missing; use " + ROLES);
            out.add(new Message(role, content));
        }
        if (out.isEmpty()) throw notMessages();
        return out;
    }

    private static WireFormatException notMessages() {
        return new WireFormatException(Problem.MISSING_MESSAGES, "messages: must be a non-empty array of {role, content}");
    }

    private static Role role(JsonParser p, int i) throws IOException {
        String wire = p.currentToken() == JsonToken.VALUE_STRING ? p.getText() : null;
        if (wire != null) {
            switch (wire) {
                case "system": return Role.SYSTEM;
                case "developer": return Role.DEVELOPER;
                case "user": return Role.USER;
                case "assistant": return Role.ASSISTANT;
                case "tool": return Role.TOOL;
                case "function": return Role.FUNCTION;
                default: break;
            }
        }
        p.skipChildren();
        throw new WireFormatException(Problem.INVALID_CONTENT, at(i) + ".role: " + (wire == null ? "not a string" : "'" + wire + "'")
                + " is not a role; use " + ROLES);
    }

    private static List<Part> content(JsonParser p, int i) throws IOException {
        switch (p.currentToken()) {
            case VALUE_STRING: return List.of(new Text(p.getText()));
            case VALUE_NULL: return List.of();
            case START_ARRAY: break;
            default: throw new WireFormatException(Problem.INVALID_CONTENT, at(i) + ".content: must be a string or an array of parts");
        }
        List<Part> parts = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) parts.add(part(p, t, i, parts.size()));
        return parts;
    }

    private static Part part(JsonParser p, JsonToken t, int i, int j) throws IOException {
        if (t != JsonToken.START_OBJECT) {
            throw new WireFormatException(Problem.INVALID_CONTENT, at(i, j) + ": must be an object {\"type\": \"text\" or \"image_url\", ...}");
        }
        String type = null, text = null, url = null, detail = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "type" -> type = partString(p, i, j, ".type");
                case "text" -> text = partString(p, i, j, ".text");
                case "image_url" -> {
                    if (v == JsonToken.VALUE_STRING) {
                        url = p.getText();
                    } else if (v == JsonToken.START_OBJECT) {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String f = p.currentName();
                            p.nextToken();
                            if (f.equals("url")) url = partString(p, i, j, ".image_url.url");
                            else if (f.equals("detail")) detail = partString(p, i, j, ".image_url.detail");
                            else p.skipChildren();
                        }
                    } else if (v != JsonToken.VALUE_NULL) {
                        throw new WireFormatException(Problem.INVALID_CONTENT, at(i, j) + ".image_url: must be a URL or an object {url, detail}");
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (type == null) throw new WireFormatException(Problem.UNSUPPORTED_CONTENT, at(i, j) + ".type: missing; use 'text' or 'image_url'");
        switch (type) {
            case "text", "input_text" -> {
                if (text == null) throw new WireFormatException(Problem.INVALID_CONTENT, at(i, j) + ".text: missing in a text part");
                return new Text(text);
            }
            case "image_url", "input_image" -> {
                if (url == null || url.isBlank()) {
                    throw new WireFormatException(Problem.MISSING_IMAGE_URL, at(i, j) + ".image_url.url: missing; send "
                            + "{\"type\": \"image_url\", \"image_url\": {\"url\": \"data:image/png;base64,...\"}}");
                }
                return new ImageUrl(url, detail);
            }
            default -> throw new WireFormatException(Problem.UNSUPPORTED_CONTENT, at(i, j) + ".type: content part type '" + type
                    + "' is not supported; use 'text' or 'image_url'");
        }
    }

    private static ResponseFormat responseFormat(JsonParser p) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NULL) return null;
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            throw new WireFormatException(Problem.INVALID_FIELD, "response_format: must be an object {type, json_schema}");
        }
        JsonNode rf = p.readValueAsTree();
        JsonNode type = rf.path("type"), js = rf.path("json_schema");
        if (!type.isMissingNode() && !type.isNull() && !type.isTextual()) {
            throw new WireFormatException(Problem.INVALID_FIELD, "response_format.type: must be a string such as \"json_schema\"");
        }
        JsonNode schema = js.get("schema");
        return new ResponseFormat(type.textValue(), js.path("name").textValue(), schema == null || schema.isNull() ? null : schema);
    }

    private static String string(JsonParser p, String field) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_STRING -> p.getText();
            case VALUE_NULL -> null;
            default -> throw invalid(p, field, "must be a string");
        };
    }

    /** A part's string field; its name is spelled out only when it is wrong (this runs for every part). */
    private static String partString(JsonParser p, int i, int j, String field) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_STRING) return p.getText();
        if (t == JsonToken.VALUE_NULL) return null;
        throw invalid(p, at(i, j) + field, "must be a string");
    }

    private static Boolean bool(JsonParser p, String field) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_TRUE -> true;
            case VALUE_FALSE -> false;
            case VALUE_NULL -> null;
            default -> throw invalid(p, field, "must be true or false");
        };
    }

    private static Double number(JsonParser p, String field) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getDoubleValue();
            case VALUE_NULL -> null;
            default -> throw invalid(p, field, "must be a number");
        };
    }

    private static Integer atLeast(JsonParser p, String field, int min) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NULL) return null;
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) throw invalid(p, field, "must be a whole number");
        if (p.getNumberType() != JsonParser.NumberType.INT || p.getIntValue() < min) {
            throw invalid(p, field, "must be at least " + min + (p.getNumberType() == JsonParser.NumberType.INT ? "" : " and at most " + Integer.MAX_VALUE));
        }
        return p.getIntValue();
    }

    private static Long longValue(JsonParser p, String field) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NULL) return null;
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) throw invalid(p, field, "must be a whole number");
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) throw invalid(p, field, "must fit in 64 bits");
        return p.getLongValue();
    }

    /** The field, what it must be, and what came (a container is skipped, so the rest of the body is still read). */
    private static WireFormatException invalid(JsonParser p, String field, String must) throws IOException {
        JsonToken t = p.currentToken();
        String got = t.isScalarValue() ? p.getText() : t == JsonToken.START_ARRAY ? "an array" : "an object";
        if (t.isScalarValue() && t == JsonToken.VALUE_STRING) got = "\"" + (got.length() > 40 ? got.substring(0, 40) + "..." : got) + "\"";
        p.skipChildren();
        return new WireFormatException(Problem.INVALID_FIELD, field + ": " + must + ", got " + got);
    }

    private static String at(int message) { return "messages[" + message + "]"; }

    private static String at(int message, int part) { return at(message) + ".content[" + part + "]"; }
}
