package dev.omcp.adapters.http.mcp;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Names SSE streams so that every event id is unique within its session, as MCP 2025-11-25 asks
 * (event ids are what a client quotes in {@code Last-Event-ID}): a random part drawn once per
 * process, so replicas sharing a session store never issue the same name, and a counter, so two
 * streams of one process never do, however close together they open. An event's id is its
 * stream's name, {@code -}, and the event's number in the stream (see {@link SseWriter}).
 *
 * <p>A name starts with the kind of stream: {@code p} for the answer to a POST, {@code g} for a
 * session's standalone GET stream, so a {@code Last-Event-ID} tells which kind it came from.
 */
final class SseStreamIds {
    /** The stream a POST's answer became. */
    static final char POST = 'p';
    /** A session's standalone stream, opened by GET. */
    static final char GET = 'g';

    /** This process's ids: one random part for as long as it runs. */
    static final SseStreamIds PROCESS = new SseStreamIds(new SecureRandom());

    private final String processPart;
    private final AtomicLong streams = new AtomicLong();

    SseStreamIds(SecureRandom random) {
        byte[] bytes = new byte[8];
        random.nextBytes(bytes);
        this.processPart = HexFormat.of().formatHex(bytes);
    }

    /** The name of a new stream of {@code kind} ({@link #POST} or {@link #GET}). */
    String next(char kind) {
        return kind + processPart + "." + Long.toHexString(streams.incrementAndGet());
    }

    /** An event id read back: the name of its stream and its number in it. */
    record EventId(String stream, long number) {}

    /**
     * The stream and number of {@code lastEventId}, an id as {@link SseWriter} writes them; empty
     * for anything else (an id this server did not write, or one a client made up), a number past
     * {@link Long#MAX_VALUE} included: wrapped to a negative one it would read as "before every event",
     * and a resumption would send again every event kept.
     */
    static Optional<EventId> parse(String lastEventId) {
        int dash = lastEventId.lastIndexOf('-');
        if (dash < 1 || dash == lastEventId.length() - 1 || lastEventId.length() - dash > 20) {
            return Optional.empty();
        }
        long number = 0;
        for (int i = dash + 1; i < lastEventId.length(); i++) {
            char c = lastEventId.charAt(i);
            if (c < '0' || c > '9' || number > (Long.MAX_VALUE - (c - '0')) / 10) {
                return Optional.empty();
            }
            number = number * 10 + (c - '0');
        }
        return Optional.of(new EventId(lastEventId.substring(0, dash), number));
    }

    /** Whether {@code lastEventId} names an event of a stream that answered a POST. */
    static boolean isPostStreamEvent(String lastEventId) {
        return !lastEventId.isEmpty() && lastEventId.charAt(0) == POST;
    }
}
