package dev.omcp.adapters.storage.redis;

import dev.omcp.ports.auth.SharedStateUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;
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
 */
final class ClockAgreement {
    private static final Logger LOG = LoggerFactory.getLogger(ClockAgreement.class);
    static final int RECHECK_SECONDS = 30;
    private static final long RECHECK_NANOS = Duration.ofSeconds(RECHECK_SECONDS).toNanos();

    private final Clock clock;
    private final InstantSource storeClock;
    private final String store;
    /** When reads measure again, by {@link System#nanoTime}: the injected clock may be the one that is off. */
    private final AtomicLong nextCheck = new AtomicLong();
    /** Why this replica refuses, from its last measurement; null while its clock agrees. */
    private volatile String disagreement;

    ClockAgreement(Clock clock, InstantSource storeClock, String store) {
        this.clock = clock;
        this.storeClock = storeClock;
        this.store = store;
    }

    /**
     * Measures now.
     *
     * @throws SharedStateUnavailableException when this replica's clock is too far from the store's, or the store does not answer
     */
    void check() {
        measure();
        refuseIfOff();
    }

    /**
     * Measures when the last measurement is old or found the clock off; else goes by that one.
     *
     * @throws SharedStateUnavailableException when this replica's clock is too far from the store's, or the store does not answer
     */
    void checkIfDue() {
        long now = System.nanoTime();
        long next = nextCheck.get();
        if (disagreement != null || (now - next >= 0 && nextCheck.compareAndSet(next, now + RECHECK_NANOS))) {
            measure();
        }
        refuseIfOff();
    }

    private void measure() {
        long before = clock.millis();
        long storeMillis = storeClock.millis();
        long after = clock.millis();
        // the store read its clock somewhere between before and after: off only if every instant of that span is, so a slow
        // round trip never makes an agreeing clock look off; the midpoint is what is reported
        long earliest = before - storeMillis;
        long latest = after - storeMillis;
        long offset = earliest + (latest - earliest) / 2;
        long limit = RedisRevocationStore.MAX_CLOCK_OFFSET.toMillis();
        nextCheck.set(System.nanoTime() + RECHECK_NANOS);
        if (earliest <= limit && latest >= -limit) {
            if (disagreement != null) {
                LOG.info("event=clock-agrees-with-shared-store store={} offsetMillis={} limitMillis={} effect=\"sessions, logins and"
                        + " revocations are served again on this replica\"", store, offset, limit);
            }
            disagreement = null;
            return;
        }
        boolean wasAgreeing = disagreement == null;
        disagreement = "this gateway's clock is " + span(Math.abs(offset)) + (offset > 0 ? " ahead of" : " behind")
                + " the clock of the shared store " + store + " (OMCP_REDIS_URL), more than the " + span(limit) + " a replica may be:"
                + " replicas judge by their own clocks when sessions expire and when revoked ones leave the shared blocklist, so a"
                + " revoked session could be accepted again; synchronize the clocks of this host and of the Redis server (NTP), then retry";
        if (!wasAgreeing) {
            return; // logged when it began: a refusing replica measures on every request and must not flood the log
        }
        LOG.error("event=clock-skew-with-shared-store store={} offsetMillis={} limitMillis={} effect=\"sessions, logins and revocations are "
                + "refused on this replica\" fix=\"synchronize the clocks of this host and of the Redis server (NTP)\"",
                store, offset, limit);
    }

    private void refuseIfOff() {
        String reason = disagreement;
        if (reason != null) {
            throw new SharedStateUnavailableException(reason);
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
