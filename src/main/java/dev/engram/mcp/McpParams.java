package dev.engram.mcp;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The params each JSON-RPC method this server answers takes, as the MCP specification (2025-06-18) gives them: which
 * members are required and what JSON type each has. {@link McpEnvelope} checks every request and notification
 * against it before the MCP server reads one, so a member that is missing or of the wrong type gets an Invalid
 * params error naming it, never an exception inside the server. Every string in params, at any depth, must also be
 * text PostgreSQL and UTF-8 can hold: no NUL, no unpaired surrogate. A method not listed here is left to the server
 * (which answers Method not found).
 */
final class McpParams {

    /** The JSON type a member must have; {@code ID} is a string or a number (a request id, a progress token). */
    enum Kind {
        STRING("a string"), NUMBER("a number"), ID("a string or a number"), OBJECT("an object"), ARRAY("a list");

        final String shown;

        Kind(String shown) {
            this.shown = shown;
        }

        boolean holds(Object v) {
            return switch (this) {
                case STRING -> v instanceof String;
                case NUMBER -> v instanceof Number;
                case ID -> v instanceof String || v instanceof Number;
                case OBJECT -> v instanceof JsonObject;
                case ARRAY -> v instanceof JsonArray;
            };
        }
    }

    /**
     * One member: its name, type and whether it is required; for an object, the members it may have and the type of
     * every value when its members are free (null when they are not checked); for a list, the type of its items.
     */
    record Member(String name, Kind kind, boolean required, List<Member> members, Member values, Member items,
            Set<String> oneOf) {

        Member with(Member... more) {
            return new Member(name, kind, required, List.of(more), values, items, oneOf);
        }

        Member valuesOf(Member value) {
            return new Member(name, kind, required, members, value, items, oneOf);
        }

        Member itemsOf(Member item) {
            return new Member(name, kind, required, members, values, item, oneOf);
        }

        Member oneOf(String... allowed) {
            return new Member(name, kind, required, members, values, items, Set.of(allowed));
        }
    }

    static Member req(String name, Kind kind) {
        return new Member(name, kind, true, List.of(), null, null, Set.of());
    }

    static Member opt(String name, Kind kind) {
        return new Member(name, kind, false, List.of(), null, null, Set.of());
    }

    private static final Member META = opt("_meta", Kind.OBJECT).with(opt("progressToken", Kind.ID));
    private static final Member CURSOR = opt("cursor", Kind.STRING);
    private static final Member URI = req("uri", Kind.STRING);
    private static final Member ICON = opt("icon", Kind.OBJECT).with(req("src", Kind.STRING),
            opt("mimeType", Kind.STRING), opt("sizes", Kind.ARRAY).itemsOf(opt("size", Kind.STRING)),
            opt("theme", Kind.STRING));

    /** The members of each method's params, besides {@code _meta}, which every method may have. */
    static final Map<String, List<Member>> METHODS = Map.ofEntries(
            Map.entry("initialize", List.of(req("protocolVersion", Kind.STRING),
                    req("capabilities", Kind.OBJECT).valuesOf(opt("capability", Kind.OBJECT)),
                    req("clientInfo", Kind.OBJECT).with(req("name", Kind.STRING), req("version", Kind.STRING),
                            opt("title", Kind.STRING), opt("description", Kind.STRING),
                            opt("websiteUrl", Kind.STRING), opt("icons", Kind.ARRAY).itemsOf(ICON)))),
            Map.entry("ping", List.of()),
            Map.entry("tools/list", List.of(CURSOR)),
            Map.entry("tools/call", List.of(req("name", Kind.STRING), opt("arguments", Kind.OBJECT))),
            Map.entry("resources/list", List.of(CURSOR)),
            Map.entry("resources/templates/list", List.of(CURSOR)),
            Map.entry("resources/read", List.of(URI)),
            Map.entry("resources/subscribe", List.of(URI)),
            Map.entry("resources/unsubscribe", List.of(URI)),
            Map.entry("prompts/list", List.of(CURSOR)),
            Map.entry("prompts/get", List.of(req("name", Kind.STRING),
                    opt("arguments", Kind.OBJECT).valuesOf(opt("argument", Kind.STRING)))),
            Map.entry("completion/complete", List.of(
                    req("ref", Kind.OBJECT).with(req("type", Kind.STRING).oneOf("ref/prompt", "ref/resource"),
                            opt("name", Kind.STRING), opt("uri", Kind.STRING), opt("title", Kind.STRING)),
                    req("argument", Kind.OBJECT).with(req("name", Kind.STRING), req("value", Kind.STRING)),
                    opt("context", Kind.OBJECT).with(opt("arguments", Kind.OBJECT)
                            .valuesOf(opt("argument", Kind.STRING))))),
            Map.entry("logging/setLevel", List.of(req("level", Kind.STRING).oneOf("debug", "info", "notice",
                    "warning", "error", "critical", "alert", "emergency"))),
            Map.entry("notifications/initialized", List.of()),
            Map.entry("notifications/roots/list_changed", List.of()),
            Map.entry("notifications/cancelled", List.of(req("requestId", Kind.ID), opt("reason", Kind.STRING))),
            Map.entry("notifications/progress", List.of(req("progressToken", Kind.ID),
                    req("progress", Kind.NUMBER), opt("total", Kind.NUMBER), opt("message", Kind.STRING))));

    private McpParams() {
    }

    /** What is wrong with {@code message}'s params, or null when they are what its method takes. */
    static String check(JsonObject message) {
        String method = message.getString("method");
        if (message.containsKey("params") && !(message.getValue("params") instanceof JsonObject)) {
            return "params must be an object" + (METHODS.containsKey(method) ? example(method) : "") + ".";
        }
        JsonObject params = message.getJsonObject("params", new JsonObject());
        String text = text(params, "params");
        if (text != null) {
            return text;
        }
        List<Member> members = METHODS.get(method);
        if (members == null) {
            return null;
        }
        String wrong = members(params, "params", members);
        if (wrong == null) {
            wrong = members(params, "params", List.of(META));
        }
        return wrong == null ? null : method + " " + wrong;
    }

    private static String example(String method) {
        List<String> required = METHODS.get(method).stream().filter(Member::required).map(Member::name).toList();
        return required.isEmpty() ? " (or left out)" : ", with " + String.join(", ", required);
    }

    private static String members(JsonObject o, String at, List<Member> members) {
        for (Member m : members) {
            String wrong = member(o, at + "." + m.name(), m, o.containsKey(m.name()), o.getValue(m.name()));
            if (wrong != null) {
                return wrong;
            }
        }
        return null;
    }

    private static String member(JsonObject parent, String at, Member m, boolean present, Object v) {
        if (!present) {
            return m.required() ? "takes " + at + ", " + m.kind().shown + "; it is missing." : null;
        }
        if (!m.kind().holds(v)) {
            return "takes " + at + " as " + m.kind().shown + ", not " + shown(v) + ".";
        }
        if (!m.oneOf().isEmpty() && !m.oneOf().contains((String) v)) {
            return "takes " + at + " as one of " + String.join(", ", m.oneOf().stream().sorted().toList()) + ".";
        }
        if (v instanceof JsonObject o) {
            String wrong = members(o, at, m.members());
            if (wrong != null || m.values() == null) {
                return wrong;
            }
            for (String key : o.fieldNames()) {
                wrong = member(o, at + "." + key, m.values(), true, o.getValue(key));
                if (wrong != null) {
                    return wrong;
                }
            }
        }
        if (v instanceof JsonArray a && m.items() != null) {
            for (int i = 0; i < a.size(); i++) {
                String wrong = member(null, at + "[" + i + "]", m.items(), true, a.getValue(i));
                if (wrong != null) {
                    return wrong;
                }
            }
        }
        return null;
    }

    /** Where a string in {@code v} holds NUL or an unpaired surrogate, with what to do, or null when none does. */
    static String text(Object v, String at) {
        if (v instanceof String s) {
            return badText(s, at);
        }
        if (v instanceof JsonObject o) {
            for (String key : o.fieldNames()) {
                String wrong = badText(key, at + " (a member's name)");
                if (wrong == null) {
                    wrong = text(o.getValue(key), at + "." + key);
                }
                if (wrong != null) {
                    return wrong;
                }
            }
        }
        if (v instanceof JsonArray a) {
            for (int i = 0; i < a.size(); i++) {
                String wrong = text(a.getValue(i), at + "[" + i + "]");
                if (wrong != null) {
                    return wrong;
                }
            }
        }
        return null;
    }

    private static String badText(String s, String at) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0) {
                return at + " holds a NUL character (\\u0000) at character " + i + ", which no text here can hold; "
                        + "remove it.";
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return at + " is not valid UTF-8: it holds an unpaired surrogate at character " + i + ". Send "
                        + "well-formed Unicode text.";
            }
        }
        return null;
    }

    private static String shown(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String) {
            return "a string";
        }
        if (v instanceof Number) {
            return "a number";
        }
        if (v instanceof Boolean) {
            return "a boolean";
        }
        return v instanceof JsonArray ? "a list" : "an object";
    }
}
