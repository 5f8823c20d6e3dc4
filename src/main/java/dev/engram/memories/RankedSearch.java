package dev.engram.memories;

import dev.engram.memories.rank.Embedder;
import dev.engram.memories.rank.RankQuery;
import dev.engram.memories.rank.Ranked;
import dev.engram.memories.rank.Ranking;
import dev.engram.memories.rank.RecallIndex;
import dev.engram.memories.rank.Terms;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * A search by the lexical, semantic or hybrid ranking over a {@link RecallIndex}: the query's terms, its vector from
 * the {@link Embedder} (the last {@value #REMEMBERED} queries' vectors are kept, since agents ask the same again), and
 * the fallback to lexical ranking when the embedder fails, which a search never fails for: the explanation says so
 * and {@link #fallbacks()} counts it.
 */
public final class RankedSearch {

    static final int REMEMBERED = 1024;

    private final Embedder embedder;
    private final LongAdder fallbacks = new LongAdder();
    private final Map<String, float[]> vectors = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
            return size() > REMEMBERED;
        }
    };

    public RankedSearch(Embedder embedder) {
        this.embedder = embedder;
    }

    /** The embedder whose vectors count. */
    public Embedder embedder() {
        return embedder;
    }

    /** How many searches fell back to lexical ranking because the query could not be embedded. */
    public long fallbacks() {
        return fallbacks.sum();
    }

    /**
     * The ranking {@code options} asks for; when it names none, the setting of the one bank it searches (looked up
     * by {@code setting}), else {@link Ranking#HYBRID}.
     */
    public static Ranking ranking(SearchOptions options, java.util.function.Function<String,
            java.util.Optional<Ranking>> setting) {
        if (options.ranking() != null) {
            return options.ranking();
        }
        if (options.banks().size() == 1) {
            return setting.apply(options.banks().get(0)).orElse(Ranking.HYBRID);
        }
        return Ranking.HYBRID;
    }

    /** The memories of {@code index} that {@code options} finds under {@code ranking}, best first. */
    public List<Ranked> search(RecallIndex index, SearchOptions options, Ranking ranking, Instant now) {
        List<String> terms = Terms.ofQuery(options.query());
        if (terms.isEmpty()) {
            return List.of();
        }
        float[] vector = null;
        String note = "";
        if (ranking != Ranking.LEXICAL) {
            if (embedder.dimensions() == 0 && embedder == Embedder.NONE) {
                note = "no embedding model is configured: ranked lexically";
            } else {
                try {
                    vector = vector(options.query());
                } catch (RuntimeException e) {
                    fallbacks.increment();
                    note = "the query could not be embedded (" + e.getMessage() + "): ranked lexically";
                }
            }
        }
        Ranking used = ranking == Ranking.SEMANTIC && vector == null ? Ranking.LEXICAL : ranking;
        return index.rank(new RankQuery(used, terms, vector, embedder.model(), note, options.includeArchived(),
                options.includeStale(), options.type(), Set.copyOf(options.banks()), options.topK(),
                options.minScore(), now));
    }

    private float[] vector(String query) {
        synchronized (vectors) {
            float[] known = vectors.get(query);
            if (known != null) {
                return known;
            }
        }
        float[] raw = embedder.embed(List.of(query)).get(0);
        float[] v = Embedder.unit(raw, embedder.dimensions()).orElseThrow(() -> new IllegalStateException(
                "the model " + embedder.model() + " gave no usable vector"));
        synchronized (vectors) {
            vectors.put(query, v);
        }
        return v;
    }
}
