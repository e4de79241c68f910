package dev.omcp.adapters.http.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warning that logins are refused because the per-address login counter is full. The table
 * fills only under a flood of source addresses, so a line per refusal would let that flood fill the
 * log as well: the first refusal is logged at once, later ones are counted and reported in one line
 * at most every {@link #INTERVAL}, each line with how many refusals it stands for.
 *
 * <p>Thread-safe: refusals arrive on many request threads; the count is atomic and one thread wins
 * the right to write each line, so no refusal is reported twice and none is lost from the counts
 * (a refusal racing a line is reported by the next line).
 *
 * <p>The password login and the OIDC callback each keep their own per-address counter, and each
 * its own warning.
 */
public final class AddressTableFullWarnings {
    private static final Logger LOG = LoggerFactory.getLogger(AddressTableFullWarnings.class);
    /** At most one line per interval while the table stays full. */
    static final Duration INTERVAL = Duration.ofMinutes(1);

    private final Clock clock;
    private final AtomicLong unreported = new AtomicLong();
    /** When the last line was written; empty before the first. */
    private final AtomicReference<Instant> lastLine = new AtomicReference<>();

    public AddressTableFullWarnings(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Counts one refused login, and logs the refusals not yet reported when a line is due. */
    public void refused(int capacity) {
        unreported.incrementAndGet();
        Instant now = clock.instant();
        Instant last = lastLine.get();
        if ((last == null || !now.isBefore(last.plus(INTERVAL))) && lastLine.compareAndSet(last, now)) {
            long refused = unreported.getAndSet(0);
            LOG.warn("event=login-address-table-full capacity={} refused={} note=\"logins from new addresses are refused (429 "
                    + "OMCP_LOGIN_ADDRESS_TABLE_FULL) because {} addresses tried within the last minute: many source addresses "
                    + "(a spray, or OMCP_TRUST_PROXY trusting a forwarded address it should not); refused counts the refusals "
                    + "since the previous such line, which comes at most once a minute\"", capacity, refused, capacity);
        }
    }
}
