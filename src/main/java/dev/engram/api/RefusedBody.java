package dev.engram.api;

/** A request body refused before it is parsed, with the problem to answer: not strictly UTF-8. */
final class RefusedBody extends RuntimeException {

    private final transient Problem problem;

    RefusedBody(Problem problem) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
    }

    Problem problem() {
        return problem;
    }
}
