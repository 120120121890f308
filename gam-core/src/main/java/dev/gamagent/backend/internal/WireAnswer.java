package dev.gamagent.backend.internal;

import dev.gamagent.backend.Choice;

import java.util.List;

/** What one wire response said: choices, the server's token counts (null when absent) and model name. */
public record WireAnswer(List<Choice> choices, Long promptTokens, Long completionTokens, String model) { }
