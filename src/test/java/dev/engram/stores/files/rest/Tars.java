package dev.engram.stores.files.rest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/** Archives made and read by the tests with Commons Compress directly, so that they can be any shape, hostile too. */
public final class Tars {

    /** One member: a name as written, its type flag, its text (or a link's target). */
    public record Member(String name, byte type, String text) {

        static Member file(String name, String text) {
            return new Member(name, TarConstants.LF_NORMAL, text);
        }

        static Member of(String name, byte type, String target) {
            return new Member(name, type, target);
        }
    }

    private Tars() {
    }

    public static byte[] gzip(List<Member> members) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(gz, "UTF-8")) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Member m : members) {
                TarArchiveEntry e = new TarArchiveEntry(m.name(), m.type(), true);
                if (m.type() == TarConstants.LF_NORMAL) {
                    byte[] data = m.text().getBytes(StandardCharsets.UTF_8);
                    e.setSize(data.length);
                    tar.putArchiveEntry(e);
                    tar.write(data);
                } else {
                    e.setLinkName(m.text());
                    tar.putArchiveEntry(e);
                }
                tar.closeArchiveEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static byte[] files(Map<String, String> files) {
        return gzip(files.entrySet().stream().map(f -> Member.file(f.getKey(), f.getValue())).toList());
    }

    /** The directory {@code root} packed as tar -C root -czf would pack it: every file, relative names. */
    static byte[] directory(Path root) throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
                files.put(root.relativize(p).toString(), Files.readString(p));
            }
        }
        return files(files);
    }

    /** Every file member of {@code gzipped} by name, in archive order. */
    static Map<String, String> read(byte[] gzipped) throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(
                new ByteArrayInputStream(gzipped)), "UTF-8")) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                files.put(e.getName(), new String(tar.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return files;
    }

    static List<String> names(byte[] gzipped) throws IOException {
        return new ArrayList<>(read(gzipped).keySet());
    }
}
