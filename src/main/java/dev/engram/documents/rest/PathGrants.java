package dev.engram.documents.rest;

import dev.engram.access.StoreAccess;
import dev.engram.documents.tool.MemoryTool;
import dev.engram.kernel.Scope;

/**
 * How a grant covers documents (ADR 0009): a document whose first directory is a scope's name ({@code /user/...})
 * belongs to that scope, so a grant on scopes reads and writes what lies under them; any other document belongs to no
 * scope, as memories do, and takes the grant on every scope.
 */
public final class PathGrants {

    private PathGrants() {
    }

    /**
     * The paths {@code access} reads and writes: a document under {@code /<scope>/} is the scope's; any other is
     * read with read on every scope and written with write on every scope.
     */
    public static MemoryTool.PathAccess of(StoreAccess access) {
        return new MemoryTool.PathAccess() {
            @Override
            public boolean reads(String path) {
                Scope scope = scopeOf(path);
                return scope == null ? access.reaches() && access.readsEvery() : access.mayRead(scope);
            }

            @Override
            public boolean writes(String path) {
                Scope scope = scopeOf(path);
                return scope == null ? access.reaches() && access.writesEvery() : access.mayWrite(scope);
            }
        };
    }

    /** The scope a document at {@code path} belongs to: its first directory when that is a scope's name, else null. */
    public static Scope scopeOf(String path) {
        int end = path.indexOf('/', 1);
        if (end < 0) {
            return null;
        }
        Scope scope = Scope.of(path.substring(1, end));
        return scope.isValid() ? scope : null;
    }

}
