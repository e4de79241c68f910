package dev.omcp.core.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
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
