package dev.gamagent.server;

import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Replaces known secrets (the server key, upstream API keys) in text leaving the server: error
 * messages, traces and log lines. Keys shorter than 8 characters are still redacted.
 */
public final class SecretRedactor {
    private final List<String> secrets;

    public SecretRedactor(Collection<String> secrets) {
        this.secrets = secrets.stream().filter(Objects::nonNull).filter(s -> !s.isBlank()).distinct().toList();
    }

    public String redact(String text) {
        if (text == null || secrets.isEmpty()) return text;
        String out = text;
        for (String s : secrets) out = out.replace(s, "[redacted]");
        return out;
    }
}
