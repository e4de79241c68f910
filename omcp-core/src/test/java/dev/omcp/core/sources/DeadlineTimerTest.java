package dev.omcp.core.sources;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DeadlineTimerTest {
    private final DeadlineTimer timer = new DeadlineTimer("deadline-timer-test");

    private static long in(Duration d) {
        return System.nanoTime() + d.toNanos();
    }

    private static boolean threadAlive(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }

    @Test
    void theThreadEndsWhenNothingIsArmed_andTheNextDeadlineStartsAnother() throws InterruptedException {
        // an embedding service that closed its gateway is left with no thread of ours once it is idle
        String name = "deadline-timer-idle-test";
        DeadlineTimer idling = new DeadlineTimer(name, Duration.ofMillis(100));
        CountDownLatch first = new CountDownLatch(1);
        idling.schedule(in(Duration.ofMillis(10)), first::countDown);
        assertThat(first.await(5, TimeUnit.SECONDS)).isTrue();

        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (threadAlive(name) && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertThat(threadAlive(name)).as("the idle timer thread ended").isFalse();

        CountDownLatch second = new CountDownLatch(1);
        idling.schedule(in(Duration.ofMillis(10)), second::countDown);
        assertThat(second.await(5, TimeUnit.SECONDS)).as("a deadline armed after the thread ended still runs").isTrue();
    }

    @Test
    void runsTheActionAtItsDeadlineAndNotBefore() throws InterruptedException {
        long armedAt = System.nanoTime();
        AtomicLong ranAt = new AtomicLong();
        CountDownLatch ran = new CountDownLatch(1);
        timer.schedule(in(Duration.ofMillis(80)), () -> {
            ranAt.set(System.nanoTime());
            ran.countDown();
        });

        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(Duration.ofNanos(ranAt.get() - armedAt)).isGreaterThanOrEqualTo(Duration.ofMillis(80));
    }

    @Test
    void aCancelledDeadlineNeverRuns() throws InterruptedException {
        AtomicBoolean cancelledRan = new AtomicBoolean();
        timer.schedule(in(Duration.ofMillis(30)), () -> cancelledRan.set(true)).cancel();
        CountDownLatch later = new CountDownLatch(1);
        timer.schedule(in(Duration.ofMillis(120)), later::countDown);

        assertThat(later.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(cancelledRan).isFalse();
    }

    @Test
    void aDeadlineEarlierThanTheOneTheTimerSleepsUntilWakesIt() throws InterruptedException {
        // the timer thread sleeps until the 60 s deadline; arming an earlier one must not wait for that
        timer.schedule(in(Duration.ofSeconds(60)), () -> {});
        Thread.sleep(50); // let the timer thread settle into its long wait
        CountDownLatch early = new CountDownLatch(1);
        long armedAt = System.nanoTime();
        timer.schedule(in(Duration.ofMillis(50)), early::countDown);

        assertThat(early.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - armedAt)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void cancelledDeadlinesAreSweptSoTheTimerHoldsOnlyAboutWhatIsLive() {
        // a busy gateway arms and cancels one far deadline per call; the cancelled ones must not pile up
        for (int i = 0; i < 20_000; i++) {
            timer.schedule(in(Duration.ofMinutes(10)), () -> {}).cancel();
        }
        DeadlineTimer.Armed live = timer.schedule(in(Duration.ofMinutes(10)), () -> {});

        assertThat(timer.held()).isLessThanOrEqualTo(1025);
        live.cancel();
    }

    @Test
    void aFailingActionDoesNotStopTheDeadlinesAfterIt() throws InterruptedException {
        timer.schedule(in(Duration.ofMillis(10)), () -> {
            throw new IllegalStateException("planted failure");
        });
        CountDownLatch after = new CountDownLatch(1);
        timer.schedule(in(Duration.ofMillis(60)), after::countDown);

        assertThat(after.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void anActionThrowingAnError_doesNotStopTheDeadlinesAfterIt() throws InterruptedException {
        // an OutOfMemoryError in one fan-out's deadline action must not end the timer every later call relies on
        timer.schedule(in(Duration.ofMillis(10)), () -> {
            throw new OutOfMemoryError("planted: Java heap space");
        });
        CountDownLatch after = new CountDownLatch(1);
        timer.schedule(in(Duration.ofMillis(60)), after::countDown);

        assertThat(after.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aCancelledDeadlineLetsGoOfWhatItsActionHolds() throws InterruptedException {
        // a fan-out's action holds its futures and their answers; cancelled entries wait in the queue
        // until swept, and keeping those answers alive until then made the garbage collector work
        // several times harder under load
        WeakReference<Object> held = armAndCancelHolding(new byte[1 << 20]);

        for (int i = 0; i < 50 && held.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(held.get()).isNull();
    }

    private WeakReference<Object> armAndCancelHolding(Object answer) {
        timer.schedule(in(Duration.ofMinutes(10)), () -> answer.hashCode()).cancel();
        return new WeakReference<>(answer);
    }
}
