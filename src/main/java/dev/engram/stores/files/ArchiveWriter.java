package dev.engram.stores.files;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Date;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * A store's archive written as it goes into an output stream: a gzip'd POSIX tar (PAX headers for paths over 100
 * bytes), regular files of mode 0644 owned by no one, each member written once its bytes are known, so that nothing
 * but the member being written is held.
 */
public final class ArchiveWriter implements Closeable {

    private final TarArchiveOutputStream tar;
    private final GZIPOutputStream gzip;

    public ArchiveWriter(OutputStream out) throws IOException {
        gzip = new GZIPOutputStream(out, 64 * 1024);
        tar = new TarArchiveOutputStream(gzip, "UTF-8");
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
    }

    /** A member holding the UTF-8 bytes of {@code text}. */
    public void text(String path, String text, Instant modified) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        tar.putArchiveEntry(header(path, bytes.length, modified));
        tar.write(bytes);
        tar.closeArchiveEntry();
    }

    /** A member holding the bytes of the file {@code source}. */
    public void file(String path, Path source, Instant modified) throws IOException {
        tar.putArchiveEntry(header(path, Files.size(source), modified));
        try (InputStream in = Files.newInputStream(source)) {
            in.transferTo(tar);
        }
        tar.closeArchiveEntry();
    }

    private static TarArchiveEntry header(String path, long size, Instant modified) {
        TarArchiveEntry e = new TarArchiveEntry(path);
        e.setSize(size);
        e.setMode(0100644);
        e.setModTime(Date.from(modified));
        return e;
    }

    /** Ends the tar and the gzip stream; the output stream stays open. */
    @Override
    public void close() throws IOException {
        tar.finish();
        gzip.finish();
        gzip.flush();
    }
}
