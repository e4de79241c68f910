package dev.omcp.core.quota;

import dev.omcp.ports.budget.TokenBucket;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One credential's tokens of the rolling window, as one bucket per minute (at most 1,441: the 1,440
 * minutes of a day and the current one), so its memory is bounded whatever it is charged and the
 * time until enough tokens leave can be told. A bucket leaves the window a full window after its
 * minute ends: a token is counted for at least 24 h, never less.
 *
 * <p>Thread-safe: every method holds the window's lock, so a check and the charge it allows are one
 * step; no I/O is done under it. A window the ledger dropped for being empty is retired: it refuses
 * to act ({@link Optional#empty()}), and the caller takes the ledger's new window instead, so no
 * charge is ever recorded where nobody reads it.
 */
final class CredentialWindow {
    private static final class Bucket {
        final long start;
        long tokens;

        Bucket(long start, long tokens) {
            this.start = start;
            this.tokens = tokens;
        }
    }

    private final long windowMs;
    private final long bucketMs;
    private final ArrayDeque<Bucket> buckets = new ArrayDeque<>();
    private long used;
    private boolean retired;

    CredentialWindow(long windowMs, long bucketMs) {
        this.windowMs = windowMs;
        this.bucketMs = bucketMs;
    }

    /**
     * Adds restored tokens, in order of their start; a start is moved to the next minute boundary
     * (never earlier, so restored tokens are counted no shorter) and at most to the current minute.
     */
    synchronized void restore(long now, long start, long tokens) {
        long aligned = Math.min(ceilToBucket(start), floorToBucket(now));
        if (aligned + bucketMs + windowMs <= now) {
            return;
        }
        add(aligned, tokens);
    }

    /** Tokens of the window at {@code now}, or empty when retired. */
    synchronized OptionalLong used(long now) {
        if (retired) {
            return OptionalLong.empty();
        }
        expire(now);
        return OptionalLong.of(used);
    }

    /** Refuses a call before it runs when the cap is already reached; empty when retired. */
    synchronized Optional<BudgetDecision> check(long now, long limit) {
        if (retired) {
            return Optional.empty();
        }
        expire(now);
        if (used < limit) {
            return Optional.of(new BudgetDecision.Allowed(used));
        }
        // the answer's size is unknown: the retry time is when room for the smallest one opens
        return Optional.of(exceeded(now, 0, 1, limit));
    }

    /** Charges {@code requested} tokens when they fit under {@code limit}, else refuses them; empty when retired. */
    synchronized Optional<BudgetDecision> charge(long now, long requested, long limit) {
        if (retired) {
            return Optional.empty();
        }
        expire(now);
        if (requested > limit) {
            return Optional.of(new BudgetDecision.Refused(BudgetRefusal.REQUEST_EXCEEDS_BUDGET, used, limit, requested,
                    OptionalLong.empty(), OptionalLong.empty()));
        }
        if (used + requested > limit) {
            return Optional.of(exceeded(now, requested, requested, limit));
        }
        long before = used;
        add(floorToBucket(now), requested);
        return Optional.of(new BudgetDecision.Allowed(before));
    }

    /** The buckets still in the window, oldest first; empty when retired. */
    synchronized List<TokenBucket> buckets(long now) {
        if (retired) {
            return List.of();
        }
        expire(now);
        List<TokenBucket> copy = new ArrayList<>(buckets.size());
        buckets.forEach(bucket -> copy.add(new TokenBucket(bucket.start, bucket.tokens)));
        return copy;
    }

    /** Retires the window when nothing of it is left in the window at {@code now}. */
    synchronized boolean retireIfEmpty(long now) {
        expire(now);
        if (buckets.isEmpty()) {
            retired = true;
        }
        return retired;
    }

    /**
     * spec 7.3: walks the buckets oldest first until enough tokens have left for {@code needed} to
     * fit ({@code used - freed + needed <= limit}); the retry time is when that bucket leaves.
     */
    private BudgetDecision.Refused exceeded(long now, long requested, long needed, long limit) {
        long freed = 0;
        for (Bucket bucket : buckets) {
            freed += bucket.tokens;
            if (used - freed + needed <= limit) {
                long leavesIn = bucket.start + bucketMs + windowMs - now;
                long seconds = Math.max(1, Math.ceilDiv(leavesIn, 1000));
                return new BudgetDecision.Refused(BudgetRefusal.BUDGET_EXCEEDED, used, limit, requested,
                        OptionalLong.of(seconds), OptionalLong.of(freed));
            }
        }
        // once every bucket has left, used is 0 and needed <= limit fits: the loop always returns
        throw new IllegalStateException("the token window frees " + freed + " of " + used + " tokens yet " + needed
                + " do not fit under " + limit);
    }

    private void add(long start, long tokens) {
        Bucket last = buckets.peekLast();
        if (last != null && last.start >= start) {
            // the same minute, or a clock that stepped back: counted with the newest bucket
            last.tokens += tokens;
        } else {
            buckets.addLast(new Bucket(start, tokens));
        }
        used += tokens;
    }

    private void expire(long now) {
        while (!buckets.isEmpty() && buckets.peekFirst().start + bucketMs + windowMs <= now) {
            used -= buckets.pollFirst().tokens;
        }
    }

    private long floorToBucket(long time) {
        return time - Math.floorMod(time, bucketMs);
    }

    private long ceilToBucket(long time) {
        long floor = floorToBucket(time);
        return floor == time ? time : floor + bucketMs;
    }
}
