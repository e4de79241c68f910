package dev.omcp.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.testkit.time.ManualClock;
import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.ExternalDecision;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.access.PolicyDecisionPoint;
import dev.omcp.ports.access.PolicyQuery;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class OpaAccessPolicyTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicReference<ExternalDecision> answer = new AtomicReference<>(new ExternalDecision.Allow());
    private final PolicyDecisionPoint engine = query -> {
        calls.incrementAndGet();
        return answer.get();
    };
    private final OpaAccessPolicy policy = new OpaAccessPolicy(engine, clock, Duration.ofSeconds(30), BuiltinPolicy.ALL);
    private final Principal alice = new Principal("alice", "Alice", AuthKind.SESSION, "acme", Set.of("sre"), Optional.of("s"));
    private final Permission write = Permission.parse("sources:write");

    @Test
    void decisionsAreCachedForTheTtl_thenAskedAgain() {
        assertThat(policy.decide(alice, write)).isInstanceOf(AccessDecision.Allowed.class);
        assertThat(policy.decide(alice, write)).isInstanceOf(AccessDecision.Allowed.class);
        assertThat(calls).hasValue(1);
        answer.set(new ExternalDecision.Deny());
        clock.advance(Duration.ofSeconds(29));
        assertThat(policy.decide(alice, write)).isInstanceOf(AccessDecision.Allowed.class);
        clock.advance(Duration.ofSeconds(1));
        assertThat(policy.decide(alice, write)).isInstanceOf(AccessDecision.Denied.class);
    }

    @Test
    void anUnreachableEngineFailsClosed_andIsNeverCached() {
        answer.set(new ExternalDecision.Unavailable("connection refused"));
        assertThat(policy.decide(alice, write)).isInstanceOf(AccessDecision.Unavailable.class);
        assertThat(policy.permissionsOf(alice)).isEmpty();
        answer.set(new ExternalDecision.Allow());
        assertThat(policy.decide(alice, write)).isInstanceOf(AccessDecision.Allowed.class);
    }

    @Test
    void anOutageSaysWhatFailed_soAnOperatorCanTellATimeoutFromARefusedToken() {
        // the engine's reason was dropped: a 401 from an OPA that wants a token, a 404 of a wrong
        // OMCP_OPA_URL and a timeout all read "could not decide", in the 503 and in the gateway log
        answer.set(new ExternalDecision.Unavailable("OPA answered HTTP 401"));
        assertThat(policy.decide(alice, write)).isInstanceOfSatisfying(AccessDecision.Unavailable.class, u -> assertThat(u.reason())
                .contains("OMCP_OPA_URL").contains("OPA answered HTTP 401").contains("retry"));
    }

    @Test
    void theCacheKeyIncludesEveryFieldOfTheInput_theNameToo() {
        // the input document carries the display name, so a policy may decide on it: a decision made
        // for one name must not be served for another within the TTL
        PolicyDecisionPoint byName = query -> query.subject().name().equals("Alice")
                ? new ExternalDecision.Allow() : new ExternalDecision.Deny();
        OpaAccessPolicy names = new OpaAccessPolicy(byName, clock, Duration.ofSeconds(30), BuiltinPolicy.ALL);
        Principal renamed = new Principal("alice", "Mallory", AuthKind.SESSION, "acme", Set.of("sre"), Optional.of("s"));
        assertThat(names.decide(alice, write)).isInstanceOf(AccessDecision.Allowed.class);
        assertThat(names.decide(renamed, write)).isInstanceOf(AccessDecision.Denied.class);
    }

    @Test
    void anOutageStopsThePermissionListingAfterTheFirstFailure() {
        answer.set(new ExternalDecision.Unavailable("timeout"));
        policy.permissionsOf(alice);
        assertThat(calls).hasValue(1);
    }

    @Test
    void aDenialListsThePermissionsTheEngineAllows() {
        PolicyDecisionPoint readsOnly = query -> query.permission().action().equals("read")
                ? new ExternalDecision.Allow() : new ExternalDecision.Deny();
        OpaAccessPolicy reads = new OpaAccessPolicy(readsOnly, clock, Duration.ofSeconds(30), BuiltinPolicy.ALL);
        AccessDecision.Denied denied = (AccessDecision.Denied) reads.decide(alice, write);
        assertThat(denied.have()).isNotEmpty().allSatisfy(p -> assertThat(p.action()).isEqualTo("read"));
    }

    @Test
    void theCacheKeyIncludesRolesAndTenant() {
        PolicyDecisionPoint byTenant = (PolicyQuery query) -> query.subject().tenant().equals("acme")
                ? new ExternalDecision.Allow() : new ExternalDecision.Deny();
        OpaAccessPolicy tenants = new OpaAccessPolicy(byTenant, clock, Duration.ofSeconds(30), BuiltinPolicy.ALL);
        Principal elsewhere = new Principal("alice", "Alice", AuthKind.SESSION, "other", Set.of("sre"), Optional.of("s"));
        assertThat(tenants.decide(alice, write)).isInstanceOf(AccessDecision.Allowed.class);
        assertThat(tenants.decide(elsewhere, write)).isInstanceOf(AccessDecision.Denied.class);
    }

    @Test
    void theHeldPermissionsOfADenial_areAskedTogether_soA403WaitsForAboutOneRoundTripNotOnePerPermission() {
        // every undecided permission of the catalog is one question to OPA; asked one after another, a
        // 403 or /api/me of an engine 50 ms away took 28 of them, 1.4 s
        java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger mostAtOnce = new java.util.concurrent.atomic.AtomicInteger();
        PolicyDecisionPoint slow = query -> {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new ExternalDecision.Unavailable("interrupted");
            } finally {
                running.decrementAndGet();
            }
            return query.permission().action().equals("read") ? new ExternalDecision.Allow() : new ExternalDecision.Deny();
        };
        OpaAccessPolicy reads = new OpaAccessPolicy(slow, clock, Duration.ofSeconds(30), BuiltinPolicy.ALL);
        AccessDecision.Denied denied = (AccessDecision.Denied) reads.decide(alice, write);
        assertThat(denied.have()).as("in the catalog's order").containsExactlyElementsOf(
                BuiltinPolicy.ALL.stream().filter(p -> p.action().equals("read")).toList());
        assertThat(mostAtOnce.get()).as("questions in flight at once").isGreaterThan(1).isLessThanOrEqualTo(OpaAccessPolicy.ASKED_AT_ONCE);
    }

    @Test
    void anOutageMetWhileListing_listsOnlyWhatWasDecidedBefore_andAsksNoMore() {
        PolicyDecisionPoint readsOnly = query -> query.permission().action().equals("read")
                ? new ExternalDecision.Allow() : new ExternalDecision.Deny();
        AtomicReference<PolicyDecisionPoint> current = new AtomicReference<>(readsOnly);
        OpaAccessPolicy flaky = new OpaAccessPolicy(query -> {
            calls.incrementAndGet();
            return current.get().decide(query);
        }, clock, Duration.ofSeconds(30), BuiltinPolicy.ALL);
        Permission sourcesRead = Permission.parse("sources:read");
        assertThat(flaky.decide(alice, sourcesRead)).isInstanceOf(AccessDecision.Allowed.class);
        current.set(query -> new ExternalDecision.Unavailable("timeout"));
        calls.set(0);
        assertThat(flaky.permissionsOf(alice)).containsExactly(sourcesRead);
        assertThat(calls).as("one question met the outage; the rest were not asked").hasValue(1);
    }

    @Test
    void anonymousModeIsNeverAsked() {
        assertThat(policy.decide(Principal.anonymous(), write)).isInstanceOf(AccessDecision.Allowed.class);
        assertThat(calls).hasValue(0);
        assertThat(policy.view().note()).contains("fails closed");
    }
}
