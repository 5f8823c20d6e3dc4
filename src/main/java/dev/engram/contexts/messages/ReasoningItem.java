package dev.engram.contexts.messages;

/** A reasoning item of a Responses-style model: its id (needed to send it back) and its summary text. */
public record ReasoningItem(String id, String summary) {

    public ReasoningItem {
        id = Text.orEmpty(id);
        summary = Text.orEmpty(summary);
    }
}
