package dev.omcp.adapters.storage.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BatchPumpTest {
    /** Records what reached the sink, by either door. */
    private static class Recording implements BatchPump.Handler<Integer> {
        final List<Integer> delivered = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> left = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void deliver(List<Integer> batch) {
            delivered.addAll(batch);
        }

        @Override
        public void leftAtShutdown(List<Integer> items) {
            left.addAll(items);
        }

        final List<Integer> failed = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void failed(List<Integer> batch, RuntimeException cause) {
            failed.addAll(batch);
        }
    }

    private static BatchPump<Integer> pump(Recording sink) {
        return new BatchPump<>("test-pump", 10_000, new BatchWindow(50, Duration.ofMillis(20)), Duration.ofMillis(200),
                Clock.systemUTC(), sink);
    }

    @Test
    void aBatchWhoseDeliveryFailsUnexpectedly_isHandedToTheSink_andTheWorkerGoesOnWithTheNext() throws Exception {
        // a bug in one delivery (an exception no retry expects) stopped the worker: the batch in hand was lost,
        // and every later item waited in the queue until shutdown while the sink looked alive
        Recording sink = new Recording() {
            @Override
            public void deliver(List<Integer> batch) {
                if (batch.contains(1)) {
                    throw new IllegalArgumentException("invalid header value");
                }
                super.deliver(batch);
            }
        };
        BatchPump<Integer> pump = pump(sink);
        assertThat(pump.offer(1)).isTrue();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (sink.failed.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(pump.offer(2)).isTrue();
        while (sink.delivered.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(sink.failed).containsExactly(1);
        assertThat(sink.delivered).containsExactly(2);
        assertThat(pump.running()).isTrue();
        pump.close();
        assertThat(sink.left).isEmpty();
    }

    @Test
    void anItemOfferedAfterClose_isRefused_notQueuedWhereNobodyReadsIt() {
        Recording sink = new Recording();
        BatchPump<Integer> pump = pump(sink);
        pump.close();

        assertThat(pump.offer(1)).isFalse();
        assertThat(pump.closing()).as("a refused offer on a closed pump is told apart from a full queue").isTrue();
        assertThat(sink.delivered).isEmpty();
        assertThat(sink.left).isEmpty();
    }

    @Test
    void itemsOfferedWhileThePumpCloses_areEachDeliveredLeftOrRefused_neverLost() throws Exception {
        for (int round = 0; round < 5; round++) {
            Recording sink = new Recording();
            BatchPump<Integer> pump = pump(sink);
            AtomicInteger next = new AtomicInteger();
            List<Integer> refused = Collections.synchronizedList(new ArrayList<>());
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch offering = new CountDownLatch(2);
            List<Thread> offerers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                offerers.add(Thread.ofVirtual().start(() -> {
                    offering.countDown();
                    while (!stop.get() && next.get() < 20_000) {
                        int item = next.getAndIncrement();
                        if (!pump.offer(item)) {
                            refused.add(item);
                            if (pump.closing()) {
                                return;
                            }
                        }
                    }
                }));
            }
            offering.await();
            pump.close();
            stop.set(true);
            for (Thread t : offerers) {
                t.join(Duration.ofSeconds(5));
            }

            List<Integer> accounted = new ArrayList<>(sink.delivered);
            accounted.addAll(sink.left);
            accounted.addAll(refused);
            assertThat(accounted).as("round %d", round).hasSize(next.get()).doesNotHaveDuplicates();
        }
    }
}
