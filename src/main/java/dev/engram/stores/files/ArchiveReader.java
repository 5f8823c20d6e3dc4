package dev.engram.stores.files;

import dev.engram.documents.DocumentPath;
import dev.engram.entries.Change;
import dev.engram.kernel.ArchiveRefused;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import dev.engram.kernel.Utf8;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * Reads a store's archive (a gzip'd tar) whole into a {@link StoreArchive}, refusing ({@link ArchiveRefused}) the
 * first thing wrong with it: not gzip, cut short, over a limit, a member that is a link or a device, a path that is
 * absolute, climbs out with {@code ..}, is not UTF-8 in NFC or comes twice, a member the layout has no place for,
 * or content that breaks the format. Nothing is written by reading.
 */
public final class ArchiveReader {

    private final ArchiveLimits limits;
    private final SortedMap<String, EntryFile.Read> entries = new TreeMap<>();
    private final SortedMap<String, String> documents = new TreeMap<>();
    private final List<Change> journal = new ArrayList<>();
    private final List<String> memories = new ArrayList<>();
    private final List<String> contexts = new ArrayList<>();
    private final Set<String> seen = new HashSet<>();
    private Optional<Integer> maxEntryBytes = Optional.empty();
    private int damaged;
    private int members;

    private ArchiveReader(ArchiveLimits limits) {
        this.limits = limits;
    }

    /** The archive {@code gzipped} holds, checked under {@code limits}. */
    public static StoreArchive read(byte[] gzipped, ArchiveLimits limits) {
        return new ArchiveReader(limits).read(gzipped);
    }

    private StoreArchive read(byte[] gzipped) {
        if (gzipped.length < 2 || (gzipped[0] & 0xff) != 0x1f || (gzipped[1] & 0xff) != 0x8b) {
            throw ArchiveRefused.malformed("", "not-gzip", "The body is not gzip (it does not start with 1f 8b); "
                    + "send the archive as a tar.gz, such as GET .../export answers.");
        }
        try (InputStream ungzipped = new Bounded(new GZIPInputStream(new ByteArrayInputStream(gzipped)),
                limits.maxArchiveBytes());
                TarArchiveInputStream tar = new TarArchiveInputStream(ungzipped, "UTF-8")) {
            for (TarArchiveEntry m = tar.getNextEntry(); m != null; m = tar.getNextEntry()) {
                member(tar, m);
            }
            ungzipped.transferTo(OutputSink.INSTANCE);
        } catch (EOFException | ZipException e) {
            throw ArchiveRefused.malformed("", "gzip-truncated", "The gzip stream is cut short or corrupt ("
                    + e.getMessage() + "); send the whole archive again.");
        } catch (IOException | IllegalArgumentException e) {
            throw ArchiveRefused.malformed("", "tar-malformed", "The archive is not a readable tar (" + e.getMessage()
                    + "); make it with tar -czf or GET .../export.");
        }
        return new StoreArchive(entries, journal, damaged, documents, memories, contexts, maxEntryBytes);
    }

    private void member(TarArchiveInputStream tar, TarArchiveEntry m) throws IOException {
        String raw = m.getName();
        if (++members > limits.maxMembers()) {
            throw ArchiveRefused.tooLarge(raw, "member-count", limits.maxMembers(), members, "The archive holds "
                    + "more than " + limits.maxMembers() + " members; split the store, or ask the operator to raise "
                    + "engram.files.max-members.");
        }
        if (!regular(m) && !m.isDirectory()) {
            throw ArchiveRefused.unsafe(raw, "member-type", "Member " + EntryFile.shown(raw) + " is a "
                    + type(m) + "; an archive of a store holds only files and directories.");
        }
        String path = MemberPath.check(raw, limits);
        if (!seen.add(path)) {
            throw ArchiveRefused.unsafe(raw, "duplicate-member", "Member " + path + " comes twice in the archive; "
                    + "keep one, so that the archive reads one way.");
        }
        Layout.Kind kind = Layout.of(path, m.isDirectory());
        if (kind == Layout.Kind.UNKNOWN) {
            throw ArchiveRefused.unsafe(path, "unknown-member", "Member " + path + " has no place in a store's "
                    + "archive: the root holds journal.jsonl, .state.json, a directory per scope (kebab-case) with "
                    + "<name>.md and INDEX.md, and _engram/.");
        }
        switch (kind) {
            case ENTRY -> entry(path, text(tar, m, path, limits.maxEntryBytes() + 2L * EntryFileLimits.FRONTMATTER));
            case DOCUMENT -> document(path, text(tar, m, path, limits.maxDocumentBytes()));
            case JOURNAL -> journal(path, text(tar, m, path, limits.maxArchiveBytes()));
            case MEMORIES -> lines(path, text(tar, m, path, limits.maxArchiveBytes()), memories, "memory-line");
            case CONTEXTS -> lines(path, text(tar, m, path, limits.maxArchiveBytes()), contexts, "context-line");
            case STORE -> store(path, text(tar, m, path, 64 * 1024));
            case STATE, INDEX, ENGRAM_JOURNAL, IGNORED -> text(tar, m, path, limits.maxArchiveBytes());
            default -> {
            }
        }
    }

    private void entry(String path, String text) {
        String[] s = path.split("/");
        String name = s[1].substring(0, s[1].length() - 3);
        entries.put(s[0] + "/" + name, EntryFile.read(path, Scope.of(s[0]), name, text));
    }

    private void document(String path, String text) {
        String doc = path.substring(Layout.DOCUMENTS.length());
        try {
            DocumentPath.check(doc, "path");
        } catch (Invalid e) {
            throw ArchiveRefused.invalid(path, e.rule(), "Member " + path + " is not a document's path: "
                    + e.getMessage());
        }
        documents.put(doc, text);
    }

    /** The records of {@code journal.jsonl}, read as the reference reads them; seq must increase along the file. */
    private void journal(String path, String text) {
        String[] lines = text.split("\n", -1);
        long last = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank()) {
                continue;
            }
            Optional<Change> record = i == lines.length - 1 ? Optional.empty() : JournalLine.read(line);
            if (record.isEmpty()) {
                damaged++;
                continue;
            }
            if (record.get().seq() <= last) {
                throw ArchiveRefused.invalid(path, "journal-order", path + " line " + (i + 1) + " has seq "
                        + record.get().seq() + " after " + last + "; seq must increase along the journal.");
            }
            last = record.get().seq();
            journal.add(record.get());
        }
    }

    private static void lines(String path, String text, List<String> into, String rule) {
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            try {
                if (JsonText.parse(lines[i]) instanceof Map<?, ?> m && m.get("id") instanceof String) {
                    into.add(lines[i]);
                    continue;
                }
            } catch (IllegalArgumentException e) {
                // refused below
            }
            throw ArchiveRefused.invalid(path, rule, path + " line " + (i + 1) + " is not a JSON object with a "
                    + "string id.");
        }
    }

    private void store(String path, String text) {
        try {
            if (JsonText.parse(text) instanceof Map<?, ?> m) {
                Object max = m.get("max_entry_bytes");
                if (max instanceof BigDecimal n) {
                    maxEntryBytes = Optional.of(n.intValueExact());
                } else if (max != null) {
                    throw new IllegalArgumentException("max_entry_bytes is not a number");
                }
                return;
            }
        } catch (IllegalArgumentException | ArithmeticException e) {
            // refused below
        }
        throw ArchiveRefused.invalid(path, "store-json", path + " is not a JSON object with an integer "
                + "max_entry_bytes.");
    }

    /** The member's content as UTF-8 text, refused over {@code cap} bytes or when not UTF-8. */
    private static String text(TarArchiveInputStream tar, TarArchiveEntry m, String path, long cap)
            throws IOException {
        if (m.isDirectory()) {
            return "";
        }
        if (m.getSize() > cap) {
            throw ArchiveRefused.tooLarge(path, "member-size", cap, m.getSize(), "Member " + path + " is "
                    + m.getSize() + " bytes, over the limit of " + cap + " bytes for it.");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.max(0, m.getSize()));
        tar.transferTo(out);
        if (out.size() != m.getSize()) {
            throw new EOFException("member " + path + " is cut short");
        }
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(out.toByteArray()))
                    .toString();
            if (Utf8.firstUnstorable(text) >= 0) {
                throw ArchiveRefused.invalid(path, "content-characters", "Member " + path + " holds a NUL; "
                        + "Engram stores text without NUL.");
            }
            return text;
        } catch (CharacterCodingException e) {
            throw ArchiveRefused.invalid(path, "content-encoding", "Member " + path + " is not UTF-8 text.");
        }
    }

    /**
     * Whether {@code m} is a regular file by its type flag ({@code 0} or NUL). Not {@link TarArchiveEntry#isFile},
     * which also says so of a link or a device whose name has no trailing slash.
     */
    private static boolean regular(TarArchiveEntry m) {
        byte flag = m.getLinkFlag();
        return (flag == TarConstants.LF_NORMAL || flag == TarConstants.LF_OLDNORM) && !m.isGNUSparse();
    }

    private static String type(TarArchiveEntry m) {
        if (m.isSymbolicLink()) {
            return "symbolic link";
        }
        if (m.isLink()) {
            return "hard link";
        }
        if (m.isCharacterDevice() || m.isBlockDevice()) {
            return "device";
        }
        if (m.isFIFO()) {
            return "FIFO";
        }
        return m.isGNUSparse() ? "sparse file" : "member of type " + (char) m.getLinkFlag();
    }

    /** The most bytes a frontmatter adds to an entry's content: the meta's bound and the lines around it. */
    static final class EntryFileLimits {
        static final int FRONTMATTER = dev.engram.entries.EntryRules.MAX_META_BYTES + 256;

        private EntryFileLimits() {
        }
    }

    /** Discards what is written: draining the gzip stream to its end checks its trailer. */
    private static final class OutputSink extends java.io.OutputStream {
        static final OutputSink INSTANCE = new OutputSink();

        @Override
        public void write(int b) {
        }

        @Override
        public void write(byte[] b, int off, int len) {
        }
    }

    /** The tar stream, refused past {@code max} bytes: a gzip bomb stops at the limit. */
    private static final class Bounded extends java.io.FilterInputStream {
        private final long max;
        private long read;

        Bounded(InputStream in, long max) {
            super(in);
            this.max = max;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) {
            read += n;
            if (read > max) {
                throw ArchiveRefused.tooLarge("", "archive-bytes", max, read, "The archive is over " + max
                        + " bytes once ungzipped; split the store, or ask the operator to raise "
                        + "engram.files.max-archive-bytes.");
            }
        }
    }
}
