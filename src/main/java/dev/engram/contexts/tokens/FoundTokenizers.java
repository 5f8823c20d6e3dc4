package dev.engram.contexts.tokens;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** The {@link Tokenizers} on the class path, loaded once, in the order {@link ServiceLoader} finds them. */
final class FoundTokenizers {

    static final List<Tokenizers> SOURCES = load();

    private FoundTokenizers() {
    }

    private static List<Tokenizers> load() {
        List<Tokenizers> sources = new ArrayList<>();
        ServiceLoader.load(Tokenizers.class, Tokenizers.class.getClassLoader()).forEach(sources::add);
        return List.copyOf(sources);
    }
}
