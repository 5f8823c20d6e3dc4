package dev.engram.problems;

/** A request body refused before it is parsed, with the problem to answer: not strictly UTF-8. */
public final class RefusedBody extends RuntimeException {

    private final transient Problem problem;

    public RefusedBody(Problem problem) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
    }

    Problem problem() {
        return problem;
    }
}
