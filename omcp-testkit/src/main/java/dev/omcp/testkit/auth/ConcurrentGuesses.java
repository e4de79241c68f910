package dev.omcp.testkit.auth;

import dev.omcp.ports.auth.LoginResult;
import dev.omcp.ports.auth.PasswordHash;
import dev.omcp.ports.auth.PasswordHasher;
import dev.omcp.ports.auth.PasswordLogin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A password hasher that holds every verification of a round of concurrent guesses until each guess
 * has either reached a verification or been answered without one. That is the widest window a
 * check-then-record login can have: every guess that can pass the account lock before any failure
 * is recorded does pass it. Give the login service this hasher and enough verification slots for
 * all guesses, then call {@link #guess}.
 */
public final class ConcurrentGuesses implements PasswordHasher {
    private static final Duration SETTLE_WITHIN = Duration.ofSeconds(30);
    private static final ThreadLocal<Boolean> VERIFYING = ThreadLocal.withInitial(() -> false);

    private final PasswordHasher delegate;
    private final AtomicInteger verifications = new AtomicInteger();
    private volatile Round round;

    /** @param delegate the hasher that really hashes and verifies */
    public ConcurrentGuesses(PasswordHasher delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public PasswordHash hash(String password) {
        return delegate.hash(password);
    }

    @Override
    public boolean verify(String password, PasswordHash hash) {
        verifications.incrementAndGet();
        Round current = round;
        if (current != null) {
            VERIFYING.set(true);
            current.settled.countDown();
            try {
                current.release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while held at the verification", e);
            }
        }
        return delegate.verify(password, hash);
    }

    /**
     * Sends one login per password for {@code username} at once, each from its own address, and
     * answers what each got and how many passwords were verified.
     *
     * @throws AssertionError when the guesses do not settle within 30 s or a login throws
     */
    public Outcome guess(PasswordLogin login, String username, List<String> passwords) throws InterruptedException {
        if (passwords.isEmpty() || passwords.size() > 250) {
            throw new IllegalArgumentException("between 1 and 250 guesses, one address each");
        }
        Round current = new Round(new CountDownLatch(passwords.size()), new CountDownLatch(1));
        int before = verifications.get();
        round = current;
        CountDownLatch go = new CountDownLatch(1);
        AtomicReferenceArray<LoginResult> results = new AtomicReferenceArray<>(passwords.size());
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < passwords.size(); i++) {
            int index = i;
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    go.await();
                    results.set(index, login.login(username, passwords.get(index), "192.0.2." + (index + 1)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    errors.add(e);
                } finally {
                    if (!VERIFYING.get()) {
                        current.settled.countDown();
                    }
                }
            }));
        }
        go.countDown();
        boolean settled = current.settled.await(SETTLE_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
        current.release.countDown();
        round = null;
        for (Thread thread : threads) {
            thread.join(SETTLE_WITHIN);
        }
        if (!settled || threads.stream().anyMatch(Thread::isAlive)) {
            throw new AssertionError("the concurrent guesses did not settle within " + SETTLE_WITHIN.toSeconds() + " s");
        }
        if (!errors.isEmpty()) {
            throw new AssertionError("a login threw", errors.peek());
        }
        List<LoginResult> answers = new ArrayList<>();
        for (int i = 0; i < results.length(); i++) {
            answers.add(results.get(i));
        }
        return new Outcome(answers, verifications.get() - before);
    }

    /** What a round of guesses got, in the order of the passwords, and how many were verified. */
    public record Outcome(List<LoginResult> results, int verifications) {
        public Outcome {
            results = List.copyOf(results);
        }

        /** How many guesses got an answer of {@code type}. */
        public long count(Class<? extends LoginResult> type) {
            return results.stream().filter(type::isInstance).count();
        }
    }

    private record Round(CountDownLatch settled, CountDownLatch release) {}
}
