package dev.engram.problems;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a route that writes nothing although its method is not GET or HEAD (a search or a computation with a
 * body): {@link Problems} words its failures as a read's, so a statement timeout there says that a retry is safe.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface ReadOnly {
}
