package dev.omcp.core.analysis.postmortem;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Whether the sources of one kind of data answered while the post-mortem was built: all of them,
 * some of them (the section is incomplete and must say so), none, or none is configured.
 *
 * @param availability what answered
 * @param failures the sources that did not answer; empty unless {@code PARTIAL} or {@code UNAVAILABLE}
 */
public record SourceState(Availability availability, List<SourceFailure> failures) {
    /** The four states. */
    public enum Availability {
        /** Every source answered. */
        AVAILABLE,
        /** Some answered, some failed or timed out: what the section shows is incomplete. */
        PARTIAL,
        /** Sources are configured but none answered. */
        UNAVAILABLE,
        NOT_CONFIGURED
    }

    public SourceState {
        Objects.requireNonNull(availability, "availability");
        failures = List.copyOf(failures);
        boolean failed = availability == Availability.PARTIAL || availability == Availability.UNAVAILABLE;
        if (failed == failures.isEmpty()) {
            throw new IllegalArgumentException(availability + " with " + failures.size() + " failed sources");
        }
    }

    public static SourceState available() {
        return new SourceState(Availability.AVAILABLE, List.of());
    }

    public static SourceState partial(List<SourceFailure> failures) {
        return new SourceState(Availability.PARTIAL, failures);
    }

    public static SourceState unavailable(List<SourceFailure> failures) {
        return new SourceState(Availability.UNAVAILABLE, failures);
    }

    public static SourceState notConfigured() {
        return new SourceState(Availability.NOT_CONFIGURED, List.of());
    }

    /**
     * The state of a fan-out: not configured when it had no source, else available, partial or
     * unavailable by whether any source answered and any failed.
     */
    public static SourceState of(boolean configured, boolean anyAnswered, List<SourceFailure> failures) {
        if (!configured) {
            return notConfigured();
        }
        if (failures.isEmpty()) {
            return available();
        }
        return anyAnswered ? partial(failures) : unavailable(failures);
    }

    /** Whether at least one source answered, so the section has data (complete or not). */
    public boolean answered() {
        return availability == Availability.AVAILABLE || availability == Availability.PARTIAL;
    }

    /** Whether some source failed or timed out. */
    public boolean incomplete() {
        return !failures.isEmpty();
    }

    /** Whether every failure was a timeout (the source may answer on a rerun). */
    public boolean onlyTimeouts() {
        return !failures.isEmpty() && failures.stream().allMatch(f -> f.kind() == SourceFailure.Kind.TIMEOUT);
    }

    /** The failures, described and joined: {@code "zipkin timed out: …; tempo failed: …"}; empty when none. */
    public String detail() {
        return failures.stream().map(SourceFailure::describe).collect(Collectors.joining("; "));
    }

    /** The names of the sources that failed: {@code "zipkin"}, {@code "zipkin and tempo"}. */
    public String failedSources() {
        List<String> names = failedSourceNames();
        return names.size() == 1 ? names.getFirst()
                : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.getLast();
    }

    /** Whether exactly one source failed (for "it" or "they"). */
    public boolean oneFailedSource() {
        return failedSourceNames().size() == 1;
    }

    private List<String> failedSourceNames() {
        return failures.stream().map(SourceFailure::source).distinct().toList();
    }
}
