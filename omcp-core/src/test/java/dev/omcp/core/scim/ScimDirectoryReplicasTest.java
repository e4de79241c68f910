package dev.omcp.core.scim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SessionRevocations;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.scim.ScimError;
import dev.omcp.ports.scim.ScimOutcome;
import dev.omcp.ports.scim.ScimResourceType;
import dev.omcp.ports.scim.ScimSnapshot;
import dev.omcp.ports.scim.ScimSnapshotTooLargeException;
import dev.omcp.ports.scim.ScimStore;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Spec 5.6 (a SCIM store shared by replicas): every request reads the store, every change is a
 * compare-and-set that is redone when another replica wrote in between, and a store that cannot be
 * used answers 503 with nothing changed, and refuses logins.
 */
class ScimDirectoryReplicasTest {
    private static final String USER = "urn:ietf:params:scim:schemas:core:2.0:User";
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger ids = new AtomicInteger();
    private final ScimStore shared = ScimStore.memory();
    private final ScimDirectory replicaB = directory(shared);

    @Test
    void twoDirectoriesOnOneStore_seeEachOthersChanges_soADeactivationThroughOneRefusesTheLoginOnTheOther() {
        ScimDirectory replicaA = directory(shared);
        String id = id(replicaA.create(ScimResourceType.USER, user("bjensen")));
        assertThat(replicaB.get(ScimResourceType.USER, id)).isInstanceOf(ScimOutcome.Done.class);
        ScimLogins loginsOnA = new ScimLogins(replicaA, Map.of());
        assertThat(loginsOnA.refusal(List.of("bjensen"))).isEmpty();

        assertThat(replicaB.patch(ScimResourceType.USER, id, deactivate())).isInstanceOf(ScimOutcome.Done.class);
        assertThat(loginsOnA.refusal(List.of("bjensen"))).hasValueSatisfying(reason -> assertThat(reason).contains("deactivated"));
        assertThat(replicaB.delete(ScimResourceType.USER, id)).isInstanceOf(ScimOutcome.Done.class);
        assertThat(replicaA.deprovisioned("BJENSEN")).contains("deleted");
    }

    @Test
    void aWriteOfAnotherReplicaBetweenReadAndReplace_isNotOverwritten_theChangeIsRedoneOnTheNewerSnapshot() {
        ScimDirectory replicaA = directory(new Interleaving(shared, () -> replicaB.create(ScimResourceType.USER, user("written-by-b")), 1));
        assertThat(replicaA.create(ScimResourceType.USER, user("written-by-a"))).isInstanceOf(ScimOutcome.Done.class);
        assertThat(userNames()).containsExactly("written-by-b", "written-by-a");
    }

    @Test
    void aConflictingWriteOfAnotherReplica_isSeenOnTheRetry_soATakenUserNameIsRefusedNotDuplicated() {
        ScimDirectory replicaA = directory(new Interleaving(shared, () -> replicaB.create(ScimResourceType.USER, user("BJensen")), 1));
        ScimOutcome outcome = replicaA.create(ScimResourceType.USER, user("bjensen"));
        assertThat(((ScimOutcome.Refused) outcome).error().status()).isEqualTo(409);
        assertThat(userNames()).containsExactly("BJensen");
    }

    @Test
    void aDirectoryThatKeepsChangingUnderAChange_answers503AfterTheLastAttempt_andStoresNothingOfIt() {
        AtomicInteger others = new AtomicInteger();
        ScimDirectory replicaA = directory(new Interleaving(shared,
                () -> replicaB.create(ScimResourceType.USER, user("other-" + others.incrementAndGet())), Integer.MAX_VALUE));
        ScimError error = refused(replicaA.create(ScimResourceType.USER, user("mine")));
        assertThat(error.status()).isEqualTo(503);
        assertThat(error.detail()).contains("other gateway replicas").contains("nothing was changed").contains("send it again");
        assertThat(others.get()).isEqualTo(ScimDirectory.MAX_ATTEMPTS);
        assertThat(userNames()).doesNotContain("mine").hasSize(ScimDirectory.MAX_ATTEMPTS);
    }

    @Test
    void aStoreThatDoesNotAnswer_answers503ToEveryScimRequest_andThrowsToLoginsSoTheyAreRefused() {
        String id = id(replicaB.create(ScimResourceType.USER, user("bjensen")));
        Failing failing = new Failing(shared);
        ScimDirectory replicaA = directory(failing);
        failing.failure = () -> new SharedStateUnavailableException("the shared store redis://10.0.0.5:6379 did not answer");
        List<ScimOutcome> outcomes = List.of(
                replicaA.create(ScimResourceType.USER, user("new")),
                replicaA.get(ScimResourceType.USER, id),
                replicaA.list(ScimResourceType.USER, Optional.empty(), 1, 10),
                replicaA.patch(ScimResourceType.USER, id, deactivate()),
                replicaA.delete(ScimResourceType.USER, id));
        for (ScimOutcome outcome : outcomes) {
            ScimError error = refused(outcome);
            assertThat(error.status()).isEqualTo(503);
            // the operator's log has the address; the identity provider is told what to do
            assertThat(error.detail()).contains("nothing was changed").contains("event=scim-store-unavailable")
                    .doesNotContain("10.0.0.5");
        }
        ScimLogins logins = new ScimLogins(replicaA, Map.of("ops", "operator"));
        assertThatThrownBy(() -> logins.refusal(List.of("bjensen"))).isInstanceOf(SharedStateUnavailableException.class);
        assertThatThrownBy(() -> logins.groupRoles(List.of("bjensen"))).isInstanceOf(SharedStateUnavailableException.class);
        assertThat(userNames()).containsExactly("bjensen");
        assertThat(replicaB.deprovisioned("bjensen")).isEmpty();
    }

    @Test
    void aReplaceThatFails_answers503_andLeavesTheDirectoryAsItWas() {
        Failing failing = new Failing(shared);
        ScimDirectory replicaA = directory(failing);
        String id = id(replicaA.create(ScimResourceType.USER, user("bjensen")));
        failing.failReplaceOnly = true;
        failing.failure = () -> new UncheckedIOException("the SCIM directory could not be written to OMCP_SCIM_STORE /x",
                new IOException("No space left on device"));
        assertThat(refused(replicaA.patch(ScimResourceType.USER, id, deactivate())).status()).isEqualTo(503);
        failing.failure = () -> new SharedStateUnavailableException("the shared store refused the command (READONLY)");
        assertThat(refused(replicaA.delete(ScimResourceType.USER, id)).status()).isEqualTo(503);
        failing.failure = null;
        assertThat(replicaA.deprovisioned("bjensen")).isEmpty();
        assertThat(replicaA.get(ScimResourceType.USER, id)).isInstanceOf(ScimOutcome.Done.class);
    }

    @Test
    void aDirectoryGrownPastItsStoresLimit_refusesTheChange_with507AndTheLimit() {
        Failing failing = new Failing(shared);
        failing.failReplaceOnly = true;
        failing.failure = () -> new ScimSnapshotTooLargeException("the SCIM directory would take 300 bytes in OMCP_SCIM_STORE /x,"
                + " more than the 200 bytes its store may hold");
        ScimError error = refused(directory(failing).create(ScimResourceType.USER, user("bjensen")));
        assertThat(error.status()).isEqualTo(507);
        assertThat(error.detail()).contains("200 bytes").contains("nothing was changed");
        assertThat(userNames()).isEmpty();
    }

    private ScimDirectory directory(ScimStore store) {
        return new ScimDirectory(store, clock, () -> "id-" + ids.incrementAndGet(), new NoSessions());
    }

    private List<String> userNames() {
        return shared.read().snapshot().users().stream().map(u -> u.getString("userName")).toList();
    }

    private static JsonObject user(String userName) {
        return json("{\"schemas\":[\"" + USER + "\"],\"userName\":\"" + userName + "\"}");
    }

    private static JsonObject deactivate() {
        return json("{\"schemas\":[\"urn:ietf:params:scim:api:messages:2.0:PatchOp\"],\"Operations\":[{\"op\":\"replace\","
                + "\"value\":{\"active\":false}}]}");
    }

    private static String id(ScimOutcome outcome) {
        assertThat(outcome).isInstanceOf(ScimOutcome.Done.class);
        return ((ScimOutcome.Done) outcome).id().orElseThrow();
    }

    private static ScimError refused(ScimOutcome outcome) {
        assertThat(outcome).isInstanceOf(ScimOutcome.Refused.class);
        return ((ScimOutcome.Refused) outcome).error();
    }

    private static JsonObject json(String text) {
        return Jsonp.reader(new StringReader(text)).readObject();
    }

    /** Another replica writes right before each of the first {@code times} replaces of this one: after its read. */
    private static final class Interleaving implements ScimStore {
        private final ScimStore inner;
        private final Runnable otherReplica;
        private int times;

        Interleaving(ScimStore inner, Runnable otherReplica, int times) {
            this.inner = inner;
            this.otherReplica = otherReplica;
            this.times = times;
        }

        @Override
        public Stored read() {
            return inner.read();
        }

        @Override
        public boolean replace(long revision, ScimSnapshot next) {
            if (times > 0) {
                times--;
                otherReplica.run();
            }
            return inner.replace(revision, next);
        }
    }

    /** A store that throws {@link #failure} (on reads too, unless {@link #failReplaceOnly}) while it is set. */
    private static final class Failing implements ScimStore {
        private final ScimStore inner;
        Supplier<RuntimeException> failure;
        boolean failReplaceOnly;

        Failing(ScimStore inner) {
            this.inner = inner;
        }

        @Override
        public Stored read() {
            if (failure != null && !failReplaceOnly) {
                throw failure.get();
            }
            return inner.read();
        }

        @Override
        public boolean replace(long revision, ScimSnapshot next) {
            if (failure != null) {
                throw failure.get();
            }
            return inner.replace(revision, next);
        }
    }

    private static final class NoSessions implements SessionRevocations {
        @Override
        public Revocation revoke(RevocationTarget target, String value, String reason, Principal by) {
            return new Revocation(target, value, reason, Instant.EPOCH, by.id());
        }

        @Override
        public List<Revocation> current(Principal viewer) {
            return List.of();
        }

        @Override
        public Optional<Instant> allSessionsRevokedAt() {
            return Optional.empty();
        }
    }
}
