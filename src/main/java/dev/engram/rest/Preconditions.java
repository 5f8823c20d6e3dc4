package dev.engram.rest;

import dev.engram.entries.Hash;
import dev.engram.kernel.Invalid;
import dev.engram.entries.PutOptions;
import java.util.Locale;

/**
 * Reads a write's HTTP headers into {@link PutOptions}: {@code If-Match: "<version>"} makes the write conditional on
 * the entry's version (the ETag a read returned, which covers content and meta), {@code If-None-Match: *} on the
 * entry not existing, {@code Engram-Based-On: <hash>} records the content hash it was built on, and
 * {@code Engram-Session} names the session. A header sent empty is refused, never read as absent.
 */
public final class Preconditions {

    public static final String BASED_ON = "Engram-Based-On";
    public static final String SESSION = "Engram-Session";
    /** The most characters a session ID may have. */
    public static final int MAX_SESSION_LENGTH = 128;

    private Preconditions() {
    }

    public static PutOptions read(String ifMatch, String ifNoneMatch, String basedOn, String session) {
        PutOptions options = PutOptions.NONE.session(session(session));
        if (ifMatch != null && ifNoneMatch != null) {
            throw new Invalid("precondition-headers", "If-Match", "Send If-Match or If-None-Match, not both.");
        }
        if (ifMatch != null) {
            options = options.ifVersion(version(ifMatch));
        }
        if (ifNoneMatch != null) {
            if (!ifNoneMatch.trim().equals("*")) {
                throw new Invalid("if-none-match-form", "If-None-Match", "If-None-Match takes only *, meaning "
                        + "the entry must not exist yet; not \"" + printable(ifNoneMatch) + "\".");
            }
            options = options.ifVersion("");
        }
        if (basedOn != null) {
            options = options.basedOn(hash(basedOn));
        }
        return options;
    }

    /** The session ID of a request: "" when the header is absent. */
    /**
     * Refuses If-None-Match and Engram-Based-On on a PATCH or DELETE, which act on the entry as it is: silently
     * ignored, they would let a client believe its write was conditional, or its base recorded.
     */
    public static void refuseOnAnEdit(String method, String ifNoneMatch, String basedOn) {
        String header = ifNoneMatch != null ? "If-None-Match" : basedOn != null ? BASED_ON : null;
        if (header != null) {
            throw new Invalid("header-not-applicable", header, method + " does not take " + header + ": it acts on "
                    + "the entry as it is now. Send If-Match with the ETag you read to make it conditional, or write "
                    + "the whole entry with PUT.");
        }
    }

    public static String session(String header) {
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

    /** The version in an If-Match header: one ETag, quoted or not. */
    private static String version(String header) {
        String value = unquote(header);
        if (Hash.isVersion(value)) {
            return value;
        }
        String hint = Hash.isHash(value) ? " That is a content hash (the entry's hash member); If-Match takes the ETag,"
                + " which also covers the meta." : "";
        throw new Invalid("if-match-form", "If-Match", "If-Match takes one ETag, the one a read of the entry "
                + "returned, such as \"v:<64 hex digits>\"; not \"" + printable(header) + "\"." + hint);
    }

    /** The content hash in an Engram-Based-On header, quoted or not. */
    private static String hash(String header) {
        String value = unquote(header);
        if (!Hash.isHash(value)) {
            throw new Invalid(BASED_ON.toLowerCase(Locale.ROOT) + "-form", BASED_ON, BASED_ON + " takes the content "
                    + "hash the write was built on (the entry's hash member), such as \"sha256:<64 hex digits>\"; "
                    + "not \"" + printable(header) + "\".");
        }
        return value;
    }

    private static String unquote(String header) {
        String value = header.trim();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        return value;
    }

    /** The ETag of an entry's version. */
    public static String quote(String version) {
        return "\"" + version + "\"";
    }

    /** Whether an If-None-Match header on a read names {@code version}: * or a list of ETags, weak or strong. */
    public static boolean noneMatch(String header, String version) {
        if (header == null) {
            return false;
        }
        for (String tag : header.split(",")) {
            String t = tag.trim();
            if (t.startsWith("W/")) {
                t = t.substring(2);
            }
            if (t.equals("*") || t.equals(quote(version))) {
                return true;
            }
        }
        return false;
    }

    private static String printable(String s) {
        String cut = s.length() > 80 ? s.substring(0, 80) + "..." : s;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
