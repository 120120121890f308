package dev.gamagent.backend;

import dev.gamagent.image.Picture;

import java.util.ArrayList;
import java.util.List;

/** One chat message: a role and its parts (text and images, in order). */
public record ChatMessage(Role role, List<Part> parts) {
    public enum Role { SYSTEM, USER, ASSISTANT;
        public String wire() { return name().toLowerCase(java.util.Locale.ROOT); } }

    public ChatMessage { parts = List.copyOf(parts); }

    /** A part of a message. */
    public sealed interface Part permits Text, Image { }

    public record Text(String text) implements Part { }

    /** An image as pixels; backends encode it for their wire format. {@code detail} is OpenAI's hint (may be null). */
    public record Image(Picture picture, String detail) implements Part { }

    public static ChatMessage system(String text) { return new ChatMessage(Role.SYSTEM, List.of(new Text(text))); }

    public static ChatMessage assistant(String text) { return new ChatMessage(Role.ASSISTANT, List.of(new Text(text))); }

    /** A user message: images first, then the text (the order most VLM chat templates expect). */
    public static ChatMessage user(String text, List<Picture> images) {
        List<Part> p = new ArrayList<>();
        for (Picture pic : images) p.add(new Image(pic, null));
        p.add(new Text(text));
        return new ChatMessage(Role.USER, p);
    }

    public String text() {
        StringBuilder sb = new StringBuilder();
        for (Part p : parts) if (p instanceof Text t) { if (sb.length() > 0) sb.append('\n'); sb.append(t.text()); }
        return sb.toString();
    }

    public List<Picture> images() {
        return parts.stream().filter(p -> p instanceof Image).map(p -> ((Image) p).picture()).toList();
    }
}
