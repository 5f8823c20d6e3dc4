package dev.engram.memories.rest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.kernel.Invalid;
import dev.engram.memories.Bank;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;

/**
 * Reads a bank wherever a body names one, in either form: its bank id {@code "user:alice"} or its scope
 * {@code {"type": "user", "id": "alice"}}. A scope is normalised as the seed does (an unknown type is global, a
 * blank id the type alone) and its bank id must then be one a path could name, as a bank id string must be, so both
 * forms are refused with the same rule ({@code bank-format}), on the member's JSON path (such as
 * {@code memories.3.bank} or {@code banks.0}).
 */
public final class BankReader extends JsonDeserializer<MemoryJson.BankJson> {

    @Override
    public MemoryJson.BankJson deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        String at = path(p.getParsingContext());
        JsonNode node = ctxt.readTree(p);
        if (node == null || node.isNull()) {
            return null;
        }
        Bank bank;
        if (node.isTextual()) {
            bank = parsed(node.asText(), at);
        } else if (node.isObject()) {
            bank = parsed(scope(node, at).bankId(), at);
        } else {
            throw new Invalid("member-type", at, "Member " + at + " must be a bank id such as \"user:alice\" or a "
                    + "scope such as {\"type\": \"user\", \"id\": \"alice\"}.");
        }
        return new MemoryJson.BankJson(bank.type(), bank.id());
    }

    /** The scope object as the seed reads it, its members checked: {@code type} and {@code id}, strings. */
    private static Bank scope(JsonNode node, String at) {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals("type") && !name.equals("id")) {
                throw new Invalid("unknown-member", at + "." + name, "The bank has no member \"" + name + "\"; it "
                        + "takes id, type. Check the spelling; unknown members are refused so that nothing is "
                        + "silently ignored.");
            }
        }
        return new Bank(text(node, "type", at), text(node, "id", at));
    }

    private static String text(JsonNode node, String member, String at) {
        JsonNode v = node.get(member);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new Invalid("member-type", at + "." + member, "Member " + at + "." + member + " must be a string.");
        }
        return v.asText();
    }

    /** {@link Bank#parse}, its refusal moved onto the member's path. */
    private static Bank parsed(String bankId, String at) {
        try {
            return Bank.parse(bankId);
        } catch (Invalid e) {
            throw new Invalid(e.rule(), at, "Member " + at + ": " + e.getMessage());
        }
    }

    /** The JSON path of the value the parser is at, such as {@code memories.3.bank}. */
    static String path(JsonStreamContext context) {
        Deque<String> parts = new ArrayDeque<>();
        for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inObject() && c.getCurrentName() != null) {
                parts.addFirst(c.getCurrentName());
            } else if (c.inArray()) {
                parts.addFirst(String.valueOf(Math.max(0, c.getCurrentIndex())));
            }
        }
        return String.join(".", parts);
    }
}
