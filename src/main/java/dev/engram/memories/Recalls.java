package dev.engram.memories;

/** The memories of every store. */
public interface Recalls {

    /** The memories of store {@code id} (which need not exist yet: its first save creates it). */
    Recall in(String store);
}
