package dev.omcp.adapters.storage.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.omcp.adapters.storage.CapturedLog;
import dev.omcp.adapters.storage.TestClock;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ClockAgreementTest {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private final TestClock replica = new TestClock(T0);
    private final ClockAgreement agreement = new ClockAgreement(replica, () -> T0, "redis://127.0.0.1:6390");

    @RegisterExtension
    final CapturedLog log = new CapturedLog(ClockAgreement.class);

    @Test
    void aClockWithinTheLimit_passesEitherWay() {
        replica.set(T0.plus(RedisRevocationStore.MAX_CLOCK_OFFSET));
        assertThatCode(agreement::check).doesNotThrowAnyException();
        replica.set(T0.minus(RedisRevocationStore.MAX_CLOCK_OFFSET));
        assertThatCode(agreement::check).doesNotThrowAnyException();
    }

    @Test
    void aClockFurtherOff_isRefused_namingHowFarWhichWayTheStoreAndTheFix() {
        replica.set(T0.plus(Duration.ofMinutes(7).plusSeconds(12)));
        assertThatThrownBy(agreement::check).isInstanceOf(SharedStateUnavailableException.class)
                .hasMessageContaining("clock is 7 min 12 s ahead of the clock of the shared store redis://127.0.0.1:6390")
                .hasMessageContaining("more than the 30 s a replica may be").hasMessageContaining("(NTP)");
        replica.set(T0.minus(Duration.ofHours(2)));
        assertThatThrownBy(agreement::check).hasMessageContaining("clock is 2 h behind the clock");
    }

    @Test
    void afterARefusal_readsMeasureAgainAtOnce_soAFixedClockServesRightAway() {
        replica.set(T0.plus(Duration.ofMinutes(7)));
        assertThatThrownBy(agreement::check).isInstanceOf(SharedStateUnavailableException.class);
        assertThatThrownBy(agreement::checkIfDue).as("the last measurement found it off")
                .isInstanceOf(SharedStateUnavailableException.class);

        replica.set(T0);

        assertThatCode(agreement::checkIfDue).doesNotThrowAnyException();
    }

    @Test
    void readsGoByTheLastMeasurementUntilItIsDue() {
        AtomicReference<Instant> server = new AtomicReference<>(T0);
        AtomicLong monotonic = new AtomicLong();
        ClockAgreement reads = new ClockAgreement(replica, server::get, "redis://127.0.0.1:6390", monotonic::get);
        reads.check();
        server.set(T0.minus(Duration.ofMinutes(7))); // the server's clock steps back: only a measurement shows it

        assertThatCode(reads::checkIfDue).as("measured less than 30 s ago").doesNotThrowAnyException();
        assertThatThrownBy(reads::check).as("an add measures each time").isInstanceOf(SharedStateUnavailableException.class);
    }

    @Test
    void readsMeasureAgainOnce30sPassed() {
        AtomicReference<Instant> server = new AtomicReference<>(T0);
        AtomicLong monotonic = new AtomicLong();
        ClockAgreement reads = new ClockAgreement(replica, server::get, "redis://127.0.0.1:6390", monotonic::get);
        reads.check();
        server.set(T0.minus(Duration.ofMinutes(7)));

        monotonic.addAndGet(Duration.ofSeconds(ClockAgreement.RECHECK_SECONDS).toNanos());
        replica.advance(Duration.ofSeconds(ClockAgreement.RECHECK_SECONDS));

        assertThatThrownBy(reads::checkIfDue).isInstanceOf(SharedStateUnavailableException.class);
    }

    @Test
    void aClockThatRunsOnWithTheMonotonicOne_isNotMeasuredBeforeItIsDue() {
        AtomicInteger measurements = new AtomicInteger();
        AtomicLong monotonic = new AtomicLong();
        ClockAgreement reads = new ClockAgreement(replica, () -> {
            measurements.incrementAndGet();
            return replica.instant();
        }, "redis://127.0.0.1:6390", monotonic::get);
        reads.check();

        // 29 s in steps, with the wall clock 0.9 s apart from the monotonic one at the end (slewing is far slower)
        for (int second = 1; second < ClockAgreement.RECHECK_SECONDS; second++) {
            monotonic.addAndGet(Duration.ofSeconds(1).toNanos());
            replica.advance(Duration.ofSeconds(1));
            reads.checkIfDue();
        }
        replica.advance(Duration.ofMillis(ClockAgreement.STEP_TOLERANCE_MILLIS - 100));
        reads.checkIfDue();

        assertThat(measurements).hasValue(1);
    }

    @Test
    void aSlowRoundTrip_doesNotMakeAnAgreeingClockLookOff() {
        // the store reads its clock (T0) as the request arrives and its answer takes 25 s to come back: this replica's
        // clock agrees with the store's, it is only read 25 s later
        AtomicLong monotonic = new AtomicLong();
        ClockAgreement slow = new ClockAgreement(replica, () -> {
            replica.advance(Duration.ofSeconds(25));
            monotonic.addAndGet(Duration.ofSeconds(25).toNanos());
            return T0;
        }, "redis://127.0.0.1:6390", monotonic::get);

        assertThatCode(slow::check).doesNotThrowAnyException();
    }

    @Test
    void aRoundTripLongerThanTheLimit_provesNothing_soItIsRefusedAndTheNextReadMeasuresAgain() {
        // answered after 50 s (a stop-the-world pause, a stalled connection): the store read its clock somewhere in those 50 s,
        // so a clock up to 80 s off would pass as agreeing, beyond what the blocklist's deletion margin covers for four clocks
        AtomicLong monotonic = new AtomicLong();
        AtomicInteger calls = new AtomicInteger();
        ClockAgreement stalled = new ClockAgreement(replica, () -> {
            if (calls.getAndIncrement() == 0) {
                replica.advance(Duration.ofSeconds(50));
                monotonic.addAndGet(Duration.ofSeconds(50).toNanos());
                return T0.plus(Duration.ofSeconds(25));
            }
            return replica.instant();
        }, "redis://127.0.0.1:6390", monotonic::get);

        assertThatThrownBy(stalled::check).isInstanceOf(SharedStateUnavailableException.class)
                .hasMessageContaining("took 50 s").hasMessageContaining("redis://127.0.0.1:6390");
        assertThatCode(stalled::checkIfDue).as("a prompt answer settles it").doesNotThrowAnyException();
    }

    @Test
    void aStepOfThisReplicasClock_isMeasuredAtTheNextRead_notUpTo30sLater() {
        agreement.check();

        replica.set(T0.plus(Duration.ofMinutes(7))); // an NTP step: the wall clock moved, the monotonic one did not

        assertThatThrownBy(agreement::checkIfDue).as("a clock that stepped since the last measurement is measured again at once")
                .isInstanceOf(SharedStateUnavailableException.class).hasMessageContaining("7 min ahead");
    }

    @Test
    void aStepDuringTheRoundTrip_isNotTakenForASlowAnswer() {
        // the store answers at once, but this replica's clock steps 7 min ahead while the answer is on its way
        ClockAgreement stepping = new ClockAgreement(replica, () -> {
            replica.advance(Duration.ofMinutes(7));
            return T0;
        }, "redis://127.0.0.1:6390");

        assertThatThrownBy(stepping::check).isInstanceOf(SharedStateUnavailableException.class).hasMessageContaining("ahead");
    }

    @Test
    void anOlderMeasurementThatEndsLast_doesNotOverrideANewerOneThatFoundTheClockOff() throws Exception {
        CountDownLatch firstAsked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        ClockAgreement shared = new ClockAgreement(replica, () -> {
            if (calls.getAndIncrement() == 0) {
                firstAsked.countDown();
                await(release);
                return T0; // read before the store's clock stepped: agrees
            }
            return T0.minus(Duration.ofMinutes(7)); // read after it: this replica is 7 min ahead
        }, "redis://127.0.0.1:6390");
        CompletableFuture<Void> older = CompletableFuture.runAsync(shared::check);
        firstAsked.await();

        assertThatThrownBy(shared::check).isInstanceOf(SharedStateUnavailableException.class);
        release.countDown();
        older.get(10, TimeUnit.SECONDS);

        assertThatThrownBy(shared::checkIfDue).as("the newer measurement found the clock off: reads must not go by the older one")
                .isInstanceOf(SharedStateUnavailableException.class);
    }

    @Test
    void aSkewMetRightAfterAnInconclusiveMeasurement_isStillLoggedAsBeginning() {
        // agreeing, then one stalled answer, then a clock found off: the operator must learn of the skew all the same
        ClockAgreement measured = secondAnswerStalls50s();
        measured.check();
        assertThatThrownBy(measured::check).hasMessageContaining("took 50 s");
        replica.set(T0.plus(Duration.ofMinutes(7)));

        assertThatThrownBy(measured::check).hasMessageContaining("min 59 s ahead");

        assertThat(said(Level.ERROR, "clock-skew-with-shared-store")).hasSize(1);
    }

    @Test
    void anInconclusiveMeasurementBetweenAgreeingOnes_isNoSkew_soNoRecoveryIsLogged() {
        AtomicLong monotonic = new AtomicLong();
        AtomicInteger calls = new AtomicInteger();
        ClockAgreement measured = new ClockAgreement(replica, () -> {
            Instant asked = replica.instant();
            monotonic.addAndGet(1_000_000);
            if (calls.getAndIncrement() == 1) {
                stall(monotonic, Duration.ofSeconds(50));
            }
            return asked;
        }, "redis://127.0.0.1:6390", monotonic::get);
        measured.check();
        assertThatThrownBy(measured::check).hasMessageContaining("took 50 s");

        measured.check();

        assertThat(said(Level.WARN, "clock-check-inconclusive")).hasSize(1);
        assertThat(said(Level.INFO, "clock-agrees-with-shared-store")).as("nothing was refused for a skew, so nothing recovers")
                .isEmpty();
    }

    @Test
    void aSkewThatEndsAfterAnInconclusiveMeasurement_isLoggedAsEnded() {
        ClockAgreement measured = secondAnswerStalls50s();
        replica.set(T0.plus(Duration.ofMinutes(7)));
        assertThatThrownBy(measured::check).hasMessageContaining("min 59 s ahead");
        assertThatThrownBy(measured::check).hasMessageContaining("took 50 s");
        replica.set(T0);

        measured.check();

        assertThat(said(Level.ERROR, "clock-skew-with-shared-store")).hasSize(1);
        assertThat(said(Level.INFO, "clock-agrees-with-shared-store")).hasSize(1);
    }

    @Test
    void manyRequestsMeetingOneSkewAtOnce_logItOnce() throws Exception {
        int threads = 8;
        CyclicBarrier together = new CyclicBarrier(threads);
        AtomicInteger calls = new AtomicInteger();
        ClockAgreement shared = new ClockAgreement(replica, () -> {
            if (calls.getAndIncrement() > 0) {
                awaitAll(together); // every request is between asking and hearing the answer at once
            }
            return T0;
        }, "redis://127.0.0.1:6390");
        shared.check();
        replica.set(T0.plus(Duration.ofMinutes(7))); // a step: every request measures

        try (ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> refused = IntStream.range(0, threads).<Future<?>>mapToObj(i -> requests.submit(() ->
                    assertThatThrownBy(shared::checkIfDue).isInstanceOf(SharedStateUnavailableException.class))).toList();
            for (Future<?> request : refused) {
                request.get(10, TimeUnit.SECONDS);
            }
        }

        assertThat(said(Level.ERROR, "clock-skew-with-shared-store")).hasSize(1);
    }

    /** Measures against a store whose clock stands at T0, each measurement starting after the one before and taking 1 ms. */
    private ClockAgreement againstAStoreAtT0() {
        AtomicLong monotonic = new AtomicLong();
        return new ClockAgreement(replica, () -> {
            monotonic.addAndGet(1_000_000);
            return T0;
        }, "redis://127.0.0.1:6390", monotonic::get);
    }

    @Test
    void aClockRightAtTheLimit_jitteringAcrossIt_isOneSkew_loggedOnce_endedOnlyWellWithinTheLimit() {
        // the round trip's jitter moves a clock that sits at 30 s to either side of it: each crossing back must not end the
        // skew, or every crossing logs a pair of lines and the replica serves and refuses by turns
        ClockAgreement measured = againstAStoreAtT0();
        for (long millis : new long[] {30_200, 29_800, 30_100, 29_500, 30_400, 29_100}) {
            replica.set(T0.plusMillis(millis));
            assertThatThrownBy(measured::check).as("%d ms ahead", millis).isInstanceOf(SharedStateUnavailableException.class);
        }

        replica.set(T0.plusMillis(29_000));
        assertThatCode(measured::check).as("1 s within the limit ends it").doesNotThrowAnyException();

        assertThat(said(Level.ERROR, "clock-skew-with-shared-store")).hasSize(1);
        assertThat(said(Level.INFO, "clock-agrees-with-shared-store")).hasSize(1);
    }

    @Test
    void theMarginHoldsBehindTheStoreToo() {
        ClockAgreement measured = againstAStoreAtT0();
        replica.set(T0.minusMillis(30_500));
        assertThatThrownBy(measured::check).hasMessageContaining("30 s behind").hasMessageContaining("more than the 30 s");
        replica.set(T0.minusMillis(29_500));
        assertThatThrownBy(measured::check).isInstanceOf(SharedStateUnavailableException.class);
        replica.set(T0.minusMillis(28_900));
        assertThatCode(measured::check).doesNotThrowAnyException();
    }

    @Test
    void aRefusalWithinTheLimit_saysTheClockWasFurtherOff_andHowCloseItMustComeBack() {
        ClockAgreement measured = againstAStoreAtT0();
        replica.set(T0.plusSeconds(45));
        assertThatThrownBy(measured::check).isInstanceOf(SharedStateUnavailableException.class);
        replica.set(T0.plusMillis(29_700));

        assertThatThrownBy(measured::check).isInstanceOf(SharedStateUnavailableException.class)
                .hasMessageContaining("clock is 29 s ahead of the clock of the shared store redis://127.0.0.1:6390")
                .hasMessageContaining("within 29 s").hasMessageContaining("(NTP)").hasMessageNotContaining("more than the 30 s");
    }

    @Test
    void theMarginIsForEndingASkew_aClockThatWasNeverOff_isServedUpToTheLimit() {
        ClockAgreement measured = againstAStoreAtT0();
        replica.set(T0.plusMillis(29_900));
        assertThatCode(measured::check).doesNotThrowAnyException();

        replica.set(T0.plusSeconds(31));
        assertThatThrownBy(measured::check).isInstanceOf(SharedStateUnavailableException.class);
        replica.set(T0);
        measured.check();
        replica.set(T0.plusMillis(29_900));

        assertThatCode(measured::check).as("the skew ended; the full limit applies again").doesNotThrowAnyException();
        assertThat(said(Level.ERROR, "clock-skew-with-shared-store")).hasSize(1);
    }

    @Test
    void anInconclusiveMeasurementDuringASkew_doesNotEndItsMargin() {
        ClockAgreement measured = secondAnswerStalls50s();
        replica.set(T0.plusMillis(31_500));
        assertThatThrownBy(measured::check).hasMessageContaining("31 s ahead");
        assertThatThrownBy(measured::check).hasMessageContaining("took 50 s");
        replica.set(T0.plusMillis(29_500));

        assertThatThrownBy(measured::check).isInstanceOf(SharedStateUnavailableException.class).hasMessageContaining("within 29 s");
        assertThat(said(Level.INFO, "clock-agrees-with-shared-store")).isEmpty();
    }

    @Test
    void anInconclusiveMeasurement_tellsTheOperatorWhatToCheck() {
        AtomicLong monotonic = new AtomicLong();
        ClockAgreement stalled = new ClockAgreement(replica, () -> {
            stall(monotonic, Duration.ofSeconds(50));
            return T0;
        }, "redis://127.0.0.1:6390", monotonic::get);

        assertThatThrownBy(stalled::check).isInstanceOf(SharedStateUnavailableException.class);

        assertThat(said(Level.WARN, "clock-check-inconclusive")).singleElement().asString().contains("fix=\"");
    }

    @Test
    void aStoreTimeFurtherOffThanAnyDifferenceOfMillis_isRefusedInTheRightDirection() {
        ClockAgreement farBehind = new ClockAgreement(replica, () -> Instant.ofEpochMilli(Long.MIN_VALUE), "redis://127.0.0.1:6390");
        ClockAgreement farAhead = new ClockAgreement(replica, () -> Instant.ofEpochMilli(Long.MAX_VALUE), "redis://127.0.0.1:6390");

        assertThatThrownBy(farBehind::check).isInstanceOf(SharedStateUnavailableException.class).hasMessageContaining(" ahead of");
        assertThatThrownBy(farAhead::check).isInstanceOf(SharedStateUnavailableException.class).hasMessageContaining(" behind");
    }

    /**
     * A store answering {@link #T0} whose second answer takes 50 s (inconclusive), each measurement starting after the
     * one before, as System.nanoTime shows.
     */
    private ClockAgreement secondAnswerStalls50s() {
        AtomicLong monotonic = new AtomicLong();
        AtomicInteger calls = new AtomicInteger();
        return new ClockAgreement(replica, () -> {
            monotonic.addAndGet(1_000_000);
            if (calls.getAndIncrement() == 1) {
                stall(monotonic, Duration.ofSeconds(50));
            }
            return T0;
        }, "redis://127.0.0.1:6390", monotonic::get);
    }

    /** The answer takes {@code pause} to come back, by both clocks. */
    private void stall(AtomicLong monotonic, Duration pause) {
        replica.advance(pause);
        monotonic.addAndGet(pause.toNanos());
    }

    private List<String> said(Level level, String event) {
        return log.messages(level).stream().filter(message -> message.startsWith("event=" + event + " ")).toList();
    }

    private static void awaitAll(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void spansLeaveOutZeroParts() {
        assertThat(ClockAgreement.span(60_000)).isEqualTo("1 min");
        assertThat(ClockAgreement.span(59_999)).isEqualTo("59 s");
        assertThat(ClockAgreement.span(3_723_000)).isEqualTo("1 h 2 min 3 s");
        assertThat(ClockAgreement.span(3_601_000)).isEqualTo("1 h 1 s");
        assertThat(ClockAgreement.span(0)).isEqualTo("0 s");
    }
}
