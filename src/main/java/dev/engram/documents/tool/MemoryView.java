package dev.engram.documents.tool;

import dev.engram.documents.DocumentHead;
import dev.engram.documents.tool.MemoryTool.Answer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** What {@code view} shows: a directory's listing two levels deep, a file's numbered lines. */
final class MemoryView {

    private MemoryView() {
    }

    /**
     * The listing of directory {@code path}: itself, then each file and directory one and two levels below it, in
     * tree order (a directory before what it holds, names in byte order), each with its size (a directory's is what
     * every file under it holds), leaving out hidden items (a name starting with {@code .}) and node_modules.
     */
    static String directory(ToolPath path, List<DocumentHead> under) {
        String base = path.isRoot() ? "" : path.document();
        Map<List<String>, Long> sizes = new TreeMap<>(MemoryView::treeOrder);
        long total = 0;
        for (DocumentHead d : under) {
            String[] rel = d.path().substring(base.length() + 1).split("/");
            if (Arrays.stream(rel).anyMatch(s -> s.startsWith(".") || s.equals("node_modules"))) {
                continue;
            }
            total += d.size();
            for (int depth = 1; depth <= Math.min(2, rel.length); depth++) {
                sizes.merge(List.of(rel).subList(0, depth), (long) d.size(), Long::sum);
            }
        }
        String shown = path.sent().endsWith("/") && !path.isRoot() ? path.sent().substring(0,
                path.sent().length() - 1) : path.isRoot() ? MemoryTool.ROOT : path.sent();
        StringBuilder out = new StringBuilder(MemoryToolTexts.directoryHeader(path.sent()));
        out.append('\n').append(MemoryToolTexts.listed(total, shown));
        for (Map.Entry<List<String>, Long> e : sizes.entrySet()) {
            out.append('\n').append(MemoryToolTexts.listed(e.getValue(), shown + "/" + String.join("/", e.getKey())));
        }
        return cut(out.toString(), "\n[The listing is cut at 16,000 characters; view a subdirectory to see the "
                + "rest.]");
    }

    /** The file's lines, numbered, or those of {@code range} ([start, end], end -1 for the last line). */
    static Answer file(String path, String content, Optional<List<Long>> range) {
        Lines lines = Lines.of(content);
        int n = lines.count();
        if (n > MemoryToolTexts.MAX_LINES) {
            return Answer.error(MemoryToolTexts.tooManyLines(path));
        }
        long start = 1;
        long end = n;
        if (range.isPresent()) {
            start = range.get().get(0);
            end = range.get().get(1) == -1 ? n : range.get().get(1);
            if (start < 1 || start > Math.max(n, 1) || end < start || end > n) {
                return Answer.error(MemoryToolTexts.badRange(range.get(), n));
            }
        }
        StringBuilder out = new StringBuilder(MemoryToolTexts.fileHeader(path));
        for (long i = start; i <= end; i++) {
            String line = "\n" + MemoryToolTexts.numbered(i, lines.lines().get((int) i - 1));
            if (out.length() + line.length() > MemoryToolTexts.MAX_VIEW_CHARS) {
                out.append(MemoryToolTexts.truncated(path, i - 1, n));
                break;
            }
            out.append(line);
        }
        return Answer.ok(out.toString());
    }

    /** The lines around an edit that put {@code inserted} at line {@code line} of {@code after}, numbered. */
    static String snippet(String after, int line, String inserted) {
        Lines lines = Lines.of(after);
        int last = line + Math.max(Lines.of(inserted).count(), 1) - 1;
        int from = Math.max(1, line - MemoryToolTexts.SNIPPET_LINES);
        int to = Math.min(lines.count(), last + MemoryToolTexts.SNIPPET_LINES);
        List<String> out = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            out.add(MemoryToolTexts.numbered(i, lines.lines().get(i - 1)));
        }
        return cut(String.join("\n", out), "\n[The snippet is cut at 16,000 characters; view the file to see the "
                + "rest.]");
    }

    private static String cut(String text, String note) {
        if (text.length() <= MemoryToolTexts.MAX_VIEW_CHARS) {
            return text;
        }
        int end = text.lastIndexOf('\n', MemoryToolTexts.MAX_VIEW_CHARS - note.length());
        return text.substring(0, Math.max(end, 0)) + note;
    }

    private static int treeOrder(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }
}
