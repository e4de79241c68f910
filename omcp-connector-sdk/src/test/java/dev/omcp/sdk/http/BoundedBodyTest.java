package dev.omcp.sdk.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A body the heap has no room for. A hostile (or merely large) backend answering just under the
 * bound, a few times at once, filled the launcher's heap: the array of the whole body could not be
 * allocated in {@code onComplete}, the error ended the client's delivery, the caller never got an
 * answer, and the parts read so far (up to the bound) stayed reachable until restart.
 */
class BoundedBodyTest {
    private static final Flow.Subscription SUBSCRIPTION = new Flow.Subscription() {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
    };

    private static byte[] noRoom(int size) {
        if (size > 64) {
            throw new OutOfMemoryError("Java heap space");
        }
        return new byte[size];
    }

    @Test
    void aBodyWithoutRoomForItsArray_failsAsNoMemory_andHoldsNothingAfterwards() throws Exception {
        BoundedBody.Collector collector = new BoundedBody.Collector(1 << 20, -1, BoundedBodyTest::noRoom);
        collector.onSubscribe(SUBSCRIPTION);
        collector.onNext(List.of(ByteBuffer.wrap(new byte[100]), ByteBuffer.wrap(new byte[100])));
        assertThat(collector.held()).isEqualTo(200);

        collector.onComplete();

        assertThatThrownBy(() -> collector.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .satisfies(e -> assertThat(BoundedBody.isOutOfMemory(e.getCause())).isTrue());
        assertThat(collector.held()).isZero();
    }

    @Test
    void aDeclaredBodyWithoutRoomForItsArray_failsAsNoMemoryBeforeReading() {
        BoundedBody.Collector collector = new BoundedBody.Collector(1 << 20, 1000, BoundedBodyTest::noRoom);
        collector.onSubscribe(SUBSCRIPTION);
        assertThat(collector.getBody().toCompletableFuture()).isCompletedExceptionally();
        assertThat(collector.held()).isZero();
    }

    @Test
    void aBodyRefusedAsTooLarge_holdsNothingAfterwards() {
        BoundedBody.Collector collector = new BoundedBody.Collector(150, -1, byte[]::new);
        collector.onSubscribe(SUBSCRIPTION);
        collector.onNext(List.of(ByteBuffer.wrap(new byte[100])));
        collector.onNext(List.of(ByteBuffer.wrap(new byte[100])));
        assertThatThrownBy(() -> collector.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS))
                .satisfies(e -> assertThat(BoundedBody.isTooLarge(e.getCause())).isTrue());
        assertThat(collector.held()).isZero();
    }

    @Test
    void aBodyThatFits_arrivesWhole() throws Exception {
        BoundedBody.Collector collector = new BoundedBody.Collector(1 << 20, -1, byte[]::new);
        collector.onSubscribe(SUBSCRIPTION);
        collector.onNext(List.of(ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.wrap(new byte[] {3})));
        collector.onComplete();
        assertThat(collector.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS)).containsExactly(1, 2, 3);
    }
}
