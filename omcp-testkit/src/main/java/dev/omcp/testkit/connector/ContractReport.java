package dev.omcp.testkit.connector;

import java.util.List;

/**
 * What the contract check found.
 *
 * @param passed the checks that passed, one line each
 * @param failures the broken rules of the SDK contract; empty when the connector conforms
 * @param notes things worth knowing that break no rule (for example an implemented but undeclared
 *     capability, which the gateway will not use)
 */
public record ContractReport(List<String> passed, List<String> failures, List<String> notes) {
    public ContractReport {
        passed = List.copyOf(passed);
        failures = List.copyOf(failures);
        notes = List.copyOf(notes);
    }

    public boolean conforms() {
        return failures.isEmpty();
    }

    /** Fails with every broken rule; use it as the last line of a test. */
    public void assertConforms() {
        if (!failures.isEmpty()) {
            throw new AssertionError("the connector breaks the SDK contract:\n  - " + String.join("\n  - ", failures)
                    + (notes.isEmpty() ? "" : "\nnotes:\n  - " + String.join("\n  - ", notes)));
        }
    }
}
