package dev.omcp.core.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConnectorUseTest {
    private final AtomicInteger closes = new AtomicInteger();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final ConnectorUse use = new ConnectorUse(() -> {
        closes.incrementAndGet();
        closed.countDown();
    });

    @Test
    void anIdleConnector_isClosedAtItsRetirement_once() {
        use.retire();
        use.retire();

        assertThat(closes).hasValue(1);
        assertThat(use.enter()).isFalse();
    }

    @Test
    void aBusyConnector_isClosedByTheLastCallToLeave_once() throws InterruptedException {
        assertThat(use.enter()).isTrue();
        assertThat(use.enter()).isTrue();

        use.retire();
        assertThat(closes).hasValue(0);
        assertThat(use.enter()).as("no call enters a retired connector").isFalse();
        use.leave();
        assertThat(closes).hasValue(0);
        use.leave();

        assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(closes).hasValue(1);
    }

    @Test
    void callsRacingTheRetirement_closeTheConnectorOnce_andOnlyAfterTheLastOneLeft() throws Exception {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger runningAtClose = new AtomicInteger(-1);
        ConnectorUse raced = new ConnectorUse(() -> {
            runningAtClose.set(running.get());
            closes.incrementAndGet();
            closed.countDown();
        });
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Void>> calls = new ArrayList<>();
        try (ExecutorService callers = Executors.newFixedThreadPool(8)) {
            for (int t = 0; t < 8; t++) {
                calls.add(callers.submit(() -> {
                    go.await();
                    for (int i = 0; i < 20_000 && raced.enter(); i++) {
                        running.incrementAndGet();
                        running.decrementAndGet();
                        raced.leave();
                    }
                    return null;
                }));
            }
            go.countDown();
            raced.retire();
        }
        for (Future<Void> call : calls) {
            call.get(); // a caller that failed (a leave refused as never entered) fails the test
        }

        assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(closes).hasValue(1);
        assertThat(runningAtClose).hasValue(0);
        assertThat(raced.enter()).isFalse();
    }

    @Test
    void leavingWithoutEntering_isABug() {
        assertThatThrownBy(use::leave).isInstanceOf(IllegalStateException.class).hasMessageContaining("never entered");
    }

    @Test
    void anUnownedUse_letsCallsIn() {
        ConnectorUse unowned = ConnectorUse.unowned();

        assertThat(unowned.enter()).isTrue();
        unowned.leave();
        unowned.retire();
        assertThat(unowned.enter()).isFalse();
    }
}
