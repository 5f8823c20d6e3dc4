package dev.engram.entries.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import org.junit.jupiter.api.Test;

/** The render's ceiling, the one rule on a block's bound and its scope caps whatever asks for the block. */
class RenderCeilingTest {

    @Test
    void boundsUpToTheCeilingPassAndOneOverIsRefusedWithBothNumbers() {
        RenderOptions at = RenderOptions.DEFAULT.maxTotalBytes(1000).scopeCap(new Scope("user"), 1000);
        assertSame(at, at.withinCeiling(1000));
        Invalid over = assertThrows(Invalid.class, () -> RenderOptions.DEFAULT.maxTotalBytes(1001).withinCeiling(1000));
        assertEquals("number-range", over.rule());
        assertEquals("max_total_bytes", over.field());
        assertTrue(over.getMessage().contains("at most 1000") && over.getMessage().contains("1001"), over.getMessage());
        Invalid cap = assertThrows(Invalid.class, () -> RenderOptions.DEFAULT.maxTotalBytes(10)
                .scopeCap(new Scope("user"), 1001).withinCeiling(1000, "memory."));
        assertEquals("memory.scope_max_bytes", cap.field());
        assertTrue(cap.getMessage().startsWith("memory.scope_max_bytes of user must be at most 1000"),
                cap.getMessage());
    }
}
