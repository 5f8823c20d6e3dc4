package dev.engram.memories.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.engram.kernel.NotFound;
import dev.engram.memories.Bank;
import dev.engram.memories.BankSettings;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.MentalModel;
import dev.engram.memories.Recall;
import dev.engram.memories.rank.Ranking;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/** What a store keeps beside its memories: banks' settings and mental models, each change journaled. */
interface BankConfigs extends Recall, OneStore {

    @Override
    default BankSettings configure(Bank bank, BankSettings settings) {
        MemoryRules.check(settings);
        String directives = MemoryRecords.JSON.valueToTree(settings.directives()).toString();
        String ranking = settings.ranking() == null ? null : settings.ranking().wire();
        change("bank.configured", bank.bankId(), tx -> {
            tx.update("insert into bank_settings (store_id, bank, mission, directives, skepticism, literalism, "
                    + "empathy, ranking) values (?, ?, ?, ?::jsonb, ?, ?, ?, ?) on conflict (store_id, bank) do update "
                    + "set mission = excluded.mission, directives = excluded.directives, skepticism = "
                    + "excluded.skepticism, literalism = excluded.literalism, empathy = excluded.empathy, ranking = "
                    + "excluded.ranking", store(), bank.bankId(), settings.mission(), directives, settings.skepticism(),
                    settings.literalism(), settings.empathy(), ranking);
            var o = MemoryRecords.JSON.createObjectNode().put("bank", bank.bankId()).put("mission", settings.mission());
            o.set("directives", MemoryRecords.JSON.valueToTree(settings.directives()));
            o.put("skepticism", settings.skepticism()).put("literalism", settings.literalism())
                    .put("empathy", settings.empathy());
            if (ranking != null) {
                o.put("ranking", ranking);
            }
            return new Changed(null, o.toString());
        });
        return settings;
    }

    @Override
    default BankSettings settings(Bank bank) {
        return sql().first("select mission, directives::text, skepticism, literalism, empathy, ranking from "
                + "bank_settings where store_id = ? and bank = ?", BankConfigs::settings, store(), bank.bankId())
                .orElseThrow(() -> NotFound.bankSettings(bank.bankId()));
    }

    /** The ranking bank {@code bank} is set to, if any. */
    default Optional<Ranking> ranking(String bank) {
        return sql().first("select ranking from bank_settings where store_id = ? and bank = ? and ranking is not null",
                r -> Ranking.parse(r.getString(1), "ranking"), store(), bank);
    }

    private static BankSettings settings(ResultSet r) throws SQLException {
        try {
            return new BankSettings(r.getString(1), List.of(MemoryRecords.JSON.readValue(r.getString(2),
                    String[].class)), r.getInt(3), r.getInt(4), r.getInt(5), r.getString(6) == null ? null
                    : Ranking.parse(r.getString(6), "ranking"));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A bank's directives are not the JSON Engram wrote", e);
        }
    }

    @Override
    default MentalModel saveModel(MentalModel model) {
        MemoryRules.check(model);
        MentalModel m = new MentalModel(model.id(), model.name(), model.description(), model.content(), model.tags(),
                recalls().clock().instant());
        change("mental_model.saved", m.id(), tx -> {
            tx.update("insert into mental_model (store_id, id, name, description, content, tags, updated_at) values "
                    + "(?, ?, ?, ?, ?, ?, ?) on conflict (store_id, id) do update set name = excluded.name, "
                    + "description = excluded.description, content = excluded.content, tags = excluded.tags, "
                    + "updated_at = excluded.updated_at", store(), m.id(), m.name(), m.description(), m.content(),
                    m.tags().toArray(String[]::new), m.updatedAt());
            return new Changed(null, MemoryRecords.modelJson(m));
        });
        return model(m.id());
    }

    @Override
    default MentalModel model(String id) {
        return models(id).stream().findFirst().orElseThrow(() -> NotFound.mentalModel(id));
    }

    @Override
    default List<MentalModel> models() {
        return models(null);
    }

    /** The mental model {@code only}, or every one when null, most recently updated first. */
    private List<MentalModel> models(String only) {
        return sql().list("select id, name, description, content, tags, updated_at from mental_model where "
                + "store_id = ? and (id = ? or ?::text is null) order by updated_at desc, id", r -> new MentalModel(
                        r.getString(1), r.getString(2), r.getString(3), r.getString(4),
                        List.of((String[]) r.getArray(5).getArray()), r.getObject(6, OffsetDateTime.class).toInstant()),
                store(), only, only);
    }

    /** Deletes the mental model; one that does not exist writes nothing. */
    @Override
    default void deleteModel(String id) {
        MemoryRules.checkId(id, "id");
        change("mental_model.deleted", id, tx -> tx.update("delete from mental_model where store_id = ? "
                + "and id = ?", store(), id) == 0 ? null
                        : new Changed(null, MemoryRecords.JSON.createObjectNode().put("id", id).toString()));
    }
}
