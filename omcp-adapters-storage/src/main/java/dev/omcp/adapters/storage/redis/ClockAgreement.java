package dev.omcp.adapters.storage.redis;

import dev.omcp.ports.auth.SharedStateUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this replica's clock agrees with the shared store's. Every replica judges by its own
 * clock when a session expires and which blocklist entries are old enough to delete, and stamps its
 * revocations with it; clocks too far apart delete entries another replica still needs, and its
 * revoked sessions are accepted again, with nothing to notice it. The store's clock is the one
 * every replica can read: a replica within {@link RedisRevocationStore#MAX_CLOCK_OFFSET} of it is
 * within twice that of any other, which the deletion margin covers. One further off refuses: at the
 * start, before it writes anything, before each entry it adds (adding deletes the old ones), and on
 * reads once the last measurement is {@value #RECHECK_SECONDS} s old, or at once after one found it off.
 *
 * <p>Between measurements, reads also compare how far this replica's clock moved with how far its
 * monotonic clock did: a step of the clock (NTP, an operator) is measured at the next read, not up to
 * {@value #RECHECK_SECONDS} s later, during which a clock stepped back minutes would accept sessions whose
 * entries are gone. The Redis server's clock can only be seen by measuring; a step there makes replicas
 * stricter, never laxer, until the next measurement.
 *
 * <p>A skew ends only once a measurement finds the clock {@link #RECOVERY_MARGIN_MILLIS} within the limit: a clock sitting
 * at the limit is found on either side of it as the round trip varies, and each crossing would end and begin the skew
 * again, logging a pair of lines and serving and refusing by turns. The margin only ever refuses more, never less.
 */
final class ClockAgreement {
    private static final Logger LOG = LoggerFactory.getLogger(ClockAgreement.class);
    static final int RECHECK_SECONDS = 30;
    private static final long RECHECK_NANOS = Duration.ofSeconds(RECHECK_SECONDS).toNanos();
    /**
     * How far this replica's clock may move apart from its monotonic clock between measurements before
     * a read measures again: slewing (NTP corrects a small offset by at most 0.5 ms a second) moves it
     * some 15 ms in {@value #RECHECK_SECONDS} s; a step moves it by whole seconds or more.
     */
    static final long STEP_TOLERANCE_MILLIS = 1000;
    /**
     * How far within {@link RedisRevocationStore#MAX_CLOCK_OFFSET} a clock found off must come back before it is served
     * again. What varies between two measurements of a steady clock is how long the question took to reach the store:
     * milliseconds on a working network, and a measurement accounts for the whole round trip anyway. A clock slewed by NTP
     * (at most 0.5 ms a second) takes over half an hour to cross a second, and anything faster is a step, a real change
     * worth a line. A larger margin would only keep a replica that was off refused longer, with nothing gained.
     */
    static final long RECOVERY_MARGIN_MILLIS = 1000;
    /**
     * How far apart two clocks are taken to be at most (some 73 million years): a store answering a time
     * that far off is off all the same, and the arithmetic on the difference can then never wrap round.
     */
    private static final long FAR_MILLIS = Long.MAX_VALUE / 4;

    private final Clock clock;
    private final InstantSource storeClock;
    private final String store;
    /** The monotonic clock ({@link System#nanoTime}): the injected clock may be the one that is off. */
    private final LongSupplier nanos;
    /** The newest measurement, by when it started; null before the first. */
    private final AtomicReference<Measurement> last = new AtomicReference<>();

    /** What one measurement showed of this replica's clock. */
    private enum Finding { AGREES, OFF, INCONCLUSIVE }

    /**
     * What one question to the store read, before it is judged against the skew in force.
     *
     * @param startedNanos when it asked the store, by the monotonic clock
     * @param wallMillis this replica's clock when the answer came
     * @param answeredNanos the monotonic clock then
     * @param roundTripMillis how long the answer took, by the monotonic clock
     * @param latestMillis how far ahead of the store's this clock is at most ({@code wall - store})
     */
    private record Reading(long startedNanos, long wallMillis, long answeredNanos, long roundTripMillis, long latestMillis) {
        /** How far ahead this clock is at least: the store read its clock somewhere in the round trip. */
        long earliestMillis() {
            return latestMillis - roundTripMillis;
        }

        /** What is reported: the midpoint. */
        long offsetMillis() {
            return earliestMillis() + roundTripMillis / 2;
        }

        boolean newerThan(Measurement other) {
            return other == null || startedNanos - other.startedNanos() > 0;
        }

        /** Whether this clock may be within {@code allowedMillis} of the store's, either way. */
        boolean within(long allowedMillis) {
            return earliestMillis() <= allowedMillis && latestMillis >= -allowedMillis;
        }
    }

    /**
     * One comparison with the store's clock.
     *
     * @param startedNanos when it asked the store, by the monotonic clock: of two measurements, the later asked is in force
     * @param wallMillis this replica's clock when the answer came
     * @param answeredNanos the monotonic clock then
     * @param disagreement why this replica refuses; null when its clock agreed
     * @param skewed whether the last conclusive measurement up to this one found the clock off: a skew is logged as it
     *     begins and as it ends, and an inconclusive measurement shows neither
     */
    private record Measurement(long startedNanos, long wallMillis, long answeredNanos, Finding finding, String disagreement,
            boolean skewed) {
        /** Whether a read must measure again rather than go by this. */
        boolean due(long nowNanos, long nowWallMillis) {
            long elapsedNanos = nowNanos - answeredNanos;
            long stepMillis = (nowWallMillis - wallMillis) - elapsedNanos / 1_000_000;
            return disagreement != null || elapsedNanos >= RECHECK_NANOS || Math.abs(stepMillis) > STEP_TOLERANCE_MILLIS;
        }
    }

    ClockAgreement(Clock clock, InstantSource storeClock, String store) {
        this(clock, storeClock, store, System::nanoTime);
    }

    /** As the other constructor, with the monotonic clock a test moves by hand. */
    ClockAgreement(Clock clock, InstantSource storeClock, String store, LongSupplier nanos) {
        this.clock = clock;
        this.storeClock = storeClock;
        this.store = store;
        this.nanos = nanos;
    }

    /**
     * Measures now, and goes by this measurement (not by one another thread finished meanwhile).
     *
     * @throws SharedStateUnavailableException when this replica's clock is too far from the store's, or the store does not answer
     */
    void check() {
        refuseIfOff(measure());
    }

    /**
     * Measures when the last measurement is old, found the clock off, or this replica's clock stepped
     * since; else goes by that one.
     *
     * @throws SharedStateUnavailableException when this replica's clock is too far from the store's, or the store does not answer
     */
    void checkIfDue() {
        Measurement current = last.get();
        if (current == null || current.due(nanos.getAsLong(), clock.millis())) {
            current = measure();
        }
        refuseIfOff(current);
    }

    private Measurement measure() {
        long started = nanos.getAsLong();
        long storeMillis = storeClock.millis();
        long answered = nanos.getAsLong();
        long wall = clock.millis();
        // the store read its clock during the round trip, when this clock showed between wall - roundTrip and wall; the round
        // trip is timed by the monotonic clock, so a slow answer never makes an agreeing clock look off, and a step of this
        // clock while the answer was on its way is not taken for a slow answer
        Reading reading = new Reading(started, wall, answered, (answered - started) / 1_000_000, distance(wall, storeMillis));
        // an older measurement that ends last (a slow answer, or a thread that was descheduled) must not replace a newer one;
        // a reading is judged against the skew in force where it takes over, so that the margin holds however threads interleave
        Measurement before = last.getAndUpdate(current -> reading.newerThan(current) ? judged(reading, current) : current);
        Measurement measured = judged(reading, before);
        if (reading.newerThan(before)) {
            long limit = RedisRevocationStore.MAX_CLOCK_OFFSET.toMillis();
            if (measured.finding() == Finding.INCONCLUSIVE) {
                // nothing is known of the clock; one line per slow answer, which is rare and worth seeing
                LOG.warn("event=clock-check-inconclusive store={} roundTripMillis={} limitMillis={} effect=\"this request is refused;"
                        + " the next one measures again\" fix=\"if it recurs, check the Redis server's latency (redis-cli --latency,"
                        + " SLOWLOG) and this host's pauses (garbage collection, CPU steal)\"", store, reading.roundTripMillis(), limit);
            }
            logChange(before, measured, reading.offsetMillis(), limit);
        }
        return measured;
    }

    /**
     * What {@code reading} shows, taking over from {@code before}: while a skew is in force the clock must come
     * {@link #RECOVERY_MARGIN_MILLIS} within the limit to end it, and a reading that proves nothing leaves a skew (or its
     * absence) as it was.
     */
    private Measurement judged(Reading reading, Measurement before) {
        boolean wasSkewed = before != null && before.skewed();
        long limit = RedisRevocationStore.MAX_CLOCK_OFFSET.toMillis();
        long allowed = wasSkewed ? limit - RECOVERY_MARGIN_MILLIS : limit;
        // the span the store's reading may stand anywhere in is the round trip: once that is longer than the limit, a clock
        // up to twice the limit off would pass, and four such clocks outrun the deletion margin; so it proves nothing
        Finding finding = reading.roundTripMillis() > limit ? Finding.INCONCLUSIVE
                : reading.within(allowed) ? Finding.AGREES : Finding.OFF;
        String refusal = switch (finding) {
            case AGREES -> null;
            case OFF -> reading.within(limit) ? stillSkewed(reading.offsetMillis(), allowed) : disagreement(reading.offsetMillis(), limit);
            case INCONCLUSIVE -> inconclusive(reading.roundTripMillis());
        };
        boolean skewed = finding == Finding.INCONCLUSIVE ? wasSkewed : finding == Finding.OFF;
        return new Measurement(reading.startedNanos(), reading.wallMillis(), reading.answeredNanos(), finding, refusal, skewed);
    }

    /**
     * {@code wall - store}, held within {@link #FAR_MILLIS}: a store answering a time near the ends of a long (a broken or
     * hostile server) would otherwise wrap round, showing a clock far ahead as far behind.
     */
    private static long distance(long wall, long store) {
        long difference = wall - store;
        boolean wrapped = ((wall ^ store) & (wall ^ difference)) < 0;
        return wrapped ? (wall < store ? -FAR_MILLIS : FAR_MILLIS) : Math.clamp(difference, -FAR_MILLIS, FAR_MILLIS);
    }

    private String inconclusive(long roundTripMillis) {
        return "this gateway could not compare its clock with the clock of the shared store " + store + " (OMCP_REDIS_URL): its"
                + " answer to TIME took " + span(roundTripMillis) + ", longer than the " + span(RedisRevocationStore.MAX_CLOCK_OFFSET
                .toMillis()) + " a replica's clock may be off, so it proves nothing; the next request measures again (check the"
                + " Redis server's load and this host's pauses if it recurs)";
    }

    private String disagreement(long offset, long limit) {
        return "this gateway's clock is " + span(Math.abs(offset)) + (offset > 0 ? " ahead of" : " behind")
                + " the clock of the shared store " + store + " (OMCP_REDIS_URL), more than the " + span(limit) + " a replica may be:"
                + " replicas judge by their own clocks when sessions expire and when revoked ones leave the shared blocklist, so a"
                + " revoked session could be accepted again; synchronize the clocks of this host and of the Redis server (NTP), then retry";
    }

    /** A clock back within the limit, but not yet within the margin that ends its skew. */
    private String stillSkewed(long offset, long allowed) {
        return "this gateway's clock is " + span(Math.abs(offset)) + (offset > 0 ? " ahead of" : " behind")
                + " the clock of the shared store " + store + " (OMCP_REDIS_URL): it was further off than a replica may be, and is"
                + " served again once it is within " + span(allowed) + " (a margin, so that a clock at the limit does not come and"
                + " go); synchronize the clocks of this host and of the Redis server (NTP), then retry";
    }

    /**
     * Logged when the skew begins and when it ends, by the measurements in force one after the other: a refusing replica
     * measures on every request and must not flood the log.
     */
    private void logChange(Measurement before, Measurement now, long offset, long limit) {
        boolean wasSkewed = before != null && before.skewed();
        if (!now.skewed() && wasSkewed) {
            LOG.info("event=clock-agrees-with-shared-store store={} offsetMillis={} limitMillis={} effect=\"sessions, logins and"
                    + " revocations are served again on this replica\"", store, offset, limit);
        } else if (now.skewed() && !wasSkewed) {
            LOG.error("event=clock-skew-with-shared-store store={} offsetMillis={} limitMillis={} effect=\"sessions, logins and revocations"
                    + " are refused on this replica\" fix=\"synchronize the clocks of this host and of the Redis server (NTP)\"",
                    store, offset, limit);
        }
    }

    private static void refuseIfOff(Measurement measurement) {
        if (measurement.disagreement() != null) {
            throw new SharedStateUnavailableException(measurement.disagreement());
        }
    }

    /** {@code 1 h 2 min 3 s}, leaving out the parts that are zero (but not {@code 0 s} alone). */
    static String span(long millis) {
        long seconds = millis / 1000;
        StringBuilder text = new StringBuilder();
        if (seconds >= 3600) {
            text.append(seconds / 3600).append(" h ");
        }
        if (seconds % 3600 >= 60) {
            text.append(seconds % 3600 / 60).append(" min ");
        }
        if (seconds < 60 || seconds % 60 != 0) {
            text.append(seconds % 60).append(" s ");
        }
        return text.toString().strip();
    }
}
