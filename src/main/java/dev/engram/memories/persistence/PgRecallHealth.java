package dev.engram.memories.persistence;

import dev.engram.memories.rank.Embedder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Recall's part of {@code /q/health/ready}: always up (a search without embeddings ranks by its words), with the
 * embedding model, the path similarity runs on, whether the database has pgvector, and how many searches fell back
 * to lexical ranking because the query could not be embedded.
 */
@Readiness
@ApplicationScoped
public class PgRecallHealth implements HealthCheck {

    @Inject
    PgRecalls recalls;

    @Inject
    dev.engram.llm.Embedders embedders;

    @Override
    public HealthCheckResponse call() {
        PgRecalls.Ranker r = recalls.ranker();
        Embedder e = r.search().embedder();
        dev.engram.llm.EmbedderStatus status = embedders.status();
        return HealthCheckResponse.named("recall").up()
                .withData("embedding-provider", status.provider())
                .withData("embedding-model", e == Embedder.NONE ? "none" : e.model())
                .withData("embedding-dimensions", e.dimensions())
                .withData("embedding-model-loaded", status.loaded())
                .withData("embedding-problem", status.problem() == null ? "" : status.problem())
                .withData("vector-path", recalls.vectors().path())
                .withData("pgvector", recalls.vectors().pgvector())
                .withData("lexical-fallbacks", r.search().fallbacks())
                .build();
    }
}
