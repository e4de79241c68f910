package dev.omcp.core.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.testkit.time.ManualClock;
import dev.omcp.ports.auth.FailureOutcome;
import dev.omcp.ports.auth.LockoutPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Spec 3.3, account lockout, row by row, on the in-memory store with a manual clock. */
class LockoutRulesTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final InMemoryAccountLocks locks = new InMemoryAccountLocks();
    private final LockoutPolicy policy = LockoutPolicy.DEFAULT;

    private FailureOutcome fail(String account) {
        return locks.recordFailure(account, clock.instant(), policy);
    }

    private void failTimes(String account, int times) {
        for (int i = 0; i < times; i++) {
            fail(account);
        }
    }

    @Test
    void unlockedAccount_locksWhenTheFifthFailureFallsInsideTheWindow_for60Seconds() {
        // spec 3.3 row 1 / spec 8: 5 failures, 900 s window, 60 s first lock
        for (int i = 1; i <= 4; i++) {
            FailureOutcome outcome = fail("alice");
            assertThat(outcome.failuresInWindow()).isEqualTo(i);
            assertThat(outcome.lockedUntil()).isEmpty();
            clock.advance(Duration.ofSeconds(100));
        }
        FailureOutcome fifth = fail("alice");
        assertThat(fifth.lockedUntil()).contains(clock.instant().plusSeconds(60));
        assertThat(locks.lockedUntil("alice", clock.instant())).contains(clock.instant().plusSeconds(60));
    }

    @Test
    void failuresOlderThanTheWindowDoNotCount() {
        failTimes("alice", 4);
        clock.advance(Duration.ofSeconds(900));
        FailureOutcome outcome = fail("alice");
        assertThat(outcome.failuresInWindow()).isEqualTo(1);
        assertThat(outcome.lockedUntil()).isEmpty();
    }

    @Test
    void theWindowSlides_fourOldAndOneNewFailureStillLockWhileTheOldOnesAreInside() {
        failTimes("alice", 4);
        clock.advance(Duration.ofSeconds(899));
        assertThat(fail("alice").lockedUntil()).isPresent();
    }

    @Test
    void lockedAccount_unlocksWhenTheLockElapses_andEachFurtherLockLastsTwiceAsLong_cappedAt3600() {
        // spec 3.3 row 2: each subsequent lock lasts twice as long, capped
        List<Long> lockSeconds = new ArrayList<>();
        for (int lock = 0; lock < 9; lock++) {
            failTimes("alice", 4);
            Instant at = clock.instant();
            FailureOutcome outcome = fail("alice");
            lockSeconds.add(Duration.between(at, outcome.lockedUntil().orElseThrow()).toSeconds());
            clock.advance(Duration.between(at, outcome.lockedUntil().get()).minusSeconds(1));
            assertThat(locks.lockedUntil("alice", clock.instant())).isPresent();
            clock.advance(Duration.ofSeconds(1));
            assertThat(locks.lockedUntil("alice", clock.instant())).isEmpty();
        }
        assertThat(lockSeconds).containsExactly(60L, 120L, 240L, 480L, 960L, 1920L, 3600L, 3600L, 3600L);
    }

    @Test
    void aSuccessfulLoginClearsTheStreak_theNextLockIsAgainTheFirst() {
        // spec 3.3 row 3
        failTimes("alice", 5);
        clock.advance(Duration.ofSeconds(60));
        failTimes("alice", 3);
        locks.clear("alice");
        failTimes("alice", 4);
        assertThat(fail("alice").lockedUntil()).contains(clock.instant().plusSeconds(60));
    }

    @Test
    void failuresWhileLocked_neitherCountNorExtendTheLock() {
        failTimes("alice", 5);
        Instant until = locks.lockedUntil("alice", clock.instant()).orElseThrow();
        clock.advance(Duration.ofSeconds(30));
        FailureOutcome during = fail("alice");
        assertThat(during.failuresInWindow()).isZero();
        assertThat(during.lockedUntil()).contains(until);
    }

    @Test
    void theStreakIsForgottenAfterADayWithoutFailures() {
        failTimes("alice", 5);
        clock.advance(Duration.ofSeconds(60).plus(Duration.ofHours(24)));
        failTimes("alice", 4);
        assertThat(fail("alice").lockedUntil()).contains(clock.instant().plusSeconds(60));
    }

    @Test
    void accountsAreIndependent() {
        failTimes("alice", 5);
        assertThat(locks.lockedUntil("bob", clock.instant())).isEmpty();
        assertThat(fail("bob").failuresInWindow()).isEqualTo(1);
    }

    @Test
    void concurrentFailures_areEachCounted_andLockExactlyOnce() throws Exception {
        int threads = 16;
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger locksSeen = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            workers.add(Thread.ofVirtual().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                FailureOutcome outcome = fail("alice");
                if (outcome.failuresInWindow() == 5) {
                    locksSeen.incrementAndGet();
                }
            }));
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        assertThat(locksSeen).hasValue(1);
        assertThat(locks.lockedUntil("alice", clock.instant())).contains(clock.instant().plusSeconds(60));
    }

    @Test
    void staleAccountsArePruned_soInventedUsernamesDoNotAccumulate() {
        for (int i = 0; i < 12_000; i++) {
            fail("nobody-" + i);
        }
        clock.advance(Duration.ofHours(25));
        for (int i = 0; i < 1_100; i++) {
            fail("later-" + i);
        }
        assertThat(locks.size()).isLessThan(2_000);
    }

    @Test
    void customPolicy_threeFailuresTenSecondLock() {
        LockoutPolicy custom = new LockoutPolicy(3, Duration.ofSeconds(60), Duration.ofSeconds(10), Duration.ofSeconds(25),
                Duration.ofHours(1));
        for (int i = 0; i < 2; i++) {
            locks.recordFailure("carol", clock.instant(), custom);
        }
        assertThat(locks.recordFailure("carol", clock.instant(), custom).lockedUntil()).contains(clock.instant().plusSeconds(10));
        assertThat(custom.lockDuration(2)).isEqualTo(Duration.ofSeconds(20));
        assertThat(custom.lockDuration(3)).isEqualTo(Duration.ofSeconds(25));
    }
}
