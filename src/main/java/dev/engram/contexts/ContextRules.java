package dev.engram.contexts;

import dev.engram.entries.EntryRules;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Limited;
import dev.engram.memories.MemoryRules;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rules every context store and every transport applies: the id grammar, how many steps a context and a request
 * hold, and the texts a store cannot keep. Each refusal names what to do next.
 */
public final class ContextRules {

    /** The most steps one context holds; a change that would hold more is refused ({@link Limited}). */
    public static final int MAX_STEPS = 10_000;

    /** The most steps one request carries ({@link Invalid}, rule {@code steps-count}). */
    public static final int MAX_STEPS_PER_REQUEST = MAX_STEPS;

    private ContextRules() {
    }

    /** Refuses a store id that is not kebab-case, as every tier does. */
    public static void checkStore(String store) {
        EntryRules.checkStoreId(store);
    }

    /** Refuses a context id that is not 1 to {@link MemoryRules#MAX_ID} visible ASCII characters but {@code /?#%;\}. */
    public static void checkId(String id) {
        MemoryRules.checkId(id, "context_id");
    }

    /** Refuses a request carrying more than {@link #MAX_STEPS_PER_REQUEST} steps. */
    public static void checkRequestSteps(int count) {
        if (count > MAX_STEPS_PER_REQUEST) {
            throw new Invalid("steps-count", "steps", "A request carries at most " + MAX_STEPS_PER_REQUEST
                    + " steps, not " + count + ".");
        }
    }

    /** Refuses context {@code id} holding {@code count} steps, over {@link #MAX_STEPS}. */
    public static void checkSteps(String id, int count) {
        if (count > MAX_STEPS) {
            throw new Limited(Limited.Kind.QUOTA, "context-steps", MAX_STEPS, 0, "Context " + id + " would hold "
                    + count + " steps; it holds at most " + MAX_STEPS + ". Compact it and replace its steps "
                    + "(PUT .../steps) with fewer, or start a new context.");
        }
    }

    /** The refusal of a journal record holding NUL, which a store cannot keep. */
    public static Invalid recordNul() {
        return new Invalid("text-nul", "", "A text holds the character NUL, which Engram cannot keep; "
                + "only a system prompt's cache breaks may hold it.");
    }

    /**
     * Refuses a journal record any text of which (in its maps, lists, optionals and records, at any depth) holds NUL
     * ({@link #recordNul}).
     */
    public static void checkRecord(Map<String, Object> record) {
        if (holdsNul(record)) {
            throw recordNul();
        }
    }

    /** Refuses a tool result whose content or file path holds NUL. */
    public static void checkToolResult(String content, String path) {
        if ((content != null && content.indexOf('\0') >= 0) || (path != null && path.indexOf('\0') >= 0)) {
            throw new Invalid("text-nul", "content", "A tool result holds the character NUL, which Engram cannot "
                    + "keep; cache its text without it (escape or drop binary bytes).");
        }
    }

    /**
     * Refuses an append that did not keep the steps it was given, first and the same objects: {@code before} must be
     * the start of {@code after}.
     */
    public static void checkAppended(List<Step> before, List<Step> after) {
        // Over an array: a context holds thousands of steps, and this runs on every append.
        Object[] is = after.toArray();
        boolean appended = is.length >= before.size();
        int i = 0;
        for (Iterator<Step> was = before.iterator(); appended && was.hasNext(); i++) {
            appended = is[i] == was.next();
        }
        if (!appended) {
            throw new IllegalStateException("An append changed the steps it was given; use change()");
        }
    }

    /** Each record class's component accessors, looked up and made accessible once: this runs on every change. */
    private static final ClassValue<Method[]> ACCESSORS = new ClassValue<>() {
        @Override
        protected Method[] computeValue(Class<?> type) {
            RecordComponent[] components = type.getRecordComponents();
            Method[] accessors = new Method[components.length];
            for (int i = 0; i < components.length; i++) {
                accessors[i] = components[i].getAccessor();
                accessors[i].setAccessible(true);
            }
            return accessors;
        }
    };

    private static boolean holdsNul(Object value) {
        if (value == null) {
            return false;
        }
        if (value instanceof CharSequence text) {
            return text.toString().indexOf('\0') >= 0;
        }
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (holdsNul(e.getKey()) || holdsNul(e.getValue())) {
                    return true;
                }
            }
            return false;
        }
        if (value instanceof Collection<?> items) {
            for (Object item : items) {
                if (holdsNul(item)) {
                    return true;
                }
            }
            return false;
        }
        if (value instanceof Optional<?> optional) {
            return optional.isPresent() && holdsNul(optional.get());
        }
        if (value instanceof Record r) {
            for (Method accessor : ACCESSORS.get(r.getClass())) {
                try {
                    if (holdsNul(accessor.invoke(r))) {
                        return true;
                    }
                } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
                    throw new IllegalStateException("A record's component always reads", e);
                }
            }
        }
        return false;
    }
}
