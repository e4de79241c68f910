package dev.omcp.adapters.http.mcp;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The WebSocket keep-alive bookkeeping: when each open connection was last heard from, when it is
 * next due a ping, and which ones have been silent past the deadline. Pure: it reads time from a
 * {@link Clock} and sends nothing; {@link WebSocketTransport} acts on what {@link #due()} returns.
 *
 * <p>Thread-safe: Jetty threads report connections opened, heard and closed while the keep-alive
 * scheduler calls {@link #due()}. Each connection's entry is an immutable value replaced
 * atomically, so a connection that is heard from during a sweep is either closed by that sweep or
 * kept with its fresh time, never both.
 *
 * @param <C> the connection handle (a Jetty session in production)
 */
final class KeepAliveLedger<C> {
    private final Clock clock;
    private final Duration pingInterval;
    private final Duration silenceLimit;
    private final ConcurrentHashMap<C, Peer> peers = new ConcurrentHashMap<>();

    /** What the keep-alive owes one connection now. */
    sealed interface Action<C> {
        C connection();

        /** Send a ping: the connection is due one and still within its deadline. */
        record Ping<C>(C connection) implements Action<C> {}

        /** Close with 1001: nothing arrived for {@code silentFor}, which reached the limit. */
        record Close<C>(C connection, Duration silentFor) implements Action<C> {}
    }

    private record Peer(Instant lastHeard, Instant nextPing) {
        Peer heardAt(Instant now) {
            // A clock moved backwards must not push the deadline into the past.
            return now.isAfter(lastHeard) ? new Peer(now, nextPing) : this;
        }
    }

    /**
     * @param clock the gateway's clock
     * @param pingInterval how often each connection is pinged
     * @param silenceLimit how long a connection may stay silent before it is closed; longer than the
     *     ping interval, so every peer is pinged at least once before its deadline
     */
    KeepAliveLedger(Clock clock, Duration pingInterval, Duration silenceLimit) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.pingInterval = Objects.requireNonNull(pingInterval, "pingInterval");
        this.silenceLimit = Objects.requireNonNull(silenceLimit, "silenceLimit");
        if (pingInterval.isNegative() || pingInterval.isZero()) {
            throw new IllegalArgumentException("the WebSocket ping interval must be positive, got " + pingInterval);
        }
        if (silenceLimit.compareTo(pingInterval) <= 0) {
            throw new IllegalArgumentException("the WebSocket pong timeout (" + silenceLimit
                    + ") must be longer than the ping interval (" + pingInterval + ")");
        }
    }

    /** Starts watching a connection: it counts as heard now and is first pinged one interval later. */
    void opened(C connection) {
        Instant now = clock.instant();
        peers.put(connection, new Peer(now, now.plus(pingInterval)));
    }

    /** Records that something arrived on a connection; unknown (refused or closed) connections are ignored. */
    void heard(C connection) {
        Instant now = clock.instant();
        peers.computeIfPresent(connection, (key, peer) -> peer.heardAt(now));
    }

    /** Stops watching a connection. */
    void closed(C connection) {
        peers.remove(connection);
    }

    /** Stops watching every connection (shutdown). */
    void clear() {
        peers.clear();
    }

    /** How many connections are watched. */
    int size() {
        return peers.size();
    }

    /**
     * What is owed now: a ping for each connection whose ping is due, a close for each connection
     * silent for the limit or longer. A connection to be closed is no longer watched, so it is
     * closed once even when its socket takes a while to go away.
     */
    List<Action<C>> due() {
        Instant now = clock.instant();
        List<Action<C>> actions = new ArrayList<>();
        for (C connection : peers.keySet()) {
            peers.computeIfPresent(connection, (key, peer) -> {
                Duration silent = Duration.between(peer.lastHeard(), now);
                if (silent.compareTo(silenceLimit) >= 0) {
                    actions.add(new Action.Close<>(key, silent));
                    return null;
                }
                if (!now.isBefore(peer.nextPing())) {
                    actions.add(new Action.Ping<>(key));
                    // From now, not from the missed slot: a stalled scheduler does not fire a burst of pings.
                    return new Peer(peer.lastHeard(), now.plus(pingInterval));
                }
                return peer;
            });
        }
        return actions;
    }
}
