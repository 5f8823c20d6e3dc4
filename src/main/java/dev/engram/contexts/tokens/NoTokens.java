package dev.engram.contexts.tokens;

import dev.engram.contexts.messages.Message;
import java.util.List;

/** The counter that counts nothing. */
final class NoTokens implements TokenCounter {

    static final NoTokens INSTANCE = new NoTokens();

    private NoTokens() {
    }

    @Override
    public int count(String text) {
        return 0;
    }

    @Override
    public int countMessages(List<Message> messages) {
        return 0;
    }
}
