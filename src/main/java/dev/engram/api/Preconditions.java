package dev.engram.api;

import dev.engram.memory.Hash;
import dev.engram.memory.Invalid;
import dev.engram.memory.PutOptions;

/**
 * Reads a write's HTTP headers into {@link PutOptions}: {@code If-Match: "<hash>"} is IfHash, {@code If-None-Match: *}
 * is "must not exist", {@code Engram-Based-On: <hash>} is BasedOn, {@code Engram-Session} names the session.
 */
final class Preconditions {

    static final String BASED_ON = "Engram-Based-On";
    static final String SESSION = "Engram-Session";
    /** The most characters a session ID may have. */
    static final int MAX_SESSION_LENGTH = 128;

    private Preconditions() {
    }

    static PutOptions read(String ifMatch, String ifNoneMatch, String basedOn, String session) {
        PutOptions options = PutOptions.NONE.session(session(session));
        if (ifMatch != null && ifNoneMatch != null) {
            throw new Invalid("precondition-headers", "If-Match", "Send If-Match or If-None-Match, not both.");
        }
        if (ifMatch != null) {
            options = options.ifHash(etag(ifMatch, "If-Match"));
        }
        if (ifNoneMatch != null) {
            if (!ifNoneMatch.trim().equals("*")) {
                throw new Invalid("if-none-match-form", "If-None-Match", "If-None-Match takes only *, meaning "
                        + "the entry must not exist yet.");
            }
            options = options.ifHash("");
        }
        if (basedOn != null) {
            options = options.basedOn(etag(basedOn, BASED_ON));
        }
        return options;
    }

    /** The session ID of a request: "" when the header is absent. */
    static String session(String header) {
        if (header == null) {
            return "";
        }
        boolean visibleAscii = header.chars().allMatch(c -> c > 0x20 && c < 0x7f);
        if (header.isEmpty() || header.length() > MAX_SESSION_LENGTH || !visibleAscii) {
            throw new Invalid("session-format", SESSION, SESSION + " must be 1 to " + MAX_SESSION_LENGTH
                    + " visible ASCII characters with no spaces, such as slack-7f3a.");
        }
        return header;
    }

    /** A hash from an ETag-valued header, quoted or not. */
    static String etag(String header, String name) {
        String value = header.trim();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        if (!Hash.isHash(value)) {
            throw new Invalid(name.toLowerCase(java.util.Locale.ROOT) + "-form", name, name + " takes one "
                    + "entry hash, the ETag a read returned, such as \"sha256:<64 hex digits>\"; not \""
                    + printable(header) + "\".");
        }
        return value;
    }

    /** The ETag of a hash. */
    static String quote(String hash) {
        return "\"" + hash + "\"";
    }

    private static String printable(String s) {
        String cut = s.length() > 80 ? s.substring(0, 80) + "..." : s;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
