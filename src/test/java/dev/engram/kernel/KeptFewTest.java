package dev.engram.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class KeptFewTest {

    @Test
    void keepsUpToItsBoundThenLetsAllGoForTheNewOne() {
        KeptFew<String, Integer> few = new KeptFew<>(3);
        few.put("a", 1);
        few.put("b", 2);
        few.put("c", 3);
        assertEquals(3, few.size());
        assertEquals(2, few.get("b"));
        few.put("d", 4);
        assertEquals(1, few.size());
        assertNull(few.get("a"));
        assertEquals(4, few.get("d"));
    }

    @Test
    void replacingAKeptOneAtTheBoundKeepsTheOthers() {
        KeptFew<String, Integer> few = new KeptFew<>(2);
        few.put("a", 1);
        few.put("b", 2);
        few.put("a", 10);
        assertEquals(2, few.size());
        assertEquals(10, few.get("a"));
        few.remove("b");
        assertNull(few.get("b"));
        assertEquals(1, few.size());
    }

    @Test
    void aBoundBelowOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new KeptFew<>(0));
    }
}
