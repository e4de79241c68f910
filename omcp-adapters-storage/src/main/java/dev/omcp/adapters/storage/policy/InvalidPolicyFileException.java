package dev.omcp.adapters.storage.policy;

import java.util.List;

/** The policy file cannot be used; every problem is listed. */
public final class InvalidPolicyFileException extends Exception {
    private static final long serialVersionUID = 1L;
    private final List<String> problems;

    public InvalidPolicyFileException(List<String> problems) {
        super("OMCP_RBAC_POLICY_FILE is invalid:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
