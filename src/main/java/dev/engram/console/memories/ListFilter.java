package dev.engram.console.memories;

import dev.engram.kernel.Invalid;
import dev.engram.memories.Bank;
import dev.engram.memories.MemoryFilter;
import dev.engram.memories.MemoryRules;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The memories list's filters as its form sends them ({@code bank}, {@code type}, {@code tag}, and {@code archived}
 * and {@code stale} each {@code yes}, {@code no} or empty for both), checked, and the query string that keeps them in
 * a link.
 */
public record ListFilter(String bank, String type, String tag, String archived, String stale) {

    /** The form's choices for archived and stale. */
    static final List<String> CHOICES = List.of("", "yes", "no");

    public ListFilter {
        bank = clean(bank);
        type = clean(type);
        tag = clean(tag);
        archived = clean(archived);
        stale = clean(stale);
    }

    /** The filters, refused ({@link Invalid}) when one is not a value the form offers. */
    public MemoryFilter toFilter() {
        String bankId = bank.isEmpty() ? "" : Bank.parse(bank).bankId();
        if (!type.isEmpty()) {
            MemoryRules.checkType(type);
        }
        if (tag.length() > MemoryRules.MAX_SET_ITEM) {
            throw new Invalid("set-item", "tag", "A tag is at most " + MemoryRules.MAX_SET_ITEM + " characters.");
        }
        return new MemoryFilter(bankId, type, tag, choice(archived, "archived"), choice(stale, "stale"));
    }

    /** Whether any filter is set. */
    public boolean any() {
        return !(bank + type + tag + archived + stale).isEmpty();
    }

    /** The filters as a query string, "&"-separated, without a leading "?" ("" when none is set). */
    public String query() {
        List<String> params = new ArrayList<>();
        add(params, "bank", bank);
        add(params, "type", type);
        add(params, "tag", tag);
        add(params, "archived", archived);
        add(params, "stale", stale);
        return String.join("&", params);
    }

    /** The memory types, for the form's choice. */
    public List<String> types() {
        return dev.engram.memories.Memory.TYPES;
    }

    private static Boolean choice(String value, String field) {
        return switch (value) {
            case "" -> null;
            case "yes" -> true;
            case "no" -> false;
            default -> throw new Invalid("filter-choice", field, field + " takes yes, no, or nothing for both.");
        };
    }

    private static void add(List<String> params, String name, String value) {
        if (!value.isEmpty()) {
            params.add(name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
    }

    private static String clean(String value) {
        return value == null ? "" : value.strip();
    }
}
