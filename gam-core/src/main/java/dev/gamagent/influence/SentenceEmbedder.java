package dev.gamagent.influence;

/** Turns a sentence into a vector whose cosine measures meaning similarity (for open-answer Sim). */
@FunctionalInterface
interface SentenceEmbedder {
    float[] embed(String text);
}
