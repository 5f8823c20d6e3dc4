package dev.engram.stores.files;

import dev.engram.entries.Change;
import dev.engram.kernel.Sha256;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The reference {@code journal.jsonl} written a record at a time to a file of its own (a tar member's size must be
 * known before its bytes), noting what {@code .state.json} says of it: the last seq, the offset after the last line,
 * and the hash of the first line.
 */
public final class JournalFile implements Closeable {

    private static final int HEAD_BYTES = 65536;

    private final Path file;
    private final OutputStream out;
    private long seq;
    private long off;
    private String head = "";

    public JournalFile(Path file) throws IOException {
        this.file = file;
        this.out = new BufferedOutputStream(Files.newOutputStream(file), 64 * 1024);
    }

    /** Appends the line of {@code c}. */
    public void add(Change c) throws IOException {
        byte[] line = (JournalLine.write(c) + "\n").getBytes(StandardCharsets.UTF_8);
        if (off == 0) {
            head = "sha256:" + Sha256.hex(line.length > HEAD_BYTES ? java.util.Arrays.copyOf(line, HEAD_BYTES) : line);
        }
        out.write(line);
        off += line.length;
        seq = c.seq();
    }

    public Path file() {
        return file;
    }

    /** The seq of the last record written, 0 for none. */
    public long seq() {
        return seq;
    }

    /** The bytes written: the offset where the next record would start. */
    public long off() {
        return off;
    }

    /** {@code sha256:} and the hash of the first line, "" for an empty journal. */
    public String head() {
        return head;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
