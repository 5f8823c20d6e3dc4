package dev.engram.contexts.messages;

/**
 * One part of a message with structure: a {@code text} block, or an {@code image} block carrying base64 data
 * (without a {@code data:} prefix) and its media type. Other types are kept and ignored when counting.
 */
public record ContentBlock(String type, String text, String imageB64, String mediaType) {

    public ContentBlock {
        type = Text.orEmpty(type);
        text = Text.orEmpty(text);
        imageB64 = Text.orEmpty(imageB64);
        mediaType = Text.orEmpty(mediaType);
    }

    /** A text block. */
    public static ContentBlock text(String text) {
        return new ContentBlock("text", text, "", "");
    }

    /** An image block of base64 {@code data} of {@code mediaType} (such as {@code image/png}). */
    public static ContentBlock image(String data, String mediaType) {
        return new ContentBlock("image", "", data, mediaType);
    }
}
