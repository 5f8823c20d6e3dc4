package dev.engram.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LineDiffTest {

    private static String show(List<LineDiff.Line> diff) {
        StringBuilder b = new StringBuilder();
        diff.forEach(l -> b.append(l.sign()).append(l.text()).append('|'));
        return b.toString();
    }

    @Test
    void sharedLinesStayAndChangedOnesAreGoneAndNew() {
        assertEquals(" a|-b| c|+d|", show(LineDiff.of("a\nb\nc", "a\nc\nd")));
        assertEquals("+x|", show(LineDiff.of("", "x")));
        assertEquals("-x|", show(LineDiff.of("x", "")));
        assertFalse(LineDiff.changed(LineDiff.of("same\ntext", "same\ntext")));
        assertTrue(LineDiff.changed(LineDiff.of("a", "b")));
    }

    @Test
    void textsTooLongAreShownWholeOneRemovedTheOtherAdded() {
        String many = "x\n".repeat(LineDiff.MOST_LINES + 1);
        List<LineDiff.Line> d = LineDiff.of(many, "y");
        assertEquals(LineDiff.MOST_LINES + 3, d.size());
        assertEquals(LineDiff.Kind.NEW, d.get(d.size() - 1).kind());
    }
}
