package dev.omcp.core.scim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SessionRevocations;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.scim.ScimOutcome;
import dev.omcp.ports.scim.ScimResourceType;
import dev.omcp.ports.scim.ScimStore;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Spec 4.5 and 5.6: filters, PatchOp, uniqueness, meta and deprovisioning. */
class ScimDirectoryTest {
    private static final String USER = "urn:ietf:params:scim:schemas:core:2.0:User";
    private static final String GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger ids = new AtomicInteger();
    private final List<String> revokedSubjects = new ArrayList<>();
    private final ScimStore store = ScimStore.memory();
    private final SessionRevocations revocations = new SessionRevocations() {
        @Override
        public Revocation revoke(RevocationTarget target, String value, String reason, Principal by) {
            assertThat(target).isEqualTo(RevocationTarget.SUB);
            assertThat(by.id()).isEqualTo("scim:scim");
            revokedSubjects.add(value);
            return new Revocation(target, value, reason, clock.instant(), by.id());
        }

        @Override
        public List<Revocation> current(Principal viewer) {
            return List.of();
        }

        @Override
        public Optional<Instant> allSessionsRevokedAt() {
            return Optional.empty();
        }
    };
    private final Map<String, String> groupRoles = Map.of("Admins", "admin", "ops", "operator");
    private final ScimDirectory directory = new ScimDirectory(store, clock, () -> "id-" + ids.incrementAndGet(), revocations,
            group -> ScimLogins.grantsRoles(groupRoles, group));

    @Test
    void create_setsIdAndMeta_andDropsAttributesNotAllowListed() {
        JsonObject user = done(directory.create(ScimResourceType.USER,
                json("{\"schemas\":[\"" + USER + "\"],\"userName\":\"bjensen\",\"password\":\"x\",\"emails\":[{\"value\":\"b@x\"}]}")));
        assertThat(user.getString("id")).isEqualTo("id-1");
        assertThat(user.containsKey("password")).isFalse();
        assertThat(user.getBoolean("active")).isTrue();
        JsonObject meta = user.getJsonObject("meta");
        assertThat(meta.getString("resourceType")).isEqualTo("User");
        assertThat(meta.getString("created")).isEqualTo("2026-03-01T10:00:00Z");
        assertThat(meta.getString("location")).isEqualTo("/scim/v2/Users/id-1");
        assertThat(meta.getString("version")).isEqualTo("W/\"1\"");
        assertThat(store.read().snapshot().users()).hasSize(1);
    }

    @Test
    void duplicateUserName_isAUniquenessConflict_caseInsensitively() {
        createUser("bjensen");
        ScimOutcome second = directory.create(ScimResourceType.USER, json("{\"schemas\":[\"" + USER + "\"],\"userName\":\"BJensen\"}"));
        assertThat(((ScimOutcome.Refused) second).error().status()).isEqualTo(409);
        assertThat(((ScimOutcome.Refused) second).error().scimType()).isEqualTo("uniqueness");
        createGroup("ops");
        ScimOutcome group = directory.create(ScimResourceType.GROUP, json("{\"schemas\":[\"" + GROUP + "\"],\"displayName\":\"OPS\"}"));
        assertThat(((ScimOutcome.Refused) group).error().status()).isEqualTo(409);
    }

    @Test
    void filters_eqOnUserNameDisplayNameExternalId_andRefuseOthers() {
        createUser("bjensen");
        createUser("alice");
        assertThat(list(ScimResourceType.USER, "userName eq \"BJENSEN\"").getInt("totalResults")).isEqualTo(1);
        assertThat(list(ScimResourceType.USER, "externalId eq \"ext-alice\"").getInt("totalResults")).isEqualTo(1);
        assertThat(list(ScimResourceType.USER, "displayName eq \"Nobody\"").getInt("totalResults")).isZero();
        for (String refused : new String[] {"userName co \"b\"", "emails eq \"x\"", "userName eq \"a\" and active eq true", "junk"}) {
            ScimOutcome outcome = directory.list(ScimResourceType.USER, Optional.of(refused), 1, 10);
            assertThat(((ScimOutcome.Refused) outcome).error().scimType()).as(refused).isEqualTo("invalidFilter");
            assertThat(((ScimOutcome.Refused) outcome).error().status()).isEqualTo(400);
        }
    }

    @Test
    void paging_followsStartIndexAndCount() {
        for (int i = 0; i < 5; i++) {
            createUser("u" + i);
        }
        JsonObject page = done(directory.list(ScimResourceType.USER, Optional.empty(), 2, 2));
        assertThat(page.getInt("totalResults")).isEqualTo(5);
        assertThat(page.getInt("itemsPerPage")).isEqualTo(2);
        assertThat(page.getInt("startIndex")).isEqualTo(2);
        assertThat(page.getJsonArray("Resources").getJsonObject(0).getString("userName")).isEqualTo("u1");
        assertThat(done(directory.list(ScimResourceType.USER, Optional.empty(), 9, 2)).getJsonArray("Resources")).isEmpty();
    }

    @Test
    void patch_replaceAddAndRemoveMembers_composeInOrder() {
        String group = createGroup("ops");
        clock.advance(Duration.ofMinutes(1));
        JsonObject after = done(directory.patch(ScimResourceType.GROUP, group, patch(
                "{\"op\":\"add\",\"path\":\"members\",\"value\":[{\"value\":\"u1\"},{\"value\":\"u2\"}]}",
                "{\"op\":\"add\",\"path\":\"members\",\"value\":[{\"value\":\"u1\"}]}",
                "{\"op\":\"remove\",\"path\":\"members[value eq \\\"u2\\\"]\"}",
                "{\"op\":\"Replace\",\"path\":\"displayName\",\"value\":\"operations\"}",
                "{\"op\":\"replace\",\"path\":\"unknownThing\",\"value\":\"x\"}")));
        assertThat(after.getJsonArray("members").toString()).isEqualTo("[{\"value\":\"u1\"}]");
        assertThat(after.getString("displayName")).isEqualTo("operations");
        assertThat(after.containsKey("unknownThing")).isFalse();
        assertThat(after.getJsonObject("meta").getString("version")).isEqualTo("W/\"2\"");
        assertThat(after.getJsonObject("meta").getString("lastModified")).isEqualTo("2026-03-01T10:01:00Z");
        JsonObject cleared = done(directory.patch(ScimResourceType.GROUP, group, patch("{\"op\":\"remove\",\"path\":\"members\"}")));
        assertThat(cleared.getJsonArray("members")).isNull();
    }

    @Test
    void patch_withoutPath_mergesAllowListedAttributes_andRefusesBadForms() {
        String user = createUser("bjensen");
        JsonObject after = done(directory.patch(ScimResourceType.USER, user, patch(
                "{\"op\":\"replace\",\"value\":{\"displayName\":\"Babs\",\"nickName\":\"b\"}}")));
        assertThat(after.getString("displayName")).isEqualTo("Babs");
        assertThat(after.containsKey("nickName")).isFalse();
        assertThat(refusal(directory.patch(ScimResourceType.USER, user, json("{\"Operations\":[]}")))).isEqualTo("invalidSyntax");
        assertThat(refusal(directory.patch(ScimResourceType.USER, user, patch("{\"op\":\"move\",\"path\":\"x\"}"))))
                .isEqualTo("invalidSyntax");
        assertThat(refusal(directory.patch(ScimResourceType.USER, user, patch("{\"op\":\"replace\",\"path\":\"emails.value\","
                + "\"value\":\"x\"}")))).isEqualTo("invalidPath");
        assertThat(refusal(directory.patch(ScimResourceType.USER, user, patch("{\"op\":\"remove\",\"path\":\"userName\"}"))))
                .isEqualTo("invalidValue");
        // a refused patch changes nothing
        assertThat(done(directory.get(ScimResourceType.USER, user)).getString("userName")).isEqualTo("bjensen");
    }

    @Test
    void patchToTakenUserName_isAConflict() {
        createUser("alice");
        String bob = createUser("bob");
        ScimOutcome outcome = directory.patch(ScimResourceType.USER, bob,
                patch("{\"op\":\"replace\",\"path\":\"userName\",\"value\":\"ALICE\"}"));
        assertThat(((ScimOutcome.Refused) outcome).error().status()).isEqualTo(409);
    }

    @Test
    void deactivatingOrDeletingAUser_revokesItsSubjectsSessions() {
        String bob = createUser("bob");
        String alice = createUser("alice");
        done(directory.patch(ScimResourceType.USER, bob, patch("{\"op\":\"replace\",\"path\":\"active\",\"value\":\"False\"}")));
        assertThat(revokedSubjects).containsExactly("bob");
        // already inactive: nothing more to cut
        done(directory.patch(ScimResourceType.USER, bob, patch("{\"op\":\"replace\",\"value\":{\"active\":false}}")));
        assertThat(revokedSubjects).containsExactly("bob");
        assertThat(directory.delete(ScimResourceType.USER, alice)).isInstanceOf(ScimOutcome.Done.class);
        assertThat(revokedSubjects).containsExactly("bob", "alice");
        assertThat(((ScimOutcome.Refused) directory.get(ScimResourceType.USER, alice)).error().status()).isEqualTo(404);
        assertThat(((ScimOutcome.Refused) directory.delete(ScimResourceType.USER, alice)).error().status()).isEqualTo(404);
    }

    @Test
    void deletingAUser_dropsItFromGroups() {
        String bob = createUser("bob");
        String group = createGroup("ops");
        done(directory.patch(ScimResourceType.GROUP, group, patch("{\"op\":\"add\",\"path\":\"members\",\"value\":[{\"value\":\"" + bob
                + "\"}]}")));
        assertThat(directory.groupsOf("BOB")).containsExactly("ops");
        directory.delete(ScimResourceType.USER, bob);
        assertThat(done(directory.get(ScimResourceType.GROUP, group)).getJsonArray("members")).isEmpty();
    }

    @Test
    void deprovisioned_namesDeactivatedAndDeletedUsers_andAPostOfTheSameNameClearsTheTombstone() {
        String bob = createUser("bob");
        String carol = createUser("carol");
        assertThat(directory.deprovisioned("bob")).isEmpty();
        assertThat(directory.deprovisioned("nobody")).isEmpty();
        done(directory.patch(ScimResourceType.USER, bob, patch("{\"op\":\"replace\",\"value\":{\"active\":false}}")));
        assertThat(directory.deprovisioned("BOB")).contains("deactivated");
        directory.delete(ScimResourceType.USER, carol);
        assertThat(directory.deprovisioned("Carol")).contains("deleted");
        // remembered in the store, so a restart does not forget it
        assertThat(store.read().snapshot().deleted()).containsExactly("carol");
        assertThat(new ScimDirectory(store, clock, () -> "x", revocations).deprovisioned("carol")).contains("deleted");
        createUser("CAROL");
        assertThat(directory.deprovisioned("carol")).isEmpty();
        assertThat(store.read().snapshot().deleted()).isEmpty();
        done(directory.patch(ScimResourceType.USER, bob, patch("{\"op\":\"replace\",\"value\":{\"active\":true}}")));
        assertThat(directory.deprovisioned("bob")).isEmpty();
    }

    @Test
    void scimLogins_refuseTheDeprovisioned_andMapGroupsToRoles_caseInsensitively() {
        String bob = createUser("bob");
        String admins = createGroup("ADMINS");
        String readers = createGroup("readers");
        for (String group : List.of(admins, readers)) {
            done(directory.patch(ScimResourceType.GROUP, group, patch("{\"op\":\"add\",\"path\":\"members\",\"value\":[{\"value\":\""
                    + bob + "\"}]}")));
        }
        ScimLogins logins = new ScimLogins(directory, groupRoles);
        assertThat(logins.groupRoles(List.of("Bob"))).containsExactly("admin");
        assertThat(logins.groupRoles(List.of("nobody"))).isEmpty();
        assertThat(logins.refusal(List.of("nobody", "bob"))).isEmpty();
        directory.delete(ScimResourceType.USER, bob);
        assertThat(logins.refusal(List.of("nobody", "bob"))).hasValueSatisfying(reason -> assertThat(reason).contains("deleted"));
    }

    @Test
    void takingAMemberOutOfAGroupThatGrantsRoles_revokesTheMembersSessions() {
        String bob = createUser("bob");
        String ann = createUser("ann");
        String admins = createGroup("admins");
        String readers = createGroup("readers");
        for (String group : List.of(admins, readers)) {
            done(directory.patch(ScimResourceType.GROUP, group, patch("{\"op\":\"add\",\"path\":\"members\",\"value\":[{\"value\":\""
                    + bob + "\"},{\"value\":\"" + ann + "\"}]}")));
        }
        assertThat(revokedSubjects).isEmpty();
        // a group that grants no role: nothing to cut
        done(directory.patch(ScimResourceType.GROUP, readers, patch("{\"op\":\"remove\",\"path\":\"members\"}")));
        assertThat(revokedSubjects).isEmpty();
        done(directory.patch(ScimResourceType.GROUP, admins, patch("{\"op\":\"remove\",\"path\":\"members[value eq \\\"" + bob
                + "\\\"]\"}")));
        assertThat(revokedSubjects).containsExactly("bob");
        directory.delete(ScimResourceType.GROUP, admins);
        assertThat(revokedSubjects).containsExactly("bob", "ann");
    }

    private String createUser(String userName) {
        return done(directory.create(ScimResourceType.USER, json("{\"schemas\":[\"" + USER + "\"],\"userName\":\"" + userName
                + "\",\"externalId\":\"ext-" + userName + "\"}"))).getString("id");
    }

    private String createGroup(String name) {
        return done(directory.create(ScimResourceType.GROUP, json("{\"schemas\":[\"" + GROUP + "\"],\"displayName\":\"" + name
                + "\"}"))).getString("id");
    }

    private JsonObject list(ScimResourceType type, String filter) {
        return done(directory.list(type, Optional.of(filter), 1, 100));
    }

    private static JsonObject patch(String... operations) {
        return json("{\"schemas\":[\"urn:ietf:params:scim:api:messages:2.0:PatchOp\"],\"Operations\":[" + String.join(",", operations)
                + "]}");
    }

    private static String refusal(ScimOutcome outcome) {
        assertThat(outcome).isInstanceOf(ScimOutcome.Refused.class);
        return ((ScimOutcome.Refused) outcome).error().scimType();
    }

    private static JsonObject done(ScimOutcome outcome) {
        assertThat(outcome).isInstanceOf(ScimOutcome.Done.class);
        return ((ScimOutcome.Done) outcome).body().orElseThrow();
    }

    private static JsonObject json(String text) {
        return Jsonp.reader(new StringReader(text)).readObject();
    }
}
