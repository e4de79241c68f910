package dev.omcp.ports.inspect;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Which observations to read, newest first.
 *
 * @param from only those at or after this time
 * @param to only those at or before this time
 * @param principal only this principal id
 * @param tool only this tool
 * @param outcome only this outcome
 * @param decision only this decision
 * @param tenant only this tenant (a tenant-bound caller's reads); empty: every tenant
 * @param limit at most this many, 1 to {@link #MAX_LIMIT}
 */
public record ObservationQuery(Optional<Instant> from, Optional<Instant> to, Optional<String> principal, Optional<String> tool,
        Optional<Observation.Outcome> outcome, Optional<Observation.Decision> decision, Optional<String> tenant, int limit) {
    /** spec 4.3 like {@code GET /api/audit}: at most 1000 a page. */
    public static final int MAX_LIMIT = 1000;
    /** Without a limit, 100. */
    public static final int DEFAULT_LIMIT = 100;

    public ObservationQuery {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(tenant, "tenant");
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1-" + MAX_LIMIT + ", got " + limit);
        }
    }

    /** The newest {@code limit} observations, unfiltered. */
    public static ObservationQuery newest(int limit) {
        return new ObservationQuery(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), limit);
    }

    /** The same query, starting no earlier than {@code earliest}. */
    public ObservationQuery notBefore(Instant earliest) {
        Instant start = from.filter(f -> f.isAfter(earliest)).orElse(earliest);
        return new ObservationQuery(Optional.of(start), to, principal, tool, outcome, decision, tenant, limit);
    }

    /** The same query, narrowed to {@code only}'s records. */
    public ObservationQuery onlyTenant(String only) {
        return new ObservationQuery(from, to, principal, tool, outcome, decision, Optional.of(only), limit);
    }

    /** Whether {@code observation} matches every filter. */
    public boolean matches(Observation observation) {
        return from.map(f -> !observation.ts().isBefore(f)).orElse(true)
                && to.map(t -> !observation.ts().isAfter(t)).orElse(true)
                && principal.map(observation.principal()::equals).orElse(true)
                && tool.map(observation.tool()::equals).orElse(true)
                && outcome.map(o -> o == observation.outcome()).orElse(true)
                && decision.map(d -> d == observation.decision()).orElse(true)
                && tenant.map(observation.tenant()::equals).orElse(true);
    }
}
