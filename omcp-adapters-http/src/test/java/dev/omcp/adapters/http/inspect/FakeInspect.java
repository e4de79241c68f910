package dev.omcp.adapters.http.inspect;

import dev.omcp.ports.inspect.Derivation;
import dev.omcp.ports.inspect.Deviation;
import dev.omcp.ports.inspect.DeviationReport;
import dev.omcp.ports.inspect.Flows;
import dev.omcp.ports.inspect.InspectMode;
import dev.omcp.ports.inspect.InspectStatus;
import dev.omcp.ports.inspect.ManageInspect;
import dev.omcp.ports.inspect.ModeChange;
import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.ObservationQuery;
import dev.omcp.ports.inspect.Provenance;
import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.inspect.RuleChange;
import dev.omcp.ports.inspect.RuleEdit;
import dev.omcp.ports.inspect.RuleStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The Inspect use cases as the routes see them: each answer is set by the test, and each call is written down, so a
 * test can see what a route asked of the core, and that a refused request asked nothing.
 */
final class FakeInspect implements ManageInspect {
    static final Instant FROM = Instant.parse("2026-03-01T09:00:00Z");
    static final Instant TO = Instant.parse("2026-03-01T10:00:00Z");
    static final Rule SUGGESTED = new Rule("r-0123456789ab", "key:ci-bot", "query_logs",
            Map.of("service", List.of("checkout", "cart")), Map.of("limit", List.of("num:<=100")),
            new Provenance(42, FROM, TO, 0.89), RuleStatus.SUGGESTED);
    static final Rule ACCEPTED = new Rule("r-aaaaaaaaaaaa", "role:sre", "list_sources", Map.of(), Map.of(),
            new Provenance(7, FROM, FROM, 0.58), RuleStatus.ACCEPTED);
    static final Rule REJECTED = new Rule("r-bbbbbbbbbbbb", "*", "query_metrics", Map.of("source", List.of("prom")), Map.of(),
            new Provenance(3, FROM, TO, 0.38), RuleStatus.REJECTED);
    static final Observation CALL = new Observation(TO, "key:ci-bot", "api_key", "acme", Set.of("viewer"), Set.of(),
            "query_logs", Map.of("service", "payments"), Map.of("limit", "num:<=100"), Observation.Outcome.OK, 41,
            Observation.Decision.WOULD_BLOCK);

    final List<String> calls = new CopyOnWriteArrayList<>();
    volatile InspectStatus status = new InspectStatus(InspectMode.DRYRUN, 1523, 2, "file", Duration.ofHours(24), 17, 0, 1, 1, "file");
    volatile ModeChange modeChange = new ModeChange.Changed(InspectMode.OBSERVE, InspectMode.DRYRUN);
    volatile List<Rule> rules = List.of(ACCEPTED, SUGGESTED, REJECTED);
    volatile Derivation derivation = new Derivation.Derived(List.of(SUGGESTED), 1200, 3, FROM, TO);
    volatile RuleChange ruleChange = new RuleChange.Changed(SUGGESTED, SUGGESTED.withStatus(RuleStatus.ACCEPTED));
    volatile DeviationReport deviations = new DeviationReport(List.of(new Deviation(CALL, Deviation.Kind.NEW_RESOURCE,
            "service \"payments\" is not in [cart, checkout]")), 9, Map.of(Deviation.Kind.NEW_RESOURCE, 8L,
            Deviation.Kind.NEW_TOOL, 1L), 1200, 1, Duration.ofHours(24));
    volatile Flows flows = new Flows(List.of(new Flows.Node("principal:key:ci-bot", "principal", "key:ci-bot", 12),
            new Flows.Node("tool:query_logs", "tool", "query_logs", 12), new Flows.Node("source:*", "source", "*", 12)),
            List.of(new Flows.Edge("principal:key:ci-bot", "tool:query_logs", 12, 1, 2, 0),
                    new Flows.Edge("tool:query_logs", "source:*", 12, 1, 2, 0)), 12, Duration.ofHours(24));

    @Override
    public InspectStatus status() {
        return status;
    }

    @Override
    public ModeChange changeMode(InspectMode requested) {
        calls.add("changeMode " + requested.wireName());
        return modeChange;
    }

    @Override
    public List<Observation> events(ObservationQuery query) {
        calls.add("events " + query.tenant().orElse("(all)"));
        return List.of(CALL);
    }

    @Override
    public List<Rule> profile() {
        calls.add("profile");
        return rules;
    }

    @Override
    public Derivation derive(Duration window) {
        calls.add("derive " + window);
        return derivation;
    }

    @Override
    public RuleChange changeRule(String id, RuleEdit edit) {
        calls.add("changeRule " + id + " " + edit);
        return ruleChange;
    }

    @Override
    public DeviationReport deviations(Duration window, Optional<String> tenant, int limit) {
        calls.add("deviations " + window + " " + tenant.orElse("(all)") + " " + limit);
        return deviations;
    }

    @Override
    public Flows flows(Duration window, Optional<String> tenant) {
        calls.add("flows " + window + " " + tenant.orElse("(all)"));
        return flows;
    }
}
