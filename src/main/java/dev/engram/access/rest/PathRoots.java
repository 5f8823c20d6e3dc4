package dev.engram.access.rest;

/** Whether a normalised request path is a root itself or a path under it, without building a string per request. */
final class PathRoots {

    private PathRoots() {
    }

    /** {@code path} is {@code root} or lies under it ({@code root + "/..."}); {@code /qx} is not under {@code /q}. */
    static boolean atOrUnder(String path, String root) {
        return path.startsWith(root) && (path.length() == root.length() || path.charAt(root.length()) == '/');
    }
}
