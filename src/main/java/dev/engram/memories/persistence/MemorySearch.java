package dev.engram.memories.persistence;

import dev.engram.memories.EmbeddingStatus;
import dev.engram.memories.Memory;
import dev.engram.memories.RankedSearch;
import dev.engram.memories.RecallQuery;
import dev.engram.memories.Scored;
import dev.engram.memories.SearchOptions;
import dev.engram.memories.rank.Embedder;
import dev.engram.memories.rank.QueryTokens;
import dev.engram.memories.rank.Ranked;
import dev.engram.memories.rank.Ranking;
import dev.engram.memories.rank.Relevance;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A store's searches: ranked by the store's in-memory index (then read back by id), or, for the seed's ranking, by
 * how many query tokens each memory's text holds; and how far its memories are embedded.
 */
interface MemorySearch extends MemoryReads, BankConfigs {

    @Override
    default List<Scored> search(SearchOptions options) {
        Ranking ranking = RankedSearch.ranking(options, this::ranking);
        RecallQuery.check(options.query(), ranking);
        if (ranking == Ranking.SEED) {
            return seedSearch(options);
        }
        PgRecalls.Ranker ranker = recalls().ranker();
        List<Ranked> ranked = ranker.search().search(ranker.indexes().current(store()), options, ranking,
                recalls().clock().instant());
        if (ranked.isEmpty()) {
            return List.of();
        }
        Map<String, Memory> found = new HashMap<>();
        for (Memory m : all(ranked.stream().map(Ranked::id).toArray(String[]::new))) {
            found.put(m.id(), m);
        }
        List<Scored> results = new ArrayList<>();
        for (Ranked r : ranked) {
            Memory m = found.get(r.id());
            if (m != null) {
                results.add(new Scored(m, r.score(), options.explain() ? r.explain() : null));
            }
        }
        return results;
    }

    /** The seed's search: the memories holding the most query tokens, scored by {@link Relevance}. */
    private List<Scored> seedSearch(SearchOptions options) {
        List<String> tokens = QueryTokens.of(options.query());
        if (tokens.isEmpty()) {
            return List.of();
        }
        List<Object> likes = new ArrayList<>();
        StringBuilder matched = new StringBuilder();
        StringBuilder any = new StringBuilder();
        for (String t : tokens) {
            matched.append(matched.length() == 0 ? "" : " + ").append("(m.haystack like ?)::int");
            any.append(any.length() == 0 ? "" : " or ").append("m.haystack like ?");
            likes.add("%" + t.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
        }
        List<Object> args = new ArrayList<>(likes);
        args.add(store());
        args.addAll(likes);
        StringBuilder query = new StringBuilder("select " + MemoryRecords.COLUMNS + ", " + matched + " as matched"
                + FROM + "where (m.store_id || '') = ? and (" + any + ")");
        if (!options.includeArchived()) {
            query.append(" and not m.archived");
        }
        if (!options.includeStale()) {
            query.append(" and m.valid_to is null and m.superseded_by = ''");
        }
        if (!options.type().isEmpty()) {
            query.append(" and m.type = ?");
            args.add(options.type());
        }
        if (!options.banks().isEmpty()) {
            query.append(" and m.bank = any(?)");
            args.add(options.banks().toArray(String[]::new));
        }
        query.append(" order by matched desc, m.id limit ?");
        args.add(4 * options.topK());
        Instant now = recalls().clock().instant();
        List<Scored> found = new ArrayList<>(sql().list(query.toString(), r -> {
            Memory m = MemoryRecords.read(r);
            return new Scored(m, Relevance.score(r.getInt("matched"), m.importance(), m.createdAt(), now));
        }, args.toArray()));
        found.removeIf(s -> s.score() < options.minScore());
        found.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparing(x -> x.memory().id()));
        return found.subList(0, Math.min(found.size(), options.topK()));
    }

    @Override
    default EmbeddingStatus embeddingStatus() {
        Embedder e = recalls().ranker().search().embedder();
        return sql().connected(tx -> tx.one("select (select count(*) from memory where store_id = ?), "
                + "(select count(*) from memory_vector where store_id = ? and model = ?), "
                + "(select count(*) from embed_queue where store_id = ?), "
                + "(select percentile_disc(array[0.5, 0.99, 1.0]) within group (order by "
                + "extract(epoch from v.embedded_at - m.updated_at) * 1000) from memory_vector v join memory m "
                + "on m.store_id = v.store_id and m.id = v.id where v.store_id = ? "
                + "and v.embedded_at > now() - interval '10 minutes' and v.embedded_at >= m.updated_at)", r -> {
                    java.sql.Array lag = r.getArray(4);
                    Object[] ms = lag == null ? null : (Object[]) lag.getArray();
                    return new EmbeddingStatus(e.model(), e.dimensions(), r.getLong(1), r.getLong(2), r.getLong(3),
                            ms == null ? null : ((Number) ms[0]).doubleValue(), ms == null ? null
                                    : ((Number) ms[1]).doubleValue(), ms == null ? null
                                            : ((Number) ms[2]).doubleValue());
                }, store(), store(), e.model(), store(), store()));
    }
}
