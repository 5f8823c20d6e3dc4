package dev.engram.memories;

import dev.engram.kernel.Invalid;
import java.util.List;

/**
 * Whose memories these are: the seed's scope {@code {type, id}}. Its {@link #bankId} is what paths and filters
 * name: {@code global}, the type alone when the id is blank, else {@code type:id} with the id trimmed. An empty or
 * unknown type is {@code global}, whose id is ignored.
 *
 * @param type one of {@link #TYPES}; anything else is read as {@code global}
 * @param id who within the type (a user's, an agent's, a team's or a session's id), as given
 */
public record Bank(String type, String id) {

    /** The scope types; the first is the one every other value falls back to. */
    public static final List<String> TYPES = List.of("global", "agent", "team", "user", "session");
    /** The global bank. */
    public static final Bank GLOBAL = new Bank("global", "");
    /** The most characters of a bank id. */
    public static final int MAX_ID_LENGTH = 200;

    public Bank {
        type = type == null || !TYPES.contains(type) ? "global" : type;
        id = type.equals("global") || id == null ? "" : id;
    }

    /** The bank id: {@code global}, {@code team}, or {@code user:alice}. */
    public String bankId() {
        String trimmed = id.strip();
        if (type.equals("global")) {
            return "global";
        }
        return trimmed.isEmpty() ? type : type + ":" + trimmed;
    }

    /**
     * The bank a path or filter names by its bank id, refused ({@link Invalid}) unless it is exactly a bank id that
     * a scope normalises to: a known type, then {@code :} and a trimmed id of visible characters other than
     * {@code / ? # % ; \} (no spaces, no invisible format characters such as U+200B, no U+FFFD, which is what a
     * path's broken UTF-8 escape such as {@code %C3} decodes to), at most
     * {@link #MAX_ID_LENGTH} in all.
     */
    public static Bank parse(String bankId) {
        String value = bankId == null ? "" : bankId;
        int colon = value.indexOf(':');
        String type = colon < 0 ? value : value.substring(0, colon);
        String id = colon < 0 ? "" : value.substring(colon + 1);
        boolean known = TYPES.contains(type) && !(type.equals("global") && colon >= 0);
        boolean idOk = colon < 0 || (!id.isEmpty() && id.equals(id.strip())
                && id.codePoints().allMatch(c -> c > 0x20 && c != 0x7f && c != 0xFFFD && "/?#%;\\".indexOf(c) < 0
                        && !Character.isISOControl(c) && !Character.isWhitespace(c) && !Character.isSpaceChar(c)
                        && Character.getType(c) != Character.FORMAT && Character.getType(c) != Character.SURROGATE));
        if (!known || !idOk || value.length() > MAX_ID_LENGTH) {
            throw new Invalid("bank-format", "bank", "\"" + shown(value) + "\" is not a bank id. A bank id is global, "
                    + "a scope type alone (" + String.join(", ", TYPES.subList(1, TYPES.size())) + ") or a type, ':' "
                    + "and an id without spaces, '/', '?', '#', '%', ';' or '\\', such as user:alice; at most "
                    + MAX_ID_LENGTH + " characters.");
        }
        return new Bank(type, id);
    }

    private static String shown(String value) {
        String cut = value.length() > 60 ? value.substring(0, 60) + "..." : value;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
