package dev.omcp.ports.sources;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What a change of one source asks of the source as it is when the change is made. Both are
 * checked in the same step as the change, so no other change can come in between.
 *
 * @param versions the versions ({@link SourceView#version()}) the change may be made on, or empty
 *     for any: a change on another one is {@link SourceOutcome.Stale}
 * @param problems what the caller's request says wrongly about the source as it is now (for example
 *     a read-only field sent with another value), each naming the field; any is a refusal
 *     ({@link SourceOutcome#INVALID}). Never called for a source that does not exist
 */
public record SourcePrecondition(Optional<Set<String>> versions, Function<SourceView, List<String>> problems) {
    /** Any version, no further check: the change is made on whatever is stored. */
    public static final SourcePrecondition NONE = new SourcePrecondition(Optional.empty(), source -> List.of());

    public SourcePrecondition {
        Objects.requireNonNull(versions, "versions");
        versions = versions.map(Set::copyOf);
        Objects.requireNonNull(problems, "problems");
    }

    /** Only on one of {@code versions} when present, with no further check. */
    public static SourcePrecondition onVersions(Optional<Set<String>> versions) {
        return new SourcePrecondition(versions, source -> List.of());
    }

    /** Whether {@code source} has a version this precondition accepts. */
    public boolean acceptsVersionOf(SourceView source) {
        return versions.isEmpty() || versions.get().contains(source.version());
    }
}
