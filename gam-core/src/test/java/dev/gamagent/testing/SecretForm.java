package dev.gamagent.testing;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The forms an API key takes when an upstream (a gateway's error page, a debugging proxy, a JSON encoder that
 * escapes slashes, a model that repeats what it was sent) echoes it back, for tests that check a key is written
 * nowhere. Written for keys with '/', '+' and '=' (the characters escapers change). The first eight are escapes as
 * they sit inside a JSON string; the others are text as a model would write it (white space, hex, {@code \xNN},
 * most of the key), which a JSON body carries escaped ({@link #inJson}).
 */
public enum SecretForm {
    RAW("as is"),
    JSON_SLASH("JSON-escaped, \\/"),
    JSON_UNICODE("JSON-escaped, \\u002f"),
    JSON_TWICE("JSON-escaped twice, \\\\\\/"),
    HTML("HTML-escaped, &#x2F; &#43; &equals;"),
    URL("URL-encoded, %2F"),
    BASE64_USER_KEY("base64 of user:key"),
    BASE64_KEY("base64 of the key"),
    SPACED("split by spaces and tabs"),
    LINES("split by line breaks"),
    ONE_PER_LINE("one character a line"),
    BASE64_MIME("base64 of a header dump, wrapped at 76 (MIME)"),
    BASE64_NARROW("base64 of u:key, wrapped at 10"),
    HEX("hex"),
    HEX_COLONS("hex, upper case, 2D:74:..."),
    HEX_SPACED("hex, 0x2d 0x74 ..."),
    BACKSLASH_X("\\xNN escapes"),
    ALL_BUT_LAST_3("all but its last 3 characters"),
    ALL_BUT_FIRST_3("all but its first 3 characters");

    private final String label;

    SecretForm(String label) { this.label = label; }

    public String label() { return label; }

    /** {@code key} in this form. */
    public String of(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        return switch (this) {
            case RAW -> key;
            case JSON_SLASH -> key.replace("/", "\\/");
            case JSON_UNICODE -> key.replace("/", "\\u002f").replace("+", "\\u002B").replace("=", "\\u003d");
            case JSON_TWICE -> key.replace("/", "\\\\\\/");
            case HTML -> key.replace("/", "&#x2F;").replace("+", "&#43;").replace("=", "&equals;");
            case URL -> key.replace("/", "%2F").replace("+", "%2B").replace("=", "%3D");
            case BASE64_USER_KEY -> Base64.getEncoder().encodeToString(("user:" + key).getBytes(StandardCharsets.UTF_8));
            case BASE64_KEY -> Base64.getEncoder().encodeToString(bytes);
            case SPACED -> split(key, List.of(" ", "\t", "   ", " \t "), 4);
            case LINES -> split(key, List.of("\n", "\r\n", "\n\n"), 6);
            case ONE_PER_LINE -> split(key, List.of("\n"), 1);
            // the key's digits straddle the first line break
            case BASE64_MIME -> Base64.getMimeEncoder().encodeToString(("Host: 127.0.0.1:8000\r\nAuthorization: Bearer " + key
                    + "\r\nAccept: */*\r\nUser-Agent: Java-http-client/17\r\n").getBytes(StandardCharsets.UTF_8));
            case BASE64_NARROW -> split(Base64.getEncoder().encodeToString(("u:" + key).getBytes(StandardCharsets.UTF_8)), List.of("\n"), 10);
            case HEX -> HexFormat.of().formatHex(bytes);
            case HEX_COLONS -> HexFormat.ofDelimiter(":").withUpperCase().formatHex(bytes);
            case HEX_SPACED -> HexFormat.ofDelimiter(" ").withPrefix("0x").formatHex(bytes);
            case BACKSLASH_X -> HexFormat.of().withPrefix("\\x").formatHex(bytes);
            case ALL_BUT_LAST_3 -> key.substring(0, key.length() - 3);
            case ALL_BUT_FIRST_3 -> key.substring(3);
        };
    }

    /** Whether this form is text a model writes (a JSON body escapes it) rather than an escape as it sits in a JSON string. */
    public boolean isText() { return ordinal() >= SPACED.ordinal(); }

    /** {@code key} in this form as it sits inside a JSON string (the first eight as they are; the others JSON-escaped). */
    public String inJson(String key) { return isText() ? jsonEscaped(of(key)) : of(key); }

    /** What a leak of {@code key} in this form looks like in an output: the form as it is and, for text, JSON-escaped. */
    public List<String> written(String key) { return isText() ? List.of(of(key), jsonEscaped(of(key))) : List.of(of(key)); }

    /** {@code s} as the content of a JSON string. */
    public static String jsonEscaped(String s) {
        return s.chars().mapToObj(c -> switch (c) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            default -> c < 0x20 ? String.format(Locale.ROOT, "\\u%04x", c) : String.valueOf((char) c);
        }).collect(Collectors.joining());
    }

    /** {@code s} with a separator (taken in turn from {@code separators}) after every {@code every} characters. */
    private static String split(String s, List<String> separators, int every) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0, k = 0; i < s.length(); i += every) {
            if (i > 0) sb.append(separators.get(k++ % separators.size()));
            sb.append(s, i, Math.min(s.length(), i + every));
        }
        return sb.toString();
    }

    @Override public String toString() { return label; }
}
