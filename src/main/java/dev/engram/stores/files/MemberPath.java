package dev.engram.stores.files;

import dev.engram.kernel.ArchiveRefused;
import dev.engram.kernel.Utf8;
import java.text.Normalizer;

/** The rules of a member's path in an archive, which keep every member inside the store and readable one way. */
final class MemberPath {

    private MemberPath() {
    }

    /**
     * {@code raw} without a leading {@code ./} and a trailing {@code /}, if it is a path a store's archive may hold:
     * relative, no {@code .}, {@code ..} or empty segment, UTF-8 in NFC without control characters, within the
     * limits of depth and length. Else {@link ArchiveRefused}.
     */
    static String check(String raw, ArchiveLimits limits) {
        String path = raw;
        while (path.startsWith("./")) {
            path = path.substring(2);
        }
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (raw.startsWith("/") || raw.matches("^[A-Za-z]:.*")) {
            throw ArchiveRefused.unsafe(raw, "path-absolute", "Member " + EntryFile.shown(raw) + " has an absolute "
                    + "path; every member's path is relative to the store's root.");
        }
        if (raw.indexOf('\uFFFD') >= 0) {
            throw ArchiveRefused.unsafe(raw, "path-encoding", "A member's path is not UTF-8; name members in UTF-8.");
        }
        if (path.isEmpty() || path.equals(".")) {
            throw ArchiveRefused.unsafe(raw, "path-empty", "A member has an empty path; remove it.");
        }
        int bytes = Utf8.length(path);
        if (bytes > limits.maxPathBytes()) {
            throw ArchiveRefused.tooLarge(raw, "path-bytes", limits.maxPathBytes(), bytes, "Member "
                    + EntryFile.shown(path) + " has a path of " + bytes + " bytes, over the limit of "
                    + limits.maxPathBytes() + ".");
        }
        String[] segments = path.split("/", -1);
        if (segments.length > limits.maxPathDepth()) {
            throw ArchiveRefused.tooLarge(raw, "path-depth", limits.maxPathDepth(), segments.length, "Member "
                    + EntryFile.shown(path) + " is " + segments.length + " directories deep, over the limit of "
                    + limits.maxPathDepth() + ".");
        }
        for (String s : segments) {
            if (s.equals("..") || s.equals(".")) {
                throw ArchiveRefused.unsafe(raw, "path-escapes", "Member " + EntryFile.shown(raw) + " has a "
                        + "segment " + s + "; a member may not climb out of the store's root, nor name itself twice.");
            }
            if (s.isEmpty()) {
                throw ArchiveRefused.unsafe(raw, "path-empty-segment", "Member " + EntryFile.shown(raw) + " has an "
                        + "empty segment (//); remove it.");
            }
        }
        if (!Normalizer.isNormalized(path, Normalizer.Form.NFC)) {
            throw ArchiveRefused.unsafe(raw, "path-normalization", "Member " + EntryFile.shown(path) + " is not in "
                    + "Unicode NFC, so two spellings could name one file; normalize the names to NFC.");
        }
        if (Utf8.firstUnstorable(path) >= 0 || path.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == '\\')) {
            throw ArchiveRefused.unsafe(raw, "path-characters", "Member " + EntryFile.shown(path) + " has a control "
                    + "character or a backslash in its path.");
        }
        return path;
    }
}
