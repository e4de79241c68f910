package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.adapters.storage.redis.RedisScimStore;
import dev.omcp.adapters.storage.scim.JsonScimFile;
import dev.omcp.core.scim.ScimDirectory;
import dev.omcp.core.scim.ScimLogins;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SessionRevocations;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.scim.ScimOutcome;
import dev.omcp.ports.scim.ScimResourceType;
import dev.omcp.ports.scim.ScimSnapshot;
import dev.omcp.ports.scim.ScimStore;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.redis.RedisServerProcess;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * The SCIM directory in a real redis-server ({@code OMCP_SCIM_BACKEND=redis}, spec 5.6): two replicas
 * (two connections, two stores) see each other's writes, concurrent writes lose nothing, and a server
 * that stops, hangs, loses its data or holds something else is refused clearly, never read as empty.
 */
@Tag("backend")
class RedisScimStoreIT {
    private static final String USER = "urn:ietf:params:scim:schemas:core:2.0:User";
    private static final String GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
    private static final String SETTING = "OMCP_SCIM_REDIS_URL";
    private static RedisServerProcess server;
    private static RedisConnection one;
    private static RedisConnection two;

    @BeforeAll
    static void startRedis() {
        server = RedisServerProcess.start();
        one = RedisConnection.connect(server.url(), Optional.empty(), SETTING);
        two = RedisConnection.connect(server.url(), Optional.empty(), SETTING);
    }

    @AfterAll
    static void stopRedis() {
        two.close();
        one.close();
        server.close();
    }

    @BeforeEach
    void emptyServer() {
        server.flushAll();
    }

    @Test
    void aDirectoryOnRedis_createsReadsListsPatchesAndDeletes_inOneHashWithoutExpiry() {
        ScimDirectory directory = directory(new RedisScimStore(one));
        String bjensen = id(directory.create(ScimResourceType.USER, user("bjensen")));
        String other = id(directory.create(ScimResourceType.USER, user("other")));
        String ops = id(directory.create(ScimResourceType.GROUP, json("{\"schemas\":[\"" + GROUP + "\"],\"displayName\":\"ops\","
                + "\"members\":[{\"value\":\"" + bjensen + "\"}]}")));
        assertThat(body(directory.get(ScimResourceType.USER, bjensen)).getString("userName")).isEqualTo("bjensen");
        assertThat(body(directory.list(ScimResourceType.USER, Optional.of("userName eq \"OTHER\""), 1, 10)).getInt("totalResults"))
                .isEqualTo(1);
        JsonObject patched = body(directory.patch(ScimResourceType.USER, bjensen, patch("{\"op\":\"replace\",\"path\":\"displayName\","
                + "\"value\":\"Babs\"}")));
        assertThat(patched.getString("displayName")).isEqualTo("Babs");
        assertThat(directory.groupsOf("BJENSEN")).containsExactly("ops");
        assertThat(directory.delete(ScimResourceType.USER, bjensen)).isInstanceOf(ScimOutcome.Done.class);
        assertThat(directory.deprovisioned("bjensen")).contains("deleted");
        assertThat(body(directory.get(ScimResourceType.GROUP, ops)).getJsonArray("members")).isEmpty();

        try (Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            assertThat(jedis.type(RedisScimStore.KEY)).isEqualTo("hash");
            // no expiry: the directory must not vanish apart from the rest (a volatile-* eviction policy)
            assertThat(jedis.ttl(RedisScimStore.KEY)).isEqualTo(-1L);
            assertThat(jedis.hget(RedisScimStore.KEY, "revision")).as("five changes").isEqualTo("5");
            assertThat(jedis.hget(RedisScimStore.KEY, "snapshot")).contains("\"deleted\":[\"bjensen\"]")
                    .contains("\"userName\":\"other\"").doesNotContain("Babs");
        }
        // a replica started later (a new store) reads the same directory
        ScimDirectory restarted = directory(new RedisScimStore(two));
        assertThat(body(restarted.get(ScimResourceType.USER, other)).getString("userName")).isEqualTo("other");
        assertThat(restarted.deprovisioned("BJENSEN")).contains("deleted");
    }

    @Test
    void twoReplicas_seeEachOthersWrites_atTheirNextRead() {
        ScimDirectory replicaA = directory(new RedisScimStore(one));
        ScimDirectory replicaB = directory(new RedisScimStore(two));
        ScimLogins loginsOnA = new ScimLogins(replicaA, Map.of("ops", "operator"));
        // read once before, so replica A holds a revision it must notice is old
        assertThat(loginsOnA.refusal(List.of("victor"))).isEmpty();

        String victor = id(replicaA.create(ScimResourceType.USER, user("victor")));
        id(replicaB.create(ScimResourceType.GROUP, json("{\"schemas\":[\"" + GROUP + "\"],\"displayName\":\"ops\","
                + "\"members\":[{\"value\":\"" + victor + "\"}]}")));
        assertThat(loginsOnA.groupRoles(List.of("victor"))).containsExactly("operator");
        assertThat(replicaB.patch(ScimResourceType.USER, victor, patch("{\"op\":\"replace\",\"value\":{\"active\":false}}")))
                .isInstanceOf(ScimOutcome.Done.class);
        assertThat(loginsOnA.refusal(List.of("victor"))).hasValueSatisfying(reason -> assertThat(reason).contains("deactivated"));
        assertThat(body(replicaA.list(ScimResourceType.USER, Optional.empty(), 1, 10)).getJsonArray("Resources").getJsonObject(0)
                .getBoolean("active")).isFalse();
    }

    @Test
    void aReplaceOfARevisionAnotherReplicaReplacedSince_writesNothing() {
        RedisScimStore storeA = new RedisScimStore(one);
        RedisScimStore storeB = new RedisScimStore(two);
        assertThat(storeA.replace(0, snapshot("first"))).isTrue();
        ScimStore.Stored readByA = storeA.read();
        ScimStore.Stored readByB = storeB.read();
        assertThat(readByB.revision()).isEqualTo(readByA.revision()).isEqualTo(1);
        assertThat(storeB.replace(readByB.revision(), snapshot("first", "by-b"))).isTrue();
        assertThat(storeA.replace(readByA.revision(), snapshot("first", "by-a"))).as("A read revision 1, B replaced it").isFalse();
        assertThat(userNames(storeA.read())).containsExactly("first", "by-b");
        // a second replica creating the directory while another already did: it reads again instead
        server.flushAll();
        RedisScimStore fresh = new RedisScimStore(one);
        RedisScimStore late = new RedisScimStore(two);
        assertThat(late.read().revision()).isZero();
        assertThat(fresh.replace(0, snapshot("created-first"))).isTrue();
        assertThat(late.replace(0, snapshot("created-late"))).isFalse();
        assertThat(userNames(late.read())).containsExactly("created-first");
    }

    @Test
    void aWriteOfAnotherReplicaBetweenReadAndReplace_isRedoneOnIt_soBothStay() {
        ScimDirectory replicaB = directory(new RedisScimStore(two));
        RedisScimStore storeA = new RedisScimStore(one);
        // a directory both have seen: the replace compares revisions, not only whether one exists
        id(replicaB.create(ScimResourceType.USER, user("existing")));
        assertThat(storeA.read().revision()).isEqualTo(1);
        List<Boolean> replaced = Collections.synchronizedList(new ArrayList<>());
        ScimStore interleaved = new ScimStore() {
            @Override
            public Stored read() {
                return storeA.read();
            }

            @Override
            public boolean replace(long revision, ScimSnapshot next) {
                if (replaced.isEmpty()) {
                    // replica B writes after A read: A's replace must not overwrite it
                    id(replicaB.create(ScimResourceType.USER, user("written-by-b")));
                }
                boolean done = storeA.replace(revision, next);
                replaced.add(done);
                return done;
            }
        };
        assertThat(directory(interleaved).create(ScimResourceType.USER, user("written-by-a"))).isInstanceOf(ScimOutcome.Done.class);
        assertThat(replaced).containsExactly(false, true);
        assertThat(userNames(storeA.read())).containsExactly("existing", "written-by-b", "written-by-a");
    }

    @Test
    void manyConcurrentWritesThroughTwoReplicas_loseNone() throws Exception {
        ScimDirectory replicaA = directory(new RedisScimStore(one));
        ScimDirectory replicaB = directory(new RedisScimStore(two));
        int perReplica = 30;
        List<Future<Integer>> creates = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < perReplica; i++) {
                creates.add(threads.submit(createdAfterRetries(replicaA, "a-" + i)));
                creates.add(threads.submit(createdAfterRetries(replicaB, "b-" + i)));
            }
            for (Future<Integer> create : creates) {
                assertThat(create.get()).as("a create answered 201 (after 503s the provider would retry)").isEqualTo(201);
            }
        }
        List<String> names = userNames(new RedisScimStore(one).read());
        assertThat(names).hasSize(2 * perReplica).doesNotHaveDuplicates();
        assertThat(body(replicaB.list(ScimResourceType.USER, Optional.empty(), 1, 200)).getInt("totalResults")).isEqualTo(2 * perReplica);
    }

    @Test
    void aHungRedis_answers503AndRefusesLogins_andOnceBackHoldsEveryAcknowledgedWriteAndNotTheRefusedOne() {
        try (RedisServerProcess own = RedisServerProcess.start();
                RedisConnection connection = RedisConnection.connect(own.url(), Optional.empty(), SETTING)) {
            ScimDirectory directory = directory(new RedisScimStore(connection));
            String bjensen = id(directory.create(ScimResourceType.USER, user("bjensen")));
            own.freeze();
            try {
                ScimOutcome refused = directory.patch(ScimResourceType.USER, bjensen,
                        patch("{\"op\":\"replace\",\"value\":{\"active\":false}}"));
                assertThat(((ScimOutcome.Refused) refused).error().status()).isEqualTo(503);
                assertThat(((ScimOutcome.Refused) refused).error().detail()).contains("nothing was changed");
                assertThat(((ScimOutcome.Refused) directory.create(ScimResourceType.USER, user("during"))).error().status()).isEqualTo(503);
                // a login that cannot ask the directory is refused, never let through
                assertThatThrownBy(() -> directory.deprovisioned("bjensen")).isInstanceOf(SharedStateUnavailableException.class)
                        .hasMessageContaining(SETTING).hasMessageContaining("did not answer");
            } finally {
                own.thaw();
            }
            assertThat(directory.deprovisioned("bjensen")).as("the refused deactivation was not stored").isEmpty();
            assertThat(body(directory.list(ScimResourceType.USER, Optional.empty(), 1, 10)).getInt("totalResults")).isEqualTo(1);
            assertThat(directory.create(ScimResourceType.USER, user("during"))).isInstanceOf(ScimOutcome.Done.class);
        }
    }

    @Test
    void aStoppedRedis_answers503_andOnceBackWithoutItsData_isRefusedAsLostWrites_notReadAsAnEmptyDirectory() {
        RedisServerProcess own = RedisServerProcess.start();
        try (RedisConnection connection = RedisConnection.connect(own.url(), Optional.empty(), SETTING)) {
            ScimDirectory directory = directory(new RedisScimStore(connection));
            String bjensen = id(directory.create(ScimResourceType.USER, user("bjensen")));
            assertThat(directory.delete(ScimResourceType.USER, bjensen)).isInstanceOf(ScimOutcome.Done.class);
            own.close();
            ScimOutcome refused = directory.create(ScimResourceType.USER, user("other"));
            assertThat(((ScimOutcome.Refused) refused).error().status()).isEqualTo(503);
            assertThatThrownBy(() -> directory.deprovisioned("bjensen")).isInstanceOf(SharedStateUnavailableException.class);

            // the server comes back empty (no persistence): the tombstone of bjensen is gone, so this replica refuses
            own = own.restart();
            assertThatThrownBy(() -> directory.deprovisioned("bjensen")).isInstanceOf(SharedStateUnavailableException.class)
                    .hasMessageContaining("is gone").hasMessageContaining("saw revision 2").hasMessageContaining("lost writes")
                    .hasMessageContaining("restarts the gateway's replicas");
            assertThat(((ScimOutcome.Refused) directory.create(ScimResourceType.USER, user("other"))).error().status()).isEqualTo(503);
            // another replica (restarted) creates a new directory: this one still refuses it, it is another history
            directory(new RedisScimStore(connection)).create(ScimResourceType.USER, user("new"));
            assertThatThrownBy(() -> directory.deprovisioned("bjensen")).isInstanceOf(SharedStateUnavailableException.class)
                    .hasMessageContaining("is another one");
        } finally {
            own.close();
        }
    }

    @Test
    void aDirectoryThatWentBackToAnOlderRevision_isRefused() {
        RedisScimStore store = new RedisScimStore(one);
        assertThat(store.replace(0, snapshot("a"))).isTrue();
        assertThat(store.replace(1, snapshot("a", "b"))).isTrue();
        try (Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            // as a restore of an older snapshot would leave it
            jedis.hset(RedisScimStore.KEY, "revision", "1");
        }
        assertThatThrownBy(store::read).isInstanceOf(SharedStateUnavailableException.class)
                .hasMessageContaining("is back at revision 1").hasMessageContaining("saw revision 2");
    }

    @Test
    void aDirectoryLargerThanTheLimit_isNeitherWrittenNorRead() {
        RedisScimStore small = new RedisScimStore(one, 1000);
        ScimDirectory directory = directory(small);
        ScimOutcome refused = null;
        for (int i = 0; i < 50 && refused == null; i++) {
            ScimOutcome outcome = directory.create(ScimResourceType.USER, user("user-with-a-long-name-" + i));
            refused = outcome instanceof ScimOutcome.Refused r ? r : null;
        }
        assertThat(refused).isNotNull();
        assertThat(((ScimOutcome.Refused) refused).error().status()).isEqualTo(507);
        assertThat(((ScimOutcome.Refused) refused).error().detail()).contains("more than the 1000 bytes");
        long stored = small.read().revision();
        assertThat(stored).as("what was stored stays readable").isPositive();

        // a directory written without this limit (another program, a larger setting) is not read
        RedisScimStore large = new RedisScimStore(two);
        ScimStore.Stored current = large.read();
        List<JsonObject> more = new ArrayList<>(current.snapshot().users());
        for (int i = 0; i < 20; i++) {
            more.add(resource("padding-" + i));
        }
        assertThat(large.replace(current.revision(), new ScimSnapshot(more, List.of()))).isTrue();
        assertThatThrownBy(small::read).isInstanceOf(SharedStateUnavailableException.class)
                .hasMessageContaining("more than the 1000 bytes the gateway reads");
    }

    @Test
    void aKeyHoldingSomethingElse_isRefusedWithWhatToDo_neverReadAsAnEmptyDirectory() {
        try (Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            jedis.set(RedisScimStore.KEY, "another program's value");
            assertThatThrownBy(() -> new RedisScimStore(one).read()).isInstanceOf(SharedStateUnavailableException.class)
                    .hasMessageContaining("WRONGTYPE").hasMessageContaining(SETTING).hasMessageContaining("its own database");
            jedis.del(RedisScimStore.KEY);
            jedis.hset(RedisScimStore.KEY, Map.of("epoch", "e", "revision", "3", "snapshot", "{\"users\": ["));
            assertThatThrownBy(() -> new RedisScimStore(one).read()).isInstanceOf(SharedStateUnavailableException.class)
                    .hasMessageContaining("is not valid JSON").hasMessageContaining(RedisScimStore.KEY);
            jedis.hset(RedisScimStore.KEY, "snapshot", "{\"users\":[{\"userName\":\"x\"}],\"groups\":[]}");
            assertThatThrownBy(() -> new RedisScimStore(one).read()).isInstanceOf(SharedStateUnavailableException.class)
                    .hasMessageContaining("without id or meta");
            jedis.hset(RedisScimStore.KEY, "revision", "three");
            assertThatThrownBy(() -> new RedisScimStore(one).read()).isInstanceOf(SharedStateUnavailableException.class)
                    .hasMessageContaining("holds a value the gateway does not write");
            jedis.hdel(RedisScimStore.KEY, "revision");
            assertThatThrownBy(() -> new RedisScimStore(one).read()).isInstanceOf(SharedStateUnavailableException.class)
                    .hasMessageContaining("holds a value the gateway does not write");
        }
    }

    @Test
    void aFileDirectoryLoadedByHand_asDocsScimMdSaysToMoveFromTheFile_isReadAndChanged(@TempDir Path dir) throws Exception {
        JsonScimFile file = JsonScimFile.open(dir.resolve("scim.json"));
        ScimDirectory onFile = directory(file);
        String bjensen = id(onFile.create(ScimResourceType.USER, user("bjensen")));
        id(onFile.create(ScimResourceType.USER, user("carol")));
        assertThat(onFile.delete(ScimResourceType.USER, bjensen)).isInstanceOf(ScimOutcome.Done.class);
        try (Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            // redis-cli HSET omcp:scim:directory epoch moved-from-file revision 1 snapshot "$(cat scim.json)"
            jedis.hset(RedisScimStore.KEY, Map.of("epoch", "moved-from-file", "revision", "1",
                    "snapshot", Files.readString(dir.resolve("scim.json"))));
        }
        ScimDirectory onRedis = directory(new RedisScimStore(one));
        assertThat(onRedis.deprovisioned("bjensen")).as("the tombstone came along").contains("deleted");
        assertThat(onRedis.create(ScimResourceType.USER, user("dave"))).isInstanceOf(ScimOutcome.Done.class);
        assertThat(userNames(new RedisScimStore(two).read())).containsExactly("carol", "dave");
    }

    @Test
    void thePasswordOfTheUrl_neverAppearsInARefusal() {
        String password = "pw-" + UUID.randomUUID();
        RedisServerProcess own = RedisServerProcess.start(List.of("--requirepass", password), Optional.of(password));
        try {
            assertThatThrownBy(() -> RedisConnection.connect("redis://:wrong-" + password + "@127.0.0.1:" + own.port(), Optional.empty(),
                    SETTING)).isInstanceOf(IllegalStateException.class).hasMessageContaining(SETTING)
                    .hasMessageNotContaining(password);
            try (RedisConnection connection = RedisConnection.connect("redis://:" + password + "@127.0.0.1:" + own.port(),
                    Optional.empty(), SETTING)) {
                RedisScimStore store = new RedisScimStore(connection);
                assertThat(store.replace(0, snapshot("a"))).isTrue();
                own.close();
                assertThatThrownBy(store::read).isInstanceOf(SharedStateUnavailableException.class).hasMessageContaining(SETTING)
                        .hasMessageNotContaining(password);
            }
        } finally {
            own.close();
        }
    }

    /** Creates {@code userName}, sending it again after each 503 as an identity provider does. */
    private static java.util.concurrent.Callable<Integer> createdAfterRetries(ScimDirectory directory, String userName) {
        return () -> {
            for (int attempt = 0; attempt < 20; attempt++) {
                ScimOutcome outcome = directory.create(ScimResourceType.USER, user(userName));
                if (outcome instanceof ScimOutcome.Done done) {
                    return done.status();
                }
                ScimOutcome.Refused refused = (ScimOutcome.Refused) outcome;
                if (refused.error().status() != 503) {
                    return refused.error().status();
                }
            }
            return 503;
        };
    }

    private static ScimDirectory directory(ScimStore store) {
        return new ScimDirectory(store, Clock.systemUTC(), () -> UUID.randomUUID().toString(), new AcceptedRevocations());
    }

    private static ScimSnapshot snapshot(String... userNames) {
        return new ScimSnapshot(java.util.Arrays.stream(userNames).map(RedisScimStoreIT::resource).toList(), List.of());
    }

    private static JsonObject resource(String userName) {
        return Jsonp.object().add("id", "id-" + userName).add("userName", userName).add("meta", Jsonp.object().add("version", "W/\"1\""))
                .build();
    }

    private static List<String> userNames(ScimStore.Stored stored) {
        return stored.snapshot().users().stream().map(u -> u.getString("userName")).toList();
    }

    private static JsonObject user(String userName) {
        return json("{\"schemas\":[\"" + USER + "\"],\"userName\":\"" + userName + "\"}");
    }

    private static JsonObject patch(String operation) {
        return json("{\"schemas\":[\"urn:ietf:params:scim:api:messages:2.0:PatchOp\"],\"Operations\":[" + operation + "]}");
    }

    private static String id(ScimOutcome outcome) {
        assertThat(outcome).isInstanceOf(ScimOutcome.Done.class);
        return ((ScimOutcome.Done) outcome).id().orElseThrow();
    }

    private static JsonObject body(ScimOutcome outcome) {
        assertThat(outcome).isInstanceOf(ScimOutcome.Done.class);
        return ((ScimOutcome.Done) outcome).body().orElseThrow();
    }

    private static JsonObject json(String text) {
        return Jsonp.reader(new StringReader(text)).readObject();
    }

    /** Deprovisioning revokes sessions; which ones is ScimDirectoryTest's concern, so every revocation is accepted here. */
    private static final class AcceptedRevocations implements SessionRevocations {
        @Override
        public Revocation revoke(RevocationTarget target, String value, String reason, Principal by) {
            return new Revocation(target, value, reason, Instant.now(), by.id());
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
