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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * Access decided by an external engine (OPA, {@code OMCP_OPA_URL}), with a decision cache.
 *
 * <p>Fail-closed: when the engine cannot be reached, is too slow, or answers anything but an
 * explicit allow, nothing is allowed. An unreachable engine is answered as
 * {@link AccessDecision.Unavailable} (503 at the HTTP layer, so operators can tell an outage from a
 * denial) and is never cached, so the first answer after recovery applies at once. Allows and
 * denials are cached for {@code ttl} per (subject, name, roles, tenant, permission), every field of
 * the engine's input, so no decision is served for a caller the engine did not see; expired entries
 * are never served. The anonymous principal of anonymous mode is allowed without asking.
 */
public final class OpaAccessPolicy implements AccessPolicy {
    private static final int MAX_CACHED = 10_000;
    /** Questions one listing of held permissions puts to the engine at once. */
    static final int ASKED_AT_ONCE = 8;

    private final PolicyDecisionPoint engine;
    private final Clock clock;
    private final Duration ttl;
    private final List<Permission> catalog;
    private final Map<Key, Cached> cache = new ConcurrentHashMap<>();

    private record Key(String subject, String name, String authKind, List<String> roles, String tenant, Permission permission) {
        Key with(Permission other) {
            return new Key(subject, name, authKind, roles, tenant, other);
        }
    }

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
        return switch (ask(principal, permission)) {
            case ExternalDecision.Allow allow -> new AccessDecision.Allowed();
            case ExternalDecision.Deny deny -> new AccessDecision.Denied(permission, permissionsOf(principal));
            // the engine's reason (a timeout, a status such as 401, an unreadable answer) is what tells an
            // operator where to look; it names no address (PolicyDecisionPoint's contract)
            case ExternalDecision.Unavailable unavailable -> new AccessDecision.Unavailable("the policy engine (OMCP_OPA_URL) "
                    + "could not decide: " + unavailable.reason() + "; access is refused until it answers: retry after the "
                    + "Retry-After seconds, and tell an operator if it persists");
        };
    }

    /**
     * The permissions {@code principal} holds. Those not decided yet are asked: the first alone, so
     * that during an outage one question meets it and the listing stops there (fail closed, one
     * timeout, not one per permission); the rest together, at most {@link #ASKED_AT_ONCE} at a time,
     * so a 403's {@code have} or {@code /api/me} waits for about one round trip to the engine instead
     * of one per permission of the catalog. An outage met among those leaves its permissions out.
     */
    @Override
    public List<Permission> permissionsOf(Principal principal) {
        if (principal.isAnonymous()) {
            return catalog;
        }
        Key subject = keyOf(principal, null);
        Instant now = clock.instant();
        Map<Permission, ExternalDecision> outcomes = new HashMap<>();
        List<Permission> undecided = new ArrayList<>();
        for (Permission permission : catalog) {
            ExternalDecision cached = cached(subject.with(permission), now);
            if (cached == null) {
                undecided.add(permission);
            } else {
                outcomes.put(permission, cached);
            }
        }
        if (!undecided.isEmpty()) {
            ExternalDecision first = ask(principal, undecided.getFirst());
            outcomes.put(undecided.getFirst(), first);
            if (!(first instanceof ExternalDecision.Unavailable)) {
                outcomes.putAll(askTogether(principal, undecided.subList(1, undecided.size())));
            }
        }
        List<Permission> held = new ArrayList<>();
        for (Permission permission : catalog) {
            if (outcomes.get(permission) instanceof ExternalDecision.Allow) {
                held.add(permission);
            }
        }
        return held;
    }

    /** Asks for each of {@code permissions} on virtual threads, at most {@link #ASKED_AT_ONCE} at once. */
    private Map<Permission, ExternalDecision> askTogether(Principal principal, List<Permission> permissions) {
        Map<Permission, ExternalDecision> outcomes = new ConcurrentHashMap<>();
        Semaphore slots = new Semaphore(ASKED_AT_ONCE);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Permission permission : permissions) {
                slots.acquire();
                executor.execute(() -> {
                    try {
                        outcomes.put(permission, ask(principal, permission));
                    } finally {
                        slots.release();
                    }
                });
            }
        } catch (InterruptedException e) {
            // the request's thread is being stopped: what was not decided is left out, as in an outage
            Thread.currentThread().interrupt();
        }
        return outcomes;
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

    private static Key keyOf(Principal principal, Permission permission) {
        return new Key(principal.id(), principal.name(), principal.authKind().name(), List.copyOf(new TreeSet<>(principal.roles())),
                principal.tenant(), permission);
    }

    /** The cached allow or deny for {@code key} while it has not expired, else null. */
    private ExternalDecision cached(Key key, Instant now) {
        Cached cached = cache.get(key);
        if (cached != null && cached.expires().isAfter(now)) {
            return cached.allowed() ? new ExternalDecision.Allow() : new ExternalDecision.Deny();
        }
        return null;
    }

    private ExternalDecision ask(Principal principal, Permission permission) {
        Instant now = clock.instant();
        Key key = keyOf(principal, permission);
        ExternalDecision cached = cached(key, now);
        if (cached != null) {
            return cached;
        }
        ExternalDecision outcome = engine.decide(new PolicyQuery(principal, permission));
        if (!(outcome instanceof ExternalDecision.Unavailable)) {
            if (cache.size() >= MAX_CACHED) {
                cache.values().removeIf(entry -> !entry.expires().isAfter(now));
                if (cache.size() >= MAX_CACHED) {
                    cache.clear();
                }
            }
            cache.put(key, new Cached(outcome instanceof ExternalDecision.Allow, now.plus(ttl)));
        } else {
            cache.remove(key);
        }
        return outcome;
    }
}
