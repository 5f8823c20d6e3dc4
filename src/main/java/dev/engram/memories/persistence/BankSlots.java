package dev.engram.memories.persistence;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.memories.Bank;
import dev.engram.memories.ContextSlots;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.Recall;
import dev.engram.persistence.Sql;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** A bank's context slots: named texts its entrypoint shows, each change journaled as {@code slot.*}. */
interface BankSlots extends Recall, OneStore {

    String PUT = "insert into bank_slot (store_id, bank, slot, text) values (?, ?, ?, ?) on "
            + "conflict (store_id, bank, slot) do update set text = excluded.text";

    @Override
    default void setSlot(Bank bank, String slot, String text) {
        MemoryRules.checkSlot(slot);
        MemoryRules.checkText(text, "text");
        String t = text == null ? "" : text;
        change("slot.set", bank.bankId() + "/" + slot, tx -> put(tx, bank, slot, t));
    }

    @Override
    default Optional<String> slot(Bank bank, String slot) {
        MemoryRules.checkSlot(slot);
        return slots(bank, slot).values().stream().findFirst();
    }

    /** Appends {@code text} to the slot on a new line, under the slot's row lock, and answers the whole. */
    @Override
    default String appendSlot(Bank bank, String slot, String text) {
        MemoryRules.checkSlot(slot);
        String[] whole = {""};
        change("slot.set", bank.bankId() + "/" + slot, tx -> {
            String current = tx.first("select text from bank_slot where store_id = ? and bank = ? and slot = ? "
                    + "for update", r -> r.getString(1), store(), bank.bankId(), slot).orElse("");
            whole[0] = ContextSlots.append(current, text == null ? "" : text);
            MemoryRules.checkText(whole[0], "text");
            return put(tx, bank, slot, whole[0]);
        });
        return whole[0];
    }

    /** Deletes the slot; one never set writes nothing. */
    @Override
    default void deleteSlot(Bank bank, String slot) {
        MemoryRules.checkSlot(slot);
        change("slot.deleted", bank.bankId() + "/" + slot, tx -> tx.update("delete from bank_slot where "
                + "store_id = ? and bank = ? and slot = ?", store(), bank.bankId(), slot) == 0 ? null
                        : new Changed(null, record(bank, slot).toString()));
    }

    @Override
    default Map<String, String> slots(Bank bank) {
        return slots(bank, null);
    }

    @Override
    default java.util.SortedMap<String, String> slots(Bank bank, String after, int limit) {
        java.util.SortedMap<String, String> page = new java.util.TreeMap<>();
        sql().list("select slot, text from bank_slot where store_id = ? and bank = ? and slot > ? order by slot "
                + "limit ?", r -> page.put(r.getString(1), r.getString(2)), store(), bank.bankId(),
                after == null ? "" : after, Math.max(0, limit));
        return page;
    }

    private Map<String, String> slots(Bank bank, String only) {
        Map<String, String> found = new LinkedHashMap<>();
        sql().list("select slot, text from bank_slot where store_id = ? and bank = ? and (slot = ? or ?::text is null) "
                + "order by slot", r -> found.put(r.getString(1), r.getString(2)), store(), bank.bankId(), only, only);
        return found;
    }

    private Changed put(Sql.Tx tx, Bank bank, String slot, String text) throws SQLException {
        tx.update(PUT, store(), bank.bankId(), slot, text);
        return new Changed(null, record(bank, slot).put("text", text).toString());
    }

    private static ObjectNode record(Bank bank, String slot) {
        return MemoryRecords.JSON.createObjectNode().put("bank", bank.bankId()).put("slot", slot);
    }
}
