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
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Opens, finds and ends MCP sessions: ids from a cryptographic random source, bound to the
 * credential that opened them, expired after an idle period (30 minutes by default), and limited
 * in number per credential and in all, so a client that opens sessions without end (a bug or an
 * attack) cannot exhaust memory.
 */
public final class McpSessions {
    /** Sessions one credential may hold at once, by default. */
    public static final int DEFAULT_MAX_PER_CREDENTIAL = 1_000;
    /** Sessions the gateway holds at once, by default. */
    public static final int DEFAULT_MAX_TOTAL = 10_000;
    /** Capability names kept per session: a client announces a handful; a body could carry thousands. */
    static final int MAX_CAPABILITIES = 32;
    /** Longest capability name kept. */
    static final int MAX_CAPABILITY_NAME = 64;
    /** A refused open sweeps expired sessions at most this often, so a flood at the limit costs no full scan per request. */
    private static final Duration SWEEP_WHEN_FULL_EVERY = Duration.ofSeconds(1);
    /** How often an idle session's timestamp is rewritten: not on every request, to spare the store. */
    private static final Duration TOUCH_GRANULARITY = Duration.ofSeconds(5);
    /** A full sweep of idle sessions runs once per this many opened sessions. */
    private static final int SWEEP_EVERY = 256;
    /** Random bytes of a session id. */
    private static final int ID_BYTES = 32;
    /** The shape of every id {@link #open} issues: {@link #ID_BYTES} in unpadded base64url. */
    private static final int ID_LENGTH = (ID_BYTES * 4 + 2) / 3;
    private static final Pattern ISSUED_ID = Pattern.compile("[A-Za-z0-9_-]{" + ID_LENGTH + "}");

    private final McpSessionStore store;
    private final Clock clock;
    private final SecureRandom random;
    private final Duration idleTimeout;
    private final int maxPerCredential;
    private final int maxTotal;
    private final AtomicInteger opened = new AtomicInteger();
    private final AtomicReference<Instant> lastSweepWhenFull = new AtomicReference<>(Instant.MIN);

    public McpSessions(McpSessionStore store, Clock clock, SecureRandom random, Duration idleTimeout) {
        this(store, clock, random, idleTimeout, DEFAULT_MAX_PER_CREDENTIAL, DEFAULT_MAX_TOTAL);
    }

    /**
     * @param maxPerCredential sessions one credential may hold at once
     * @param maxTotal sessions the gateway holds at once
     */
    public McpSessions(
            McpSessionStore store, Clock clock, SecureRandom random, Duration idleTimeout, int maxPerCredential, int maxTotal) {
        this.store = store;
        this.clock = clock;
        this.random = random;
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("MCP session idle timeout must be positive");
        }
        if (maxPerCredential < 1 || maxTotal < 1) {
            throw new IllegalArgumentException("MCP session limits must be at least 1 (per credential " + maxPerCredential
                    + ", in all " + maxTotal + ")");
        }
        this.idleTimeout = idleTimeout;
        this.maxPerCredential = maxPerCredential;
        this.maxTotal = maxTotal;
    }

    /** What {@link #open} did. */
    public sealed interface Opening {
        /** The session is open. */
        record Opened(McpSession session) implements Opening {}

        /** A limit refused the session; {@code message} says which and what to do. */
        record LimitReached(String message) implements Opening {}
    }

    /**
     * Opens a session for {@code principal} after a successful {@code initialize}, unless the
     * credential or the gateway already holds the most sessions it may. Expired sessions are swept
     * first when a limit is reached, so only live sessions count.
     */
    public Opening open(Principal principal, ProtocolRevision revision, String clientName, Set<String> capabilities) {
        byte[] bytes = new byte[ID_BYTES];
        random.nextBytes(bytes);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Instant now = clock.instant();
        McpSession session = new McpSession(
                id, owner(principal), revision.wireName(), clientName, bounded(capabilities), LogLevel.INFO.wireName(), now);
        if (opened.incrementAndGet() % SWEEP_EVERY == 0) {
            store.removeIdleSince(now.minus(idleTimeout));
        }
        McpSessionStore.Admission admission = store.putWithinLimits(session, maxPerCredential, maxTotal);
        if (admission != McpSessionStore.Admission.STORED && sweepWhenFull(now)) {
            admission = store.putWithinLimits(session, maxPerCredential, maxTotal);
        }
        return switch (admission) {
            case STORED -> new Opening.Opened(session);
            case OWNER_FULL -> new Opening.LimitReached("Too many sessions: this credential holds " + maxPerCredential
                    + " open MCP sessions, the most it may; end sessions you no longer use with DELETE /mcp (or close their "
                    + "WebSockets), or wait until one has been idle for " + idleTimeout.toMinutes() + " minutes");
            case STORE_FULL -> new Opening.LimitReached("Too many sessions: the gateway holds " + maxTotal
                    + " open MCP sessions, the most it may; try again when idle sessions have expired (after "
                    + idleTimeout.toMinutes() + " minutes unused)");
        };
    }

    /** Sweeps expired sessions unless that was done less than a second ago; true when it swept. */
    private boolean sweepWhenFull(Instant now) {
        Instant last = lastSweepWhenFull.get();
        if (!now.isAfter(last.plus(SWEEP_WHEN_FULL_EVERY)) || !lastSweepWhenFull.compareAndSet(last, now)) {
            return false;
        }
        return store.removeIdleSince(now.minus(idleTimeout)) > 0;
    }

    private static Set<String> bounded(Set<String> capabilities) {
        return capabilities.stream()
                .filter(name -> name.length() <= MAX_CAPABILITY_NAME)
                .limit(MAX_CAPABILITIES)
                .collect(Collectors.toUnmodifiableSet());
    }

    /**
     * Finds a live session owned by {@code principal} and refreshes its idle timer. A session that
     * expired is removed; one owned by another credential is reported as absent, never revealed.
     */
    public Optional<McpSession> find(String id, Principal principal) {
        // An id this gateway cannot have issued (too long, other characters) is unknown without asking
        // the store: a client's junk never reaches a shared store, its keys or its logs.
        if (id.length() != ID_LENGTH || !ISSUED_ID.matcher(id).matches()) {
            return Optional.empty();
        }
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
        if (!session.ownerId().equals(owner(principal))) {
            return Optional.empty();
        }
        if (Duration.between(session.lastSeen(), now).compareTo(TOUCH_GRANULARITY) >= 0) {
            store.touch(id, now);
            session = session.withLastSeen(now);
        }
        return Optional.of(session);
    }

    /**
     * Whom a session belongs to: the credential, and the Products it was opened under. A session opened at
     * {@code /mcp/v/<product>} serves that endpoint only, and one opened at {@code /mcp} is unknown at a Product's
     * endpoint: presenting its id elsewhere cannot widen or swap the tools it was opened with. The per-credential
     * session limit counts each such owner on its own.
     */
    static String owner(Principal principal) {
        return principal.allowLists().products()
                .map(products -> principal.id() + " products=" + String.join(",", products))
                .orElse(principal.id());
    }

    /**
     * Whether {@code id} names a session that exists and has not expired, whoever owns it. For the
     * gateway's own bookkeeping (forgetting what an expired session left behind); it neither
     * refreshes the idle timer nor removes anything.
     */
    public boolean isLive(String id) {
        if (id.length() != ID_LENGTH || !ISSUED_ID.matcher(id).matches()) {
            return false;
        }
        return store.find(id).filter(session -> !session.lastSeen().plus(idleTimeout).isBefore(clock.instant())).isPresent();
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
        // replace, not put: a session ended while this request ran stays ended
        store.replace(session.withLogLevel(level.wireName()));
    }
}
