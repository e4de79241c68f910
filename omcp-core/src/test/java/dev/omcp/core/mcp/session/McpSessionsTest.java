package dev.omcp.core.mcp.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.mcp.revision.ProtocolRevision;
import dev.omcp.testkit.time.ManualClock;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpSession;
import dev.omcp.ports.tools.LogLevel;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class McpSessionsTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-22T10:00:00Z"));
    private final InMemoryMcpSessionStore store = new InMemoryMcpSessionStore();
    private final McpSessions sessions = new McpSessions(store, clock, new SecureRandom(), Duration.ofMinutes(30));
    private final Principal alice = Principal.apiKey("alice", "");

    private static McpSession opened(McpSessions.Opening opening) {
        assertThat(opening).isInstanceOf(McpSessions.Opening.Opened.class);
        return ((McpSessions.Opening.Opened) opening).session();
    }

    private McpSession open(McpSessions in, Principal principal) {
        return opened(in.open(principal, ProtocolRevision.LATEST, "c", Set.of()));
    }

    @Test
    void sessionIds_carry256RandomBitsAndAreVisibleAscii() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            McpSession session = open(sessions, alice);
            assertThat(session.id()).matches("[A-Za-z0-9_-]{43}");
            ids.add(session.id());
        }
        assertThat(ids).hasSize(1000);
    }

    @Test
    void sessionUnusedFor30Minutes_expires() {
        McpSession session = open(sessions, alice);
        clock.advance(Duration.ofMinutes(29));
        assertThat(sessions.find(session.id(), alice)).isPresent();
        clock.advance(Duration.ofMinutes(29));
        assertThat(sessions.find(session.id(), alice)).as("use refreshes the idle timer").isPresent();
        clock.advance(Duration.ofMinutes(30).plusSeconds(1));
        assertThat(sessions.find(session.id(), alice)).isEmpty();
        assertThat(store.find(session.id())).as("an expired session is removed").isEmpty();
    }

    @Test
    void isLive_tellsWhetherASessionExists_withoutRefreshingOrRemovingIt() {
        McpSession session = open(sessions, alice);
        assertThat(sessions.isLive(session.id())).isTrue();
        assertThat(sessions.isLive("x".repeat(43))).isFalse();
        assertThat(sessions.isLive("not an id")).isFalse();
        clock.advance(Duration.ofMinutes(20));
        assertThat(sessions.isLive(session.id())).isTrue();
        clock.advance(Duration.ofMinutes(11));
        assertThat(sessions.isLive(session.id())).as("asking did not refresh its idle timer").isFalse();
        McpSession ended = open(sessions, alice);
        sessions.end(ended.id(), alice);
        assertThat(sessions.isLive(ended.id())).isFalse();
    }

    @Test
    void session_isBoundToTheCredentialThatOpenedIt() {
        McpSession session = open(sessions, alice);
        assertThat(sessions.find(session.id(), Principal.apiKey("mallory", ""))).isEmpty();
        assertThat(sessions.end(session.id(), Principal.apiKey("mallory", ""))).isFalse();
        assertThat(sessions.find(session.id(), alice)).isPresent();
    }

    @Test
    void endedSession_isGone() {
        McpSession session = open(sessions, alice);
        assertThat(sessions.end(session.id(), alice)).isTrue();
        assertThat(sessions.find(session.id(), alice)).isEmpty();
        assertThat(sessions.end(session.id(), alice)).isFalse();
    }

    @Test
    void aCredentialAtItsLimit_isRefusedAnotherSession_whileOtherCredentialsAreNot() {
        McpSessions limited = new McpSessions(store, clock, new SecureRandom(), Duration.ofMinutes(30), 3, 100);
        for (int i = 0; i < 3; i++) {
            open(limited, alice);
        }
        McpSessions.Opening refused = limited.open(alice, ProtocolRevision.LATEST, "c", Set.of());
        assertThat(refused).isInstanceOfSatisfying(McpSessions.Opening.LimitReached.class, limit -> assertThat(limit.message())
                .contains("this credential holds 3 open MCP sessions").contains("DELETE /mcp"));
        assertThat(store.size()).as("nothing stored for the refused open").isEqualTo(3);
        open(limited, Principal.apiKey("bob", ""));
    }

    @Test
    void theGatewayAtItsLimit_refusesEveryCredential() {
        McpSessions limited = new McpSessions(store, clock, new SecureRandom(), Duration.ofMinutes(30), 100, 2);
        open(limited, alice);
        open(limited, Principal.apiKey("bob", ""));
        assertThat(limited.open(Principal.apiKey("carol", ""), ProtocolRevision.LATEST, "c", Set.of()))
                .isInstanceOfSatisfying(McpSessions.Opening.LimitReached.class,
                        limit -> assertThat(limit.message()).contains("the gateway holds 2 open MCP sessions"));
    }

    @Test
    void anEndedSession_freesItsPlace() {
        McpSessions limited = new McpSessions(store, clock, new SecureRandom(), Duration.ofMinutes(30), 1, 100);
        McpSession first = open(limited, alice);
        assertThat(limited.open(alice, ProtocolRevision.LATEST, "c", Set.of())).isInstanceOf(McpSessions.Opening.LimitReached.class);
        assertThat(limited.end(first.id(), alice)).isTrue();
        open(limited, alice);
    }

    @Test
    void expiredSessions_doNotCountAgainstTheLimit() {
        McpSessions limited = new McpSessions(store, clock, new SecureRandom(), Duration.ofMinutes(30), 2, 100);
        open(limited, alice);
        open(limited, alice);
        clock.advance(Duration.ofMinutes(31));
        open(limited, alice);
        assertThat(store.size()).as("the expired two were swept").isEqualTo(1);
    }

    @Test
    void concurrentOpens_neverOvershootTheLimit() throws Exception {
        // Many initialize requests at once: the count and the write must be one step, or several
        // threads each see room for one more and all store.
        int limit = 5;
        int threads = 64;
        McpSessions limited = new McpSessions(store, clock, new SecureRandom(), Duration.ofMinutes(30), limit, 1_000);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<McpSessions.Opening>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return limited.open(alice, ProtocolRevision.LATEST, "c", Set.of());
                }));
            }
            start.countDown();
            int openedCount = 0;
            for (Future<McpSessions.Opening> result : results) {
                if (result.get() instanceof McpSessions.Opening.Opened) {
                    openedCount++;
                }
            }
            assertThat(openedCount).isEqualTo(limit);
        }
        assertThat(store.size()).isEqualTo(limit);
    }

    @Test
    void aLogLevelSetWhileTheSessionEnded_doesNotBringItBack() {
        McpSession session = open(sessions, alice);
        McpSession seenByTheRequest = sessions.find(session.id(), alice).orElseThrow();
        assertThat(sessions.end(session.id(), alice)).isTrue();
        sessions.setLogLevel(seenByTheRequest, LogLevel.DEBUG);
        assertThat(store.find(session.id())).isEmpty();
    }

    @Test
    void announcedCapabilities_areKeptUpToABound_inTheOrderSent() {
        Set<String> announced = new LinkedHashSet<>(List.of("sampling", "x".repeat(65)));
        for (int i = 0; i < 1_000; i++) {
            announced.add("c" + i);
        }
        McpSession session = opened(sessions.open(alice, ProtocolRevision.LATEST, "c", announced));
        assertThat(session.clientCapabilities()).hasSize(McpSessions.MAX_CAPABILITIES).contains("sampling")
                .doesNotContain("x".repeat(65));
    }

    @Test
    void limitsBelowOne_areRefusedAtConstruction() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> new McpSessions(store, clock, new SecureRandom(), Duration.ofMinutes(30), 0, 10))
                .withMessageContaining("at least 1");
    }

    @Test
    void idsTheGatewayCannotHaveIssued_areUnknownWithoutAskingTheStore() {
        // docs/mcp.md "Sessions": junk in Mcp-Session-Id never reaches the (possibly shared) store
        LookupCountingStore counting = new LookupCountingStore(store);
        McpSessions guarded = new McpSessions(counting, clock, new SecureRandom(), Duration.ofMinutes(30));
        McpSession session = open(guarded, alice);
        String id = session.id();
        for (String junk : List.of("", "not-a-session", "s".repeat(8_000), id + "A", id.substring(1), id.substring(1) + ".",
                id.substring(1) + "=", id.substring(1) + "\u00e9", " " + id.substring(1))) {
            assertThat(guarded.find(junk, alice)).as(junk).isEmpty();
            assertThat(guarded.end(junk, alice)).as(junk).isFalse();
        }
        assertThat(counting.lookups).as("no lookup, no removal").isZero();

        // an id of the issued shape is looked up: the store alone knows whether it is a session
        String unknown = (id.charAt(0) == 'A' ? "B" : "A") + id.substring(1);
        assertThat(guarded.find(unknown, alice)).isEmpty();
        assertThat(counting.lookups).isEqualTo(1);
        assertThat(guarded.find(id, alice)).as("the session itself lives on").isPresent();
    }

    /** The memory store, counting the calls that look a session up by an id a client sent. */
    private static final class LookupCountingStore implements dev.omcp.ports.mcp.McpSessionStore {
        private final dev.omcp.ports.mcp.McpSessionStore delegate;
        int lookups;

        LookupCountingStore(dev.omcp.ports.mcp.McpSessionStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public Admission putWithinLimits(McpSession session, int maxPerOwner, int maxTotal) {
            return delegate.putWithinLimits(session, maxPerOwner, maxTotal);
        }

        @Override
        public boolean replace(McpSession session) {
            return delegate.replace(session);
        }

        @Override
        public java.util.Optional<McpSession> find(String id) {
            lookups++;
            return delegate.find(id);
        }

        @Override
        public void touch(String id, Instant when) {
            lookups++;
            delegate.touch(id, when);
        }

        @Override
        public boolean remove(String id) {
            lookups++;
            return delegate.remove(id);
        }

        @Override
        public int removeIdleSince(Instant cutoff) {
            return delegate.removeIdleSince(cutoff);
        }
    }
}
