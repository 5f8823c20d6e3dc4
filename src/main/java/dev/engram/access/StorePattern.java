package dev.engram.access;

import dev.engram.entries.EntryRules;
import dev.engram.kernel.Invalid;

/**
 * The stores a grant covers: an exact store id, or a glob in which {@code *} stands for any run of characters,
 * none included ({@code team-*} covers {@code team-a} and {@code team-}, not {@code team}); {@code *} alone covers
 * every store. Matching backtracks only to the last star, so it takes at most (id length x pattern length) steps:
 * no pattern can be made to run long.
 */
final class StorePattern {

    static final int MAX_LENGTH = 128;

    private StorePattern() {
    }

    /** Refuses a pattern that is empty, too long, or holds anything but a-z, 0-9, '-' and '*'. */
    static void check(String pattern, String field) {
        if (pattern == null || pattern.isEmpty()) {
            throw new Invalid("stores-missing", field, "A grant names the stores it covers: a store id such as "
                    + "acme-prod, or a glob such as acme-* (or * for every store).");
        }
        if (pattern.length() > MAX_LENGTH) {
            throw new Invalid("stores-format", field, "The stores pattern is " + pattern.length() + " characters; "
                    + "the most is " + MAX_LENGTH + ".");
        }
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '-' && c != '*') {
                throw new Invalid("stores-format", field, "The stores pattern \"" + Text.shown(pattern) + "\" may "
                        + "hold only lowercase letters, digits, '-' and the wildcard '*', such as acme-*.");
            }
        }
        if (pattern.indexOf('*') < 0 && !EntryRules.validName(pattern)) {
            throw new Invalid("stores-format", field, "The stores pattern \"" + pattern + "\" is neither a store id "
                    + "(kebab-case, such as acme-prod) nor a glob with '*' (such as acme-*).");
        }
    }

    /** Whether {@code pattern} covers store {@code id}. */
    static boolean matches(String pattern, String id) {
        int p = 0;
        int s = 0;
        int star = -1;
        int resume = 0;
        while (s < id.length()) {
            if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                resume = s;
            } else if (p < pattern.length() && pattern.charAt(p) == id.charAt(s)) {
                p++;
                s++;
            } else if (star >= 0) {
                p = star + 1;
                s = ++resume;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }
}
