package dev.omcp.core.inspect;

import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.Provenance;
import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.inspect.RuleStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/** Rules, signatures and observations for the Inspect tests. */
final class InspectFixtures {
    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    static final Provenance BY_HAND = new Provenance(0, T0, T0, 1);

    private InspectFixtures() {}

    static Rule accepted(String id, String subject, String tool, Map<String, List<String>> resources, Map<String, List<String>> args) {
        return new Rule(id, subject, tool, resources, args, BY_HAND, RuleStatus.ACCEPTED);
    }

    static Rule accepted(String id, String subject, String tool) {
        return accepted(id, subject, tool, Map.of(), Map.of());
    }

    static CallSignature call(String principal, String tool, Map<String, String> resources, Map<String, String> args) {
        return new CallSignature(principal, Set.of(), Set.of(), tool, resources, args);
    }

    static Observation observation(Instant ts, String principal, String tool, Map<String, String> resources, Map<String, String> args) {
        return observation(ts, principal, "acme", tool, resources, args, Observation.Outcome.OK, Observation.Decision.ALLOW);
    }

    static Observation observation(Instant ts, String principal, String tenant, String tool, Map<String, String> resources,
            Map<String, String> args, Observation.Outcome outcome, Observation.Decision decision) {
        return new Observation(ts, principal, "api_key", tenant, Set.of(), Set.of(), tool, resources, args, outcome, 5, decision);
    }

    /** r-000000000001, r-000000000002, ... */
    static Supplier<String> sequentialIds() {
        AtomicInteger next = new AtomicInteger();
        return () -> String.format("r-%012x", next.incrementAndGet());
    }
}
