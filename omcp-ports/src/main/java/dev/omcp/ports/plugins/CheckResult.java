package dev.omcp.ports.plugins;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of one check of a plugin directory (manifest, integrity or signature).
 *
 * @param status whether the check passed, failed or could not run
 * @param problems every reason it failed or did not run, in the words an operator reads in the log;
 *     empty when it passed
 */
public record CheckResult(Status status, List<String> problems) {
    /** What a check concluded. */
    public enum Status {
        /** The check ran and found nothing wrong. */
        PASSED,
        /** The check ran and found at least one problem. */
        FAILED,
        /** The check could not run, for example a signature without a trust root. */
        NOT_CHECKED
    }

    public CheckResult {
        Objects.requireNonNull(status, "status");
        problems = List.copyOf(problems);
        if (status == Status.PASSED && !problems.isEmpty()) {
            throw new IllegalArgumentException("a passed check carries no problems");
        }
        if (status != Status.PASSED && problems.isEmpty()) {
            throw new IllegalArgumentException("a check that did not pass must say why");
        }
    }

    /** The check ran and passed. */
    public static CheckResult passed() {
        return new CheckResult(Status.PASSED, List.of());
    }

    /** The check ran and failed for {@code problems}. */
    public static CheckResult failed(List<String> problems) {
        return new CheckResult(Status.FAILED, problems);
    }

    /** The check ran and failed for {@code problem}. */
    public static CheckResult failed(String problem) {
        return new CheckResult(Status.FAILED, List.of(problem));
    }

    /** The check could not run, for {@code reason}. */
    public static CheckResult notChecked(String reason) {
        return new CheckResult(Status.NOT_CHECKED, List.of(reason));
    }

    /** Whether the check ran and passed. */
    public boolean ok() {
        return status == Status.PASSED;
    }

    /** The problems joined into one line, or empty string. */
    public String summary() {
        return String.join("; ", problems);
    }
}
