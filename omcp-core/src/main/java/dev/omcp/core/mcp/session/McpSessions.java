package dev.omcp.core.mcp.session;

import dev.omcp.core.mcp.revision.ProtocolRevision;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpSession;
import dev.omcp.ports.mcp.McpSessionStore;
import dev.omcp.ports.tools.LogLevel;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens, finds and ends MCP sessions: ids from a cryptographic random source, bound to the
 * credential that opened them, expired after an idle period (30 minutes by default).
 */
public final class McpSessions {
    /** How often an idle session's timestamp is rewritten: not on every request, to spare the store. */
    private static final Duration TOUCH_GRANULARITY = Duration.ofSeconds(5);
    /** A full sweep of idle sessions runs once per this many opened sessions. */
    private static final int SWEEP_EVERY = 256;

    private final McpSessionStore store;
    private final Clock clock;
    private final SecureRandom random;
    private final Duration idleTimeout;
    private final AtomicInteger opened = new AtomicInteger();

    public McpSessions(McpSessionStore store, Clock clock, SecureRandom random, Duration idleTimeout) {
        this.store = store;
        this.clock = clock;
        this.random = random;
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("MCP session idle timeout must be positive");
        }
        this.idleTimeout = idleTimeout;
    }

    /** Opens a session for {@code principal} after a successful {@code initialize}. */
    public McpSession open(Principal principal, ProtocolRevision revision, String clientName, Set<String> capabilities) {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Instant now = clock.instant();
        McpSession session = new McpSession(
                id, principal.id(), revision.wireName(), clientName, capabilities, LogLevel.INFO.wireName(), now);
        store.put(session);
        if (opened.incrementAndGet() % SWEEP_EVERY == 0) {
            store.removeIdleSince(now.minus(idleTimeout));
        }
        return session;
    }

    /**
     * Finds a live session owned by {@code principal} and refreshes its idle timer. A session that
     * expired is removed; one owned by another credential is reported as absent, never revealed.
     */
    public Optional<McpSession> find(String id, Principal principal) {
        Optional<McpSession> found = store.find(id);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        McpSession session = found.get();
        Instant now = clock.instant();
        if (session.lastSeen().plus(idleTimeout).isBefore(now)) {
            store.remove(id);
            return Optional.empty();
        }
        if (!session.ownerId().equals(principal.id())) {
            return Optional.empty();
        }
        if (Duration.between(session.lastSeen(), now).compareTo(TOUCH_GRANULARITY) >= 0) {
            store.touch(id, now);
            session = session.withLastSeen(now);
        }
        return Optional.of(session);
    }

    /** Ends a session; only its owner may. Returns whether a session was ended. */
    public boolean end(String id, Principal principal) {
        if (find(id, principal).isEmpty()) {
            return false;
        }
        return store.remove(id);
    }

    /** Stores the log level a client asked for with {@code logging/setLevel}. */
    public void setLogLevel(McpSession session, LogLevel level) {
        store.put(session.withLogLevel(level.wireName()));
    }
}
