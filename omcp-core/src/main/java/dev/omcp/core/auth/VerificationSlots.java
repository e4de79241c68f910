package dev.omcp.core.auth;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Bounds concurrent password verifications. One scrypt verification with the minting parameters
 * allocates 32 MiB and keeps a core busy; without a bound a login flood would exhaust memory and
 * starve {@code /mcp}. {@code running} verifications run at once (about one per core), at most
 * {@code queued} more wait up to {@code maxWait}; anything beyond is refused at once.
 */
public final class VerificationSlots {
    private final Semaphore running;
    private final Semaphore admitted;
    private final Duration maxWait;

    public VerificationSlots(int running, int queued, Duration maxWait) {
        if (running < 1 || queued < 0) {
            throw new IllegalArgumentException("need at least one running slot and a non-negative queue");
        }
        this.running = new Semaphore(running, true);
        this.admitted = new Semaphore(running + queued);
        this.maxWait = maxWait;
    }

    /** One running slot per available core and a queue twice that long. */
    public static VerificationSlots perCore() {
        int cores = Math.max(1, Runtime.getRuntime().availableProcessors());
        return new VerificationSlots(cores, Math.max(4, 2 * cores), Duration.ofSeconds(5));
    }

    /**
     * Runs {@code work} when a slot is free.
     *
     * @return the result, or empty when the queue is full or the wait timed out
     */
    public <T> Optional<T> run(Supplier<T> work) {
        if (!admitted.tryAcquire()) {
            return Optional.empty();
        }
        try {
            if (!running.tryAcquire(maxWait.toMillis(), TimeUnit.MILLISECONDS)) {
                return Optional.empty();
            }
            try {
                return Optional.of(work.get());
            } finally {
                running.release();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            admitted.release();
        }
    }
}
