package dev.engram.llm;

import dev.langchain4j.model.embedding.EmbeddingModel;
import java.util.Optional;

/** Where an embedder's LangChain4j model comes from: built already (a remote model), or loading (the local one). */
interface ModelSource {

    /** The model, waiting while it loads; throws {@link EmbeddingFailed} (unavailable) when it could not be loaded. */
    EmbeddingModel model();

    /** Whether {@link #model()} would answer without waiting. */
    boolean loaded();

    /** Why the model could not be loaded, if it could not. */
    Optional<String> problem();

    /** A model that is ready. */
    static ModelSource of(EmbeddingModel model) {
        return new ModelSource() {
            @Override
            public EmbeddingModel model() {
                return model;
            }

            @Override
            public boolean loaded() {
                return true;
            }

            @Override
            public Optional<String> problem() {
                return Optional.empty();
            }
        };
    }
}
