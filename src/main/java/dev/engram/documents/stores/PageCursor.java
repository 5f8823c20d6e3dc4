package dev.engram.documents.stores;

import dev.engram.kernel.Invalid;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The opaque {@code page} cursor of a listing: {@code page_} and the base64url of the listing's letter and the
 * position after which the next page starts (a path, a seq, a time and id). A cursor of one listing is refused by
 * another. A listing answers a cursor only when another page may follow, and never {@code ""}: the SDKs stop at null.
 */
public final class PageCursor {

    public static final String PREFIX = "page_";
    private static final int MAX_LENGTH = 4096;

    private PageCursor() {
    }

    /** The cursor of listing {@code kind} that resumes after {@code position}. */
    public static String of(char kind, String position) {
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString((kind + ":" + position)
                .getBytes(StandardCharsets.UTF_8));
    }

    /** The position {@code page} holds for listing {@code kind}, or null for no page (the first); else {@link Invalid}. */
    public static String position(String page, char kind) {
        if (page == null) {
            return null;
        }
        if (page.isEmpty() || page.length() > MAX_LENGTH || !page.startsWith(PREFIX)) {
            throw refused();
        }
        String text;
        try {
            byte[] bytes = Base64.getUrlDecoder().decode(page.substring(PREFIX.length()));
            text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (IllegalArgumentException | java.nio.charset.CharacterCodingException e) {
            throw refused();
        }
        if (text.length() < 2 || text.charAt(0) != kind || text.charAt(1) != ':') {
            throw refused();
        }
        return text.substring(2);
    }

    private static Invalid refused() {
        return new Invalid("page", "page", "The page cursor is not one this listing answered; send the next_page "
                + "value of the previous response as it was, with the same filters, or none for the first page.");
    }
}
