package dev.omcp.core.policy;

import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.ExternalDecision;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.access.PolicyDecisionPoint;
import dev.omcp.ports.access.PolicyQuery;
import dev.omcp.ports.access.PolicyView;
import dev.omcp.ports.identity.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Access decided by an external engine (OPA, {@code OMCP_OPA_URL}), with a decision cache.
 *
 * <p>Fail-closed: when the engine cannot be reached, is too slow, or answers anything but an
 * explicit allow, nothing is allowed. An unreachable engine is answered as
 * {@link AccessDecision.Unavailable} (503 at the HTTP layer, so operators can tell an outage from a
 * denial) and is never cached, so the first answer after recovery applies at once. Allows and
 * denials are cached for {@code ttl} per (subject, roles, tenant, permission); expired entries are
 * never served. The anonymous principal of anonymous mode is allowed without asking.
 */
public final class OpaAccessPolicy implements AccessPolicy {
    private static final int MAX_CACHED = 10_000;

    private final PolicyDecisionPoint engine;
    private final Clock clock;
    private final Duration ttl;
    private final List<Permission> catalog;
    private final Map<Key, Cached> cache = new ConcurrentHashMap<>();

    private record Key(String subject, String authKind, List<String> roles, String tenant, Permission permission) {}

    private record Cached(boolean allowed, Instant expires) {}

    public OpaAccessPolicy(PolicyDecisionPoint engine, Clock clock, Duration ttl, List<Permission> catalog) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        this.catalog = List.copyOf(catalog);
    }

    @Override
    public AccessDecision decide(Principal principal, Permission permission) {
        if (principal.isAnonymous()) {
            return new AccessDecision.Allowed();
        }
        Outcome outcome = ask(principal, permission);
        return switch (outcome) {
            case ALLOWED -> new AccessDecision.Allowed();
            case DENIED -> new AccessDecision.Denied(permission, permissionsOf(principal));
            case UNAVAILABLE -> new AccessDecision.Unavailable(
                    "the policy engine (OMCP_OPA_URL) could not decide; access is refused until it answers");
        };
    }

    @Override
    public List<Permission> permissionsOf(Principal principal) {
        if (principal.isAnonymous()) {
            return catalog;
        }
        List<Permission> held = new ArrayList<>();
        for (Permission permission : catalog) {
            Outcome outcome = ask(principal, permission);
            if (outcome == Outcome.UNAVAILABLE) {
                // Fail closed, and do not wait for one timeout per remaining permission.
                break;
            }
            if (outcome == Outcome.ALLOWED) {
                held.add(permission);
            }
        }
        return held;
    }

    @Override
    public List<Permission> catalog() {
        return catalog;
    }

    @Override
    public PolicyView view() {
        return new PolicyView(Map.of(), List.of(),
                "Decisions come from an OPA server (OMCP_OPA_URL): each permission check posts {input: {subject, "
                        + "resource, action, permission}} to the OPA Data API and allows only an explicit true result. "
                        + "Decisions are cached for " + ttl.toSeconds() + " s. When OPA cannot be reached every check "
                        + "fails closed with 503 OMCP_POLICY_UNAVAILABLE.");
    }

    private enum Outcome { ALLOWED, DENIED, UNAVAILABLE }

    private Outcome ask(Principal principal, Permission permission) {
        Instant now = clock.instant();
        Key key = new Key(principal.id(), principal.authKind().name(), List.copyOf(new TreeSet<>(principal.roles())),
                principal.tenant(), permission);
        Cached cached = cache.get(key);
        if (cached != null && cached.expires().isAfter(now)) {
            return cached.allowed() ? Outcome.ALLOWED : Outcome.DENIED;
        }
        ExternalDecision decision = engine.decide(new PolicyQuery(principal, permission));
        Outcome outcome = switch (decision) {
            case ExternalDecision.Allow allow -> Outcome.ALLOWED;
            case ExternalDecision.Deny deny -> Outcome.DENIED;
            case ExternalDecision.Unavailable unavailable -> Outcome.UNAVAILABLE;
        };
        if (outcome != Outcome.UNAVAILABLE) {
            if (cache.size() >= MAX_CACHED) {
                cache.values().removeIf(entry -> !entry.expires().isAfter(now));
                if (cache.size() >= MAX_CACHED) {
                    cache.clear();
                }
            }
            cache.put(key, new Cached(outcome == Outcome.ALLOWED, now.plus(ttl)));
        } else {
            cache.remove(key);
        }
        return outcome;
    }
}
