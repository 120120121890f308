package dev.gamagent.testing;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The forms an API key takes when an upstream (a gateway's error page, a debugging proxy, a JSON encoder that
 * escapes slashes) echoes it back, for tests that check a key is written nowhere. Written for keys with '/', '+'
 * and '=' (the characters escapers change).
 */
public enum SecretForm {
    RAW("as is"),
    JSON_SLASH("JSON-escaped, \\/"),
    JSON_UNICODE("JSON-escaped, \\u002f"),
    JSON_TWICE("JSON-escaped twice, \\\\\\/"),
    HTML("HTML-escaped, &#x2F; &#43; &equals;"),
    URL("URL-encoded, %2F"),
    BASE64_USER_KEY("base64 of user:key"),
    BASE64_KEY("base64 of the key");

    private final String label;

    SecretForm(String label) { this.label = label; }

    public String label() { return label; }

    /** {@code key} in this form. */
    public String of(String key) {
        return switch (this) {
            case RAW -> key;
            case JSON_SLASH -> key.replace("/", "\\/");
            case JSON_UNICODE -> key.replace("/", "\\u002f").replace("+", "\\u002B").replace("=", "\\u003d");
            case JSON_TWICE -> key.replace("/", "\\\\\\/");
            case HTML -> key.replace("/", "&#x2F;").replace("+", "&#43;").replace("=", "&equals;");
            case URL -> key.replace("/", "%2F").replace("+", "%2B").replace("=", "%3D");
            case BASE64_USER_KEY -> Base64.getEncoder().encodeToString(("user:" + key).getBytes(StandardCharsets.UTF_8));
            case BASE64_KEY -> Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8));
        };
    }

    @Override public String toString() { return label; }
}
