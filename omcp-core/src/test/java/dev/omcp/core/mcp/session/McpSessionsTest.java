package dev.omcp.core.mcp.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.mcp.revision.ProtocolRevision;
import dev.omcp.testkit.time.ManualClock;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpSession;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class McpSessionsTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-22T10:00:00Z"));
    private final InMemoryMcpSessionStore store = new InMemoryMcpSessionStore();
    private final McpSessions sessions = new McpSessions(store, clock, new SecureRandom(), Duration.ofMinutes(30));
    private final Principal alice = Principal.apiKey("alice", "");

    @Test
    void sessionIds_carry256RandomBitsAndAreVisibleAscii() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            McpSession session = sessions.open(alice, ProtocolRevision.LATEST, "c", Set.of());
            assertThat(session.id()).matches("[A-Za-z0-9_-]{43}");
            ids.add(session.id());
        }
        assertThat(ids).hasSize(1000);
    }

    @Test
    void sessionUnusedFor30Minutes_expires() {
        McpSession session = sessions.open(alice, ProtocolRevision.LATEST, "c", Set.of());
        clock.advance(Duration.ofMinutes(29));
        assertThat(sessions.find(session.id(), alice)).isPresent();
        clock.advance(Duration.ofMinutes(29));
        assertThat(sessions.find(session.id(), alice)).as("use refreshes the idle timer").isPresent();
        clock.advance(Duration.ofMinutes(30).plusSeconds(1));
        assertThat(sessions.find(session.id(), alice)).isEmpty();
        assertThat(store.find(session.id())).as("an expired session is removed").isEmpty();
    }

    @Test
    void session_isBoundToTheCredentialThatOpenedIt() {
        McpSession session = sessions.open(alice, ProtocolRevision.LATEST, "c", Set.of());
        assertThat(sessions.find(session.id(), Principal.apiKey("mallory", ""))).isEmpty();
        assertThat(sessions.end(session.id(), Principal.apiKey("mallory", ""))).isFalse();
        assertThat(sessions.find(session.id(), alice)).isPresent();
    }

    @Test
    void endedSession_isGone() {
        McpSession session = sessions.open(alice, ProtocolRevision.LATEST, "c", Set.of());
        assertThat(sessions.end(session.id(), alice)).isTrue();
        assertThat(sessions.find(session.id(), alice)).isEmpty();
        assertThat(sessions.end(session.id(), alice)).isFalse();
    }
}
