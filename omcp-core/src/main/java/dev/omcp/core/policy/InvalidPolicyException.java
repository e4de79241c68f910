package dev.omcp.core.policy;

import java.util.List;

/** A custom role policy the gateway refuses to start with; every problem is listed. */
public final class InvalidPolicyException extends Exception {
    private static final long serialVersionUID = 1L;
    private final List<String> problems;

    public InvalidPolicyException(List<String> problems) {
        super("the role policy is invalid:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
